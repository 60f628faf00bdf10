import { useState } from 'react';
import { formatMoney } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyText } from '../../components/copy-text';
import { type Column, DataTable } from '../../components/data-table';
import { Modal } from '../../components/modal';
import { TrackingCell } from '../tracking/tracking-cell';
import { RefundCell } from './refund-cell';
import type { BatchLabel } from './refunds-api';
import { batchLabelsClosed, batchRefundRequested } from './refunds-slice';
import './refunds.css';

const STATUS_TEXT: Record<BatchLabel['status'], string> = {
  pending: 'Pending',
  completed: 'Bought',
  cancelled: 'Failed',
  void: 'Void',
};

export const unusedConfirmText = (count: number, total: number) =>
  `Refund ${count} unused label${count === 1 ? '' : 's'} (${formatMoney(total)})? USPS voids them: do not ship with them after asking. The money comes back to your balance as USPS confirms each one.`;

/** A batch's labels, each with its refund, and a way to refund every unused one at once (Batch Orders). */
export function BatchLabelsDialog() {
  const dispatch = useAppDispatch();
  const batch = useAppSelector((s) => s.refunds?.batch);
  const busyOrders = useAppSelector((s) => s.refunds?.busyOrders ?? []);
  const [isAsking, setAsking] = useState(false);
  const orderId = batch?.orderId ?? null;
  const labels = batch?.labels ?? [];
  const unused = labels.filter((l) => l.refundable);
  const unusedTotal = unused.reduce((sum, l) => sum + l.price, 0);
  const isBusy = orderId !== null && busyOrders.includes(orderId);

  const columns: Column<BatchLabel>[] = [
    { key: 'row', header: 'Row', align: 'right', render: (l) => l.row ?? '' },
    {
      key: 'receiver',
      header: 'Receiver',
      render: (l) => (
        <span className="batch-labels__receiver">
          <span>{l.receiverName}</span>
          <span className="refund-cell__note">{l.receiverPlace}</span>
        </span>
      ),
    },
    { key: 'status', header: 'Label', render: (l) => STATUS_TEXT[l.status] },
    { key: 'tracking', header: 'Tracking Number', render: (l) => <CopyText text={l.trackingNumber ?? ''} /> },
    {
      key: 'trackingStage',
      header: 'Tracking',
      render: (l) => (
        <TrackingCell row={{ id: l._id, trackingStage: l.trackingStage, trackingNumber: l.trackingNumber ?? '' }} />
      ),
    },
    { key: 'price', header: 'Price', align: 'right', render: (l) => formatMoney(l.price) },
    {
      key: 'refund',
      header: 'Refund',
      render: (l) => <RefundCell row={{ ...l, id: l._id, orderId }} />,
    },
  ];

  return (
    <>
      <Modal
        isOpen={orderId !== null}
        title="Labels of this batch"
        width={860}
        onClose={() => dispatch(batchLabelsClosed())}
        footer={
          <>
            <button type="button" className="button button--ghost" onClick={() => dispatch(batchLabelsClosed())}>
              Close
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={unused.length === 0 || isBusy}
              onClick={() => setAsking(true)}
            >
              {isBusy ? 'Refunding...' : `Refund all unused (${unused.length})`}
            </button>
          </>
        }
      >
        {batch?.error ? (
          <p className="refunds__error" role="alert">
            {batch.error}
          </p>
        ) : null}
        <p className="refunds__lead">
          Unused labels can be refunded within the refund window. Refunded labels are left out of the batch&apos;s
          files.
        </p>
        <DataTable
          caption="Labels of this batch"
          columns={columns}
          rows={labels}
          rowKey={(l) => l._id}
          pageSize={25}
          emptyText="No labels in this batch"
          isLoading={(batch?.isLoading ?? false) && labels.length === 0}
          loadingText="Loading labels..."
        />
      </Modal>
      <ConfirmDialog
        isOpen={isAsking}
        title="Refund unused labels"
        text={unusedConfirmText(unused.length, unusedTotal)}
        confirmLabel="Request refunds"
        cancelLabel="Keep labels"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          if (orderId) dispatch(batchRefundRequested({ orderId }));
        }}
      />
    </>
  );
}
