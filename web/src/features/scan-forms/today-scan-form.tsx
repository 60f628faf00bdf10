import { scanFormDownloadPath } from '@flatship/proto';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Spinner } from '../../components/spinner';
import { fileRequested } from '../downloads/downloads-actions';
import {
  selectScanForms,
  selectScanFormsError,
  selectScanFormsLoading,
  selectTodayScanFormBusy,
  todaysForms,
} from './scan-forms-selectors';
import { scanFormsRequested, todayScanFormRequested } from './scan-forms-slice';
import './scan-forms.css';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Orders' SCAN form of the day: one form for every single label bought today that is on none yet, and the forms made
 * today, each to download. The carrier's clerk scans the one barcode instead of every label.
 */
export function TodayScanForm({ userId }: { userId: string | undefined }) {
  const dispatch = useAppDispatch();
  const data = useAppSelector(selectScanForms);
  const isLoading = useAppSelector(selectScanFormsLoading);
  const error = useAppSelector(selectScanFormsError);
  const busy = useAppSelector(selectTodayScanFormBusy);
  const forms = todaysForms(data);
  const waiting = data?.unmanifestedToday ?? 0;

  return (
    <section className="scan-forms__today" aria-labelledby="scan-form-today-heading">
      <div className="scan-forms__today-head">
        <h3 id="scan-form-today-heading" className="scan-forms__title">
          SCAN form for today
        </h3>
        <p className="scan-forms__lead">
          One PS Form 5630 for today's labels: the carrier scans its one barcode instead of every label.
        </p>
      </div>
      {!data && isLoading ? (
        <p className="scan-forms__status" role="status">
          <Spinner size={16} /> Loading SCAN forms...
        </p>
      ) : null}
      {error && !isLoading ? (
        <p className="scan-forms__error" role="alert">
          {error}{' '}
          <button
            type="button"
            className="button button--ghost scan-forms__button"
            onClick={() => userId && dispatch(scanFormsRequested(userId))}
          >
            Try again
          </button>
        </p>
      ) : null}
      {data ? (
        <div className="scan-forms__today-body">
          <div className="scan-forms__create">
            <button
              type="button"
              className="button button--accent"
              disabled={busy || waiting === 0 || !userId}
              aria-busy={busy}
              onClick={() => userId && dispatch(todayScanFormRequested({ userId }))}
            >
              {busy ? (
                <>
                  <Spinner size={14} /> Creating SCAN form...
                </>
              ) : (
                `Create SCAN form for today (${plural(waiting, 'label')})`
              )}
            </button>
            {waiting === 0 && !busy ? (
              <span className="scan-forms__note">
                {forms.length > 0
                  ? 'Every label from today is on a form.'
                  : 'No labels from today are waiting for a SCAN form.'}
              </span>
            ) : null}
          </div>
          {forms.length > 0 ? (
            <ul className="scan-forms__list" aria-label="Today's SCAN forms">
              {forms.map((f) => (
                <li key={f._id} className="scan-forms__item">
                  <span className="scan-forms__number">{f.formNumber}</span>
                  <span>{plural(f.labelCount, 'label')}</span>
                  <span className="scan-forms__from">{f.fromText}</span>
                  <button
                    type="button"
                    className="button button--ghost scan-forms__button"
                    aria-label={`Download SCAN form ${f.formNumber} (${plural(f.labelCount, 'label')})`}
                    onClick={() => dispatch(fileRequested({ path: scanFormDownloadPath(f._id), open: 'tab' }))}
                  >
                    Download PDF
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
