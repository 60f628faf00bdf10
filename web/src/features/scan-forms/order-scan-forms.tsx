import { scanFormDownloadPath } from '@flatship/proto';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Spinner } from '../../components/spinner';
import { fileRequested } from '../downloads/downloads-actions';
import {
  formsOfOrder,
  selectScanFormBusyOrders,
  selectScanForms,
  selectScanFormsError,
  selectScanFormsLoading,
} from './scan-forms-selectors';
import { orderScanFormRequested, scanFormsRequested } from './scan-forms-slice';
import './scan-forms.css';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * A bulk order's SCAN forms among its Batch Orders row's actions: a download for each form made, and "Create SCAN form" while
 * some of its bought labels are on none. Labels from several From addresses (or carriers) get one form each.
 */
export function OrderScanForms({ orderId, userId }: { orderId: string; userId: string | undefined }) {
  const dispatch = useAppDispatch();
  const data = useAppSelector(selectScanForms);
  const busy = useAppSelector(selectScanFormBusyOrders).includes(orderId);
  if (!data) return null;
  const forms = formsOfOrder(data.forms, orderId);
  const waiting = data.unmanifestedByOrder[orderId] ?? 0;
  if (forms.length === 0 && waiting === 0) return null;
  return (
    <span className="scan-forms__cell">
      {forms.map((f, i) => (
        <button
          key={f._id}
          type="button"
          className="button button--ghost scan-forms__button"
          aria-label={`Download SCAN form ${f.formNumber} (${plural(f.labelCount, 'label')})`}
          title={`${f.formNumber}: ${plural(f.labelCount, 'label')} from ${f.fromText}`}
          onClick={() => dispatch(fileRequested({ path: scanFormDownloadPath(f._id), open: 'tab' }))}
        >
          {forms.length === 1 ? 'SCAN form' : `SCAN form ${i + 1}`}
        </button>
      ))}
      {forms.length > 1 ? <span className="scan-forms__note">One form per From address and carrier.</span> : null}
      {waiting > 0 ? (
        <>
          <button
            type="button"
            className="button button--accent scan-forms__button"
            disabled={busy || !userId}
            aria-busy={busy}
            onClick={() => userId && dispatch(orderScanFormRequested({ orderId, userId }))}
          >
            {busy ? (
              <>
                <Spinner size={14} /> Creating SCAN form...
              </>
            ) : (
              'Create SCAN form'
            )}
          </button>
          <span className="scan-forms__note">
            {forms.length > 0 ? `${plural(waiting, 'more label')} not on a form yet` : `${plural(waiting, 'label')}`}
          </span>
        </>
      ) : null}
    </span>
  );
}

/** Above Batch Orders' list: why its SCAN forms are not shown, with a way to ask again. */
export function ScanFormsLoadError({ userId }: { userId: string | undefined }) {
  const dispatch = useAppDispatch();
  const error = useAppSelector(selectScanFormsError);
  const isLoading = useAppSelector(selectScanFormsLoading);
  if (!error || isLoading) return null;
  return (
    <p className="scan-forms__error" role="alert">
      SCAN forms: {error}{' '}
      <button
        type="button"
        className="button button--ghost scan-forms__button"
        onClick={() => userId && dispatch(scanFormsRequested(userId))}
      >
        Try again
      </button>
    </p>
  );
}
