import { formatDateTime } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Modal } from '../../components/modal';
import { Spinner } from '../../components/spinner';
import { TrackingBadge } from './tracking-cell';
import { trackingClosed } from './tracking-slice';
import './tracking.css';

/** YYYY-MM-DD as the day it names, e.g. Wed, 9 Dec 2026 (no time zone shift: it is a calendar day). */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** A label's tracking: where the parcel is, when it is expected, and every event its carrier gave, newest first. */
export function TrackingDialog() {
  const dispatch = useAppDispatch();
  const tracking = useAppSelector((s) => s.tracking);
  const close = () => dispatch(trackingClosed());
  const reply = tracking?.reply ?? null;
  const number = reply?.trackingNumber ?? tracking?.trackingNumber ?? '';

  return (
    <Modal
      isOpen={Boolean(tracking?.labelId)}
      title={`Tracking ${number}`.trim()}
      width={640}
      onClose={close}
      footer={
        <button type="button" className="button button--ghost" onClick={close}>
          Close
        </button>
      }
    >
      {tracking?.isLoading ? (
        <p className="tracking__loading" role="status">
          <Spinner size={18} /> Loading tracking...
        </p>
      ) : tracking?.error ? (
        <p className="tracking__error" role="alert">
          {tracking.error}
        </p>
      ) : reply ? (
        <div className="tracking">
          <div className="tracking__summary">
            {reply.stage ? <TrackingBadge stage={reply.stage} /> : <span>Nothing to track: this label is void.</span>}
            {reply.detail ? <span className="tracking__detail">{reply.detail}</span> : null}
          </div>
          <dl className="tracking__facts">
            {reply.estimatedDelivery ? (
              <>
                <dt>Expected delivery</dt>
                <dd>{formatDay(reply.estimatedDelivery)}</dd>
              </>
            ) : null}
            <dt>Last update from USPS</dt>
            <dd>{reply.updatedAt ? formatDateTime(reply.updatedAt) : 'None yet'}</dd>
          </dl>
          {reply.events.length === 0 ? (
            <p className="tracking__empty">
              No tracking events yet. They appear once USPS reports the label, usually within an hour of purchase.
            </p>
          ) : (
            <ol className="tracking__events" aria-label="Tracking events, newest first">
              {reply.events.map((e) => (
                <li key={`${e.at} ${e.description}`} className="tracking__event">
                  <time className="tracking__time" dateTime={e.at}>
                    {formatDateTime(e.at)}
                  </time>
                  <span className="tracking__description">{e.description || 'Scan'}</span>
                  {e.place ? <span className="tracking__place">{e.place}</span> : null}
                </li>
              ))}
            </ol>
          )}
        </div>
      ) : null}
    </Modal>
  );
}
