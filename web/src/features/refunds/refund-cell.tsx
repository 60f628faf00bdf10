import { useState } from 'react';
import { formatMoney } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { labelRefundRequested } from './refunds-slice';
import './refunds.css';

/** What a row needs to show and ask for its label's refund (an Orders row or a batch's label). */
export interface RefundableRow {
  id: string;
  status: string;
  price: number;
  refundStatus: 'requested' | 'refunded' | 'rejected' | null;
  refundReason: string | null;
  refundable: boolean;
  refundBlockedReason: string | null;
  /** The batch the label belongs to, so its views are refreshed after. */
  orderId?: string | null;
}

export const REFUND_STATE_TEXT = {
  requested: 'Refund requested',
  refunded: 'Refunded',
  rejected: 'Refund refused',
} as const;

export const refundConfirmText = (price: number) =>
  `Refund this unused label (${formatMoney(price)})? USPS voids it: do not ship with it after asking. The money comes back to your balance when USPS confirms.`;

/**
 * Where a label's refund stands (with the carrier's reason when it refused), or why a bought label cannot be
 * refunded; null when there is nothing to say (no refund asked, or nothing bought).
 */
export function RefundState({
  row,
}: {
  row: Pick<RefundableRow, 'status' | 'refundStatus' | 'refundReason' | 'refundBlockedReason'>;
}) {
  if (row.refundStatus) {
    return (
      <span className="refund-cell">
        <span className={`refund-state refund-state--${row.refundStatus}`}>{REFUND_STATE_TEXT[row.refundStatus]}</span>
        {row.refundStatus === 'rejected' && row.refundReason ? (
          <span className="refund-cell__note">{row.refundReason}</span>
        ) : null}
      </span>
    );
  }
  if (row.status === 'completed' && row.refundBlockedReason) {
    return (
      <span className="refund-cell">
        <span className="refund-cell__muted">Not refundable</span>
        <span className="refund-cell__note">{row.refundBlockedReason}</span>
      </span>
    );
  }
  return null;
}

/** Whether `RefundState` has something to say about the row. */
const hasState = (row: Pick<RefundableRow, 'status' | 'refundStatus' | 'refundBlockedReason'>) =>
  row.refundStatus !== null || (row.status === 'completed' && row.refundBlockedReason !== null);

/** Where a label's refund stands, or a Refund button when one may be asked for; the reason when it may not. */
export function RefundCell({ row }: { row: RefundableRow }) {
  const dispatch = useAppDispatch();
  const busy = useAppSelector((s) => s.refunds?.busyLabels.includes(row.id) ?? false);
  const [isAsking, setAsking] = useState(false);

  if (row.refundable && !row.refundStatus) {
    return (
      <>
        <button
          type="button"
          className="button button--ghost refund-cell__button"
          disabled={busy}
          onClick={() => setAsking(true)}
        >
          {busy ? 'Refunding...' : 'Refund'}
        </button>
        <ConfirmDialog
          isOpen={isAsking}
          title="Refund label"
          text={refundConfirmText(row.price)}
          confirmLabel="Request refund"
          cancelLabel="Keep label"
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            dispatch(labelRefundRequested({ labelId: row.id, orderId: row.orderId ?? null }));
          }}
        />
      </>
    );
  }
  if (hasState(row)) return <RefundState row={row} />;
  return (
    <span className="refund-cell__muted">
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">Nothing to refund</span>
    </span>
  );
}
