import { TRACKING_STAGE_TEXT, type TrackingStage } from '@flatship/proto';
import { useAppDispatch } from '../../app/hooks';
import { trackingOpened } from './tracking-slice';
import './tracking.css';

/** A stage as a coloured badge, its words always written out. */
export function TrackingBadge({ stage }: { stage: TrackingStage }) {
  return <span className={`tracking-badge tracking-badge--${stage}`}>{TRACKING_STAGE_TEXT[stage]}</span>;
}

/**
 * A label's tracking stage; a button (Enter or Space) that opens its events. A dash when there is nothing to track
 * (not bought, or refunded).
 */
export function TrackingCell({
  row,
}: {
  row: { id: string; trackingStage: TrackingStage | null | undefined; trackingNumber: string };
}) {
  const dispatch = useAppDispatch();
  if (!row.trackingStage) {
    return (
      <span className="tracking-cell__none">
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">Nothing to track</span>
      </span>
    );
  }
  return (
    <button
      type="button"
      className="tracking-cell"
      aria-haspopup="dialog"
      aria-label={`${TRACKING_STAGE_TEXT[row.trackingStage]}: show the tracking events of label ${row.trackingNumber}`}
      onClick={() => dispatch(trackingOpened({ labelId: row.id, trackingNumber: row.trackingNumber }))}
    >
      <TrackingBadge stage={row.trackingStage} />
      <span className="tracking-cell__more" aria-hidden="true">
        Events
      </span>
    </button>
  );
}
