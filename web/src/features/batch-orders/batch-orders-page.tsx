import '../shell/user-area';
import type { BulkFileType } from '@flatship/proto';
import { useEffect } from 'react';
import { formatDateTime, formatMoney } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { type Column, DataTable } from '../../components/data-table';
import { selectUser } from '../auth/auth-selectors';
import { buttonText } from '../bulk-progress/bulk-download';
import { downloadKey, fileDownloadRequested } from '../bulk-progress/bulk-download-slice';
import { selectDownloads, selectPreparing } from '../bulk-progress/bulk-progress-selectors';
import { progressUpdated, progressWindowShown } from '../bulk-progress/bulk-progress-slice';
import { batchLabelsOpened } from '../refunds/refunds-slice';
import { OrderScanForms, ScanFormsLoadError } from '../scan-forms/order-scan-forms';
import { scanFormsRequested } from '../scan-forms/scan-forms-slice';
import type { BatchOrder } from './batch-orders-api';
import { selectBatchBusy, selectBatchOrders, selectBatchOrdersLoading } from './batch-orders-selectors';
import {
  batchFixRequested,
  batchForceRecoveryRequested,
  batchOrdersRequested,
  batchRetryRequested,
} from './batch-orders-slice';
import { batchActions, batchDownloadCell, batchStatusDisplay } from './batch-orders-view';
import './batch-orders.css';
import { LABELS_FILE_WORDS } from '../print-settings/print-settings-selectors';
import { usePrintFormat } from '../print-settings/use-print-format';

const LIST_FILES: { type: BulkFileType; label: string }[] = [
  { type: 'pdf', label: 'PDF' },
  { type: 'result-csv', label: 'Result CSV' },
  { type: 'auto-csv', label: 'Auto Confirm' },
];

export function BatchOrdersPage() {
  const dispatch = useAppDispatch();
  const userId = useAppSelector(selectUser)?._id;
  const orders = useAppSelector(selectBatchOrders);
  const isLoading = useAppSelector(selectBatchOrdersLoading);
  const busy = useAppSelector(selectBatchBusy);
  const downloads = useAppSelector(selectDownloads);
  const preparing = useAppSelector(selectPreparing);
  const printFormat = usePrintFormat();
  // The labels file comes in the print format; its button says which.
  const labelOf = (f: (typeof LIST_FILES)[number]) => (f.type === 'pdf' ? LABELS_FILE_WORDS[printFormat] : f.label);

  useEffect(() => {
    if (userId) dispatch(batchOrdersRequested(userId));
    if (userId) dispatch(scanFormsRequested(userId));
  }, [userId, dispatch]);

  const showProgress = (order: BatchOrder) => {
    dispatch(progressWindowShown({ orderId: order._id, startTime: Date.now(), source: order.source }));
    // What the list knows already; the live connection brings the rest at once.
    dispatch(
      progressUpdated({
        processedCount: order.processedCount,
        failedCount: order.failedCount,
        refundedCount: order.refundedCount,
        totalCount: order.totalCount,
        status: order.status,
        fileData: {
          pdfName: order.pdfName ?? null,
          resultCSVName: order.resultCSVName ?? null,
          autoConfirmCSVName: order.autoConfirmCSVName ?? null,
        },
      }),
    );
  };

  const columns: Column<BatchOrder>[] = [
    {
      key: 'createdAt',
      header: 'Date & Time',
      className: 'data-table__nowrap',
      render: (o) => formatDateTime(o.createdAt),
    },
    {
      key: 'status',
      header: 'Status',
      render: (o) => {
        const { text, tone } = batchStatusDisplay(o);
        return <span className={`batch-status batch-status--${tone}`}>{text}</span>;
      },
    },
    { key: 'totalCount', header: 'Ordered', align: 'right', render: (o) => o.totalCount ?? 0 },
    {
      key: 'processedCount',
      header: 'Processed',
      align: 'right',
      render: (o) => (
        <>
          {o.processedCount ?? 0}
          {o.refundedCount > 0 ? (
            // Labels an admin refunded are not among the processed ones; without this the row would not add up.
            <span className="batch-orders__refunded">{o.refundedCount} refunded</span>
          ) : null}
        </>
      ),
    },
    {
      key: 'price',
      header: 'Price',
      align: 'right',
      render: (o) => formatMoney(Number(o.bulkOrderData?.cost ?? 0)),
    },
    {
      key: 'download',
      header: 'Download',
      render: (o) => {
        const cell = batchDownloadCell(o);
        if (cell.kind === 'text') return <span className="batch-orders__note">{cell.text}</span>;
        return (
          <span className="batch-orders__buttons">
            {LIST_FILES.filter((f) => f.type !== 'auto-csv' || cell.hasAutoConfirm).map((f) => {
              const percent = downloads[downloadKey(o._id, f.type)];
              return (
                <button
                  key={f.type}
                  type="button"
                  className="button button--ghost batch-orders__button"
                  disabled={percent !== undefined}
                  onClick={() => dispatch(fileDownloadRequested({ orderId: o._id, type: f.type, source: 'list' }))}
                >
                  {buttonText(labelOf(f), percent, preparing[downloadKey(o._id, f.type)])}
                </button>
              );
            })}
            {cell.noTrackingFile ? <span className="batch-orders__note">{cell.noTrackingFile}</span> : null}
          </span>
        );
      },
    },
    {
      key: 'actions',
      header: 'Actions',
      render: (o) => {
        const actions = batchActions(o);
        // Bought labels (or refunded ones) can be looked at one by one, and refunded while unused.
        const hasLabels = (o.processedCount ?? 0) + (o.refundedCount ?? 0) > 0;
        if (actions.length === 0 && !hasLabels) return <span className="batch-orders__note">No Actions</span>;
        const isBusy = busy.includes(o._id);
        return (
          <span className="batch-orders__buttons">
            {hasLabels ? (
              <button
                type="button"
                className="button button--ghost batch-orders__button"
                onClick={() => dispatch(batchLabelsOpened(o._id))}
              >
                Labels
              </button>
            ) : null}
            {hasLabels ? <OrderScanForms orderId={o._id} userId={userId} /> : null}
            {actions.includes('retry') ? (
              <button
                type="button"
                className="button button--accent batch-orders__button"
                disabled={isBusy || !userId}
                onClick={() => userId && dispatch(batchRetryRequested({ orderId: o._id, userId }))}
              >
                Retry Failed
              </button>
            ) : null}
            {actions.includes('fix') ? (
              <button
                type="button"
                className="button button--primary batch-orders__button"
                disabled={isBusy || !userId}
                onClick={() => userId && dispatch(batchFixRequested({ orderId: o._id, userId }))}
              >
                Fix Batch
              </button>
            ) : null}
            {actions.includes('forceRecovery') ? (
              <button
                type="button"
                className="button button--primary batch-orders__button"
                disabled={isBusy || !userId}
                onClick={() => userId && dispatch(batchForceRecoveryRequested({ orderId: o._id, userId }))}
              >
                {isBusy ? 'Recovering...' : 'Force Recovery'}
              </button>
            ) : null}
            {actions.includes('progress') ? (
              <button
                type="button"
                className="button button--ghost batch-orders__button"
                onClick={() => showProgress(o)}
              >
                View Progress
              </button>
            ) : null}
          </span>
        );
      },
    },
  ];

  return (
    <section className="card batch-orders" aria-labelledby="batch-orders-heading">
      <div className="batch-orders__head">
        <h2 id="batch-orders-heading" className="batch-orders__title">
          Batch Orders List
        </h2>
        <p className="batch-orders__lead">Your bulk orders, newest first, with their files.</p>
      </div>
      <ScanFormsLoadError userId={userId} />
      <DataTable
        caption="Batch Orders List"
        columns={columns}
        rows={orders}
        rowKey={(o, i) => o._id ?? String(i)}
        emptyText="No batch orders found"
        isLoading={isLoading && orders.length === 0}
        loadingText="Loading batch orders..."
      />
    </section>
  );
}
