import type { AddressCheck } from '@flatship/proto';
import { createSelector } from '@reduxjs/toolkit';
import type { RootState } from '../../app/store';
import type { RowZipFlag } from './bulk-address-check-slice';
import { selectBulkRowIds } from './bulk-order-selectors';

const slice = (state: RootState) => state.bulkAddressCheck;

export const selectZipFlags = (state: RootState) => slice(state).zipFlags;
export const selectCheckResults = (state: RootState) => slice(state).results;
export const selectSettledRows = (state: RootState) => slice(state).settled;
export const selectCheckStatus = (state: RootState) => slice(state).status;
export const selectCheckedCount = (state: RootState) => slice(state).checked;
export const selectCheckTotal = (state: RootState) => slice(state).total;
export const selectCheckSummary = (state: RootState) => slice(state).summary;
export const selectIsNeedsLookFiltered = (state: RootState) => slice(state).isFiltered;

/** What a row needs a look for: the carrier's correction or refusal, or the ZIP check's doubts. */
export interface RowNote {
  check: AddressCheck | null;
  zipFlags: RowZipFlag[];
}

export const selectRowNotes = createSelector(
  [selectBulkRowIds, selectZipFlags, selectCheckResults, selectSettledRows],
  (ids, zipFlags, results, settled) => {
    const notes: { id: string; index: number; note: RowNote }[] = [];
    ids.forEach((id, index) => {
      const result = results[id];
      const check =
        result && !settled[id] && (result.verdict === 'corrected' || result.verdict === 'undeliverable')
          ? result
          : null;
      const flags = settled[id] ? [] : (zipFlags[id] ?? []);
      if (check || flags.length > 0) notes.push({ id, index, note: { check, zipFlags: flags } });
    });
    return notes;
  },
);

const selectNotesById = createSelector([selectRowNotes], (notes) => new Map(notes.map((n) => [n.id, n.note])));

export const selectRowNote = (state: RootState, id: string): RowNote | null => selectNotesById(state).get(id) ?? null;

/** The rows the table shows: all of them, or those that need a look. */
export const selectVisibleRowIds = createSelector(
  [selectBulkRowIds, selectRowNotes, selectIsNeedsLookFiltered],
  (ids, notes, isFiltered) => (isFiltered ? notes.map((n) => n.id) : ids),
);

/** The rows whose correction is still on offer, for "Accept all corrections". */
export const selectOpenCorrections = createSelector([selectRowNotes], (notes) =>
  notes.flatMap((n) =>
    n.note.check?.verdict === 'corrected' && n.note.check.address ? [{ id: n.id, address: n.note.check.address }] : [],
  ),
);
