import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Spinner } from '../../components/spinner';
import { oneLine } from '../address-check/address-check';
import {
  selectCheckedCount,
  selectCheckStatus,
  selectCheckSummary,
  selectCheckTotal,
  selectIsNeedsLookFiltered,
  selectOpenCorrections,
  selectRowNotes,
} from './bulk-address-check-selectors';
import {
  addressCheckRequested,
  allCorrectionsAccepted,
  correctionChanges,
  correctionsAccepted,
  needsLookFilterToggled,
  rowKept,
} from './bulk-address-check-slice';
import { selectBulkRowIds } from './bulk-order-selectors';
import { rowsEdited } from './bulk-order-slice';

/** Rows listed by name under the summary; the table's filter shows all of them. */
const NOTES_SHOWN = 20;

/**
 * The file's address checks: the ZIP doubts found as it was read, and "Check addresses", which asks the carrier
 * about every row (nothing is charged), with a progress bar, a summary, "Accept all corrections", a choice per row
 * and a filter of the table to the rows that need a look.
 */
export function BulkAddressCheck() {
  const dispatch = useAppDispatch();
  const rowIds = useAppSelector(selectBulkRowIds);
  const status = useAppSelector(selectCheckStatus);
  const checked = useAppSelector(selectCheckedCount);
  const total = useAppSelector(selectCheckTotal);
  const summary = useAppSelector(selectCheckSummary);
  const notes = useAppSelector(selectRowNotes);
  const corrections = useAppSelector(selectOpenCorrections);
  const isFiltered = useAppSelector(selectIsNeedsLookFiltered);
  const isChecking = status === 'checking';

  return (
    <section className="bulk-check" aria-label="Address check">
      <div className="bulk-check__bar">
        <button
          type="button"
          className="button button--primary"
          disabled={isChecking || rowIds.length === 0}
          aria-busy={isChecking}
          onClick={() => dispatch(addressCheckRequested())}
        >
          {isChecking ? 'Checking addresses…' : 'Check addresses'}
        </button>
        {isChecking ? (
          <div className="bulk-check__progress">
            <Spinner size={16} />
            <progress value={checked} max={Math.max(total, 1)} aria-label="Address check progress" />
            <span>
              Checked {checked} of {total}
            </span>
          </div>
        ) : null}
        {summary ? (
          <p className="bulk-check__summary" role="status">
            {summary.corrected} corrected, {summary.undeliverable} undeliverable
            {summary.unavailable > 0 ? `, ${summary.unavailable} could not be checked` : ''}
          </p>
        ) : status === 'idle' ? (
          <span className="bulk-check__hint">Checks every recipient address with USPS. Nothing is charged.</span>
        ) : null}
        {corrections.length > 0 ? (
          <button type="button" className="button button--ghost" onClick={() => dispatch(allCorrectionsAccepted())}>
            Accept all corrections ({corrections.length})
          </button>
        ) : null}
        {notes.length > 0 || isFiltered ? (
          <label className="bulk-check__filter">
            <input
              type="checkbox"
              checked={isFiltered}
              onChange={(e) => dispatch(needsLookFilterToggled(e.target.checked))}
            />
            Show only rows that need a look ({notes.length})
          </label>
        ) : null}
      </div>
      {notes.length > 0 ? (
        <ul className="bulk-check__notes" aria-label="Rows that need a look">
          {notes.slice(0, NOTES_SHOWN).map(({ id, index, note }) => (
            <li key={id} className="bulk-check__note" data-row-id={id}>
              <strong>Row {index + 1}</strong>{' '}
              {note.check?.verdict === 'corrected' && note.check.address ? (
                <>
                  We suggest: <span className="bulk-check__suggested">{oneLine(note.check.address)}</span>{' '}
                  <button
                    type="button"
                    className="bulk-table__action bulk-table__action--primary"
                    onClick={() => {
                      const address = note.check?.address;
                      if (!address) return;
                      dispatch(rowsEdited([{ id, changes: correctionChanges(address) }]));
                      dispatch(correctionsAccepted([id]));
                    }}
                  >
                    Use suggested
                  </button>
                </>
              ) : note.check?.verdict === 'undeliverable' ? (
                <span className="bulk-check__warn">USPS cannot deliver to this address. {note.check.message}</span>
              ) : null}
              {note.zipFlags.map((f) => (
                <span key={f.message} className={f.kind === 'unknown' ? 'bulk-check__warn' : 'bulk-check__doubt'}>
                  {f.message}.{' '}
                </span>
              ))}
              <button type="button" className="bulk-table__action" onClick={() => dispatch(rowKept(id))}>
                Keep mine
              </button>
            </li>
          ))}
          {notes.length > NOTES_SHOWN ? (
            <li className="bulk-check__more">…and {notes.length - NOTES_SHOWN} more rows.</li>
          ) : null}
        </ul>
      ) : null}
    </section>
  );
}
