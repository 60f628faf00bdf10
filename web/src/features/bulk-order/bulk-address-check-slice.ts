import type { AddressCheck, CheckedAddress } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import {
  bulkOrderAccepted,
  fileLoaded,
  fileReset,
  type RowChanges,
  rowDeleted,
  rowEdited,
  rowsEdited,
} from './bulk-order-slice';

/** The offline ZIP check's doubt about a row (order-files `ZipFlag`). */
export interface RowZipFlag {
  kind: 'unknown' | 'state';
  message: string;
}

export type CheckRunStatus = 'idle' | 'checking' | 'done' | 'failed';

export interface BulkAddressCheckState {
  /** From the file load, by row id. */
  zipFlags: Record<string, RowZipFlag[]>;
  status: CheckRunStatus;
  checked: number;
  total: number;
  /** The carrier's answers of the last "Check addresses", by row id. */
  results: Record<string, AddressCheck>;
  /** Rows whose correction or warning the seller has dealt with (accepted, kept, or edited). */
  settled: Record<string, true>;
  /** Only the rows that need a look are shown in the table. */
  isFiltered: boolean;
  /** What the last check found, as it found it (accepting corrections does not change it). */
  summary: { corrected: number; undeliverable: number; unavailable: number } | null;
}

const initialState: BulkAddressCheckState = {
  zipFlags: {},
  status: 'idle',
  checked: 0,
  total: 0,
  results: {},
  settled: {},
  isFiltered: false,
  summary: null,
};

const ADDRESS_FIELDS = ['ToStreet1', 'ToStreet2', 'ToCity', 'ToStateProvince', 'ToZipPostal'] as const;
const SENDER_ZIP_FIELDS = ['FromZipPostal', 'FromStateProvince'] as const;
const touches = (changes: RowChanges, fields: readonly string[]) => fields.some((f) => f in changes);

export const bulkAddressCheckSlice = createSlice({
  name: 'bulkAddressCheck',
  initialState,
  reducers: {
    /** The seller asked for "Check addresses". */
    addressCheckRequested() {},
    /** The seller asked for "Accept all corrections". */
    allCorrectionsAccepted() {},
    zipFlagsFound(state, action: PayloadAction<Record<string, RowZipFlag[]>>) {
      state.zipFlags = action.payload;
    },
    /** "Check addresses" for these rows (those with a complete recipient address). */
    addressCheckStarted(state, action: PayloadAction<{ total: number }>) {
      state.status = 'checking';
      state.checked = 0;
      state.total = action.payload.total;
      state.results = {};
      state.settled = {};
      state.summary = null;
    },
    addressChunkChecked(state, action: PayloadAction<Record<string, AddressCheck>>) {
      Object.assign(state.results, action.payload);
      state.checked += Object.keys(action.payload).length;
    },
    addressCheckFinished(state) {
      state.status = 'done';
      const results = Object.values(state.results);
      const count = (verdict: AddressCheck['verdict']) => results.filter((r) => r.verdict === verdict).length;
      state.summary = {
        corrected: count('corrected'),
        undeliverable: count('undeliverable'),
        unavailable: count('unavailable'),
      };
    },
    addressCheckFailed(state) {
      state.status = 'failed';
    },
    /** The seller took the suggestion of these rows (the rows themselves change through `rowEdited`). */
    correctionsAccepted(state, action: PayloadAction<string[]>) {
      for (const id of action.payload) {
        state.settled[id] = true;
        delete state.zipFlags[id];
      }
    },
    /** "Keep mine": the row stays as it is, and no longer needs a look. */
    rowKept(state, action: PayloadAction<string>) {
      state.settled[action.payload] = true;
      delete state.zipFlags[action.payload];
    },
    needsLookFilterToggled(state, action: PayloadAction<boolean>) {
      state.isFiltered = action.payload;
    },
  },
  extraReducers: (builder) => {
    const reset = () => initialState;
    builder
      .addCase(fileLoaded, reset)
      .addCase(fileReset, reset)
      .addCase(bulkOrderAccepted, reset)
      .addCase(rowDeleted, (state, action) => {
        delete state.zipFlags[action.payload];
        delete state.results[action.payload];
      })
      .addCase(rowsEdited, (state, action) => {
        for (const { id } of action.payload) state.settled[id] = true;
      })
      .addCase(rowEdited, (state, action) => {
        const { id, changes } = action.payload;
        // An edited address is the seller's answer: the old doubts about it no longer hold.
        if (touches(changes, ADDRESS_FIELDS)) {
          delete state.results[id];
          state.zipFlags[id] = (state.zipFlags[id] ?? []).filter((f) => !f.message.startsWith('Recipient'));
        }
        if (touches(changes, SENDER_ZIP_FIELDS)) {
          state.zipFlags[id] = (state.zipFlags[id] ?? []).filter((f) => !f.message.startsWith('Sender'));
        }
        if (state.zipFlags[id]?.length === 0) delete state.zipFlags[id];
      });
  },
});

export const {
  addressCheckRequested,
  allCorrectionsAccepted,
  zipFlagsFound,
  addressCheckStarted,
  addressChunkChecked,
  addressCheckFinished,
  addressCheckFailed,
  correctionsAccepted,
  rowKept,
  needsLookFilterToggled,
} = bulkAddressCheckSlice.actions;
export const bulkAddressCheckReducer = bulkAddressCheckSlice.reducer;

/** The row's recipient fields for a suggested address. */
export const correctionChanges = (a: CheckedAddress): RowChanges => ({
  ToStreet1: a.street1,
  ToStreet2: a.street2,
  ToCity: a.city,
  ToStateProvince: a.state,
  ToZipPostal: a.zip,
});
