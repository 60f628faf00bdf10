import '../shell/user-area';
import { isTrackingStage, labelDownloadPath, TRACKING_STAGE_TEXT, TRACKING_STAGES } from '@flatship/proto';
import { useEffect, useId } from 'react';
import { useSearchParams } from 'react-router';
import { formatDateTime } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { CopyText } from '../../components/copy-text';
import { type Column, DataTable } from '../../components/data-table';
import { selectUser } from '../auth/auth-selectors';
import { fileRequested } from '../downloads/downloads-actions';
import { RefundCell } from '../refunds/refund-cell';
import { scanFormsRequested } from '../scan-forms/scan-forms-slice';
import { TodayScanForm } from '../scan-forms/today-scan-form';
import { TrackingCell } from '../tracking/tracking-cell';
import type { OrderListItem } from './orders-api';
import { selectOrders, selectOrdersLoading } from './orders-selectors';
import { ordersRequested, ordersTrackingFilterChosen } from './orders-slice';
import './orders.css';
import { usePrintFormat } from '../print-settings/use-print-format';

/** Spec doc 2 §2: the Service column's text. */
export const DEFAULT_SERVICE_TEXT = 'USPS Priority Mail';

const STATUS_TEXT: Record<string, string> = {
  pending: 'Pending',
  completed: 'Completed',
  cancelled: 'Cancelled',
  void: 'Void (refunded)',
};

/** pending yellow, completed green, cancelled red, void (refunded by an admin) grey; anything else uncoloured. */
export function orderRowTone(
  status: string | null | undefined,
): 'pending' | 'completed' | 'cancelled' | 'void' | 'none' {
  return status === 'pending' || status === 'completed' || status === 'cancelled' || status === 'void'
    ? status
    : 'none';
}

function columns(openPdf: (pdfName: string) => void, fileWord = 'PDF'): Column<OrderListItem>[] {
  return [
    {
      key: 'service',
      header: 'Service',
      render: (o) => {
        const tone = orderRowTone(o.status);
        return (
          <span className="orders__service">
            {/*
              The spec has this column always read 'USPS Priority Mail'. The row's own
              service is shown when it has one: a seller who bought Ground Advantage must
              not be told it was Priority Mail.
            */}
            <span>{o.service_name || DEFAULT_SERVICE_TEXT}</span>
            {tone === 'none' ? null : (
              // The row tint alone would leave colour-blind and screen-reader users without the status.
              <span className={`order-status order-status--${tone}`}>{STATUS_TEXT[tone]}</span>
            )}
          </span>
        );
      },
    },
    { key: 'sender', header: 'Sender', render: (o) => o.sender?.sender_name ?? '' },
    { key: 'receiver', header: 'Receiver', render: (o) => o.receiver?.receiver_name ?? '' },
    { key: 'tracking', header: 'Tracking Number', render: (o) => <CopyText text={o.tracking_number ?? ''} /> },
    {
      key: 'trackingStage',
      header: 'Tracking',
      render: (o) => (
        <TrackingCell row={{ id: o._id, trackingStage: o.trackingStage, trackingNumber: o.tracking_number ?? '' }} />
      ),
    },
    { key: 'added', header: 'Added', className: 'data-table__nowrap', render: (o) => formatDateTime(o.createdAt) },
    {
      key: 'download',
      header: 'Download',
      render: (o) =>
        o.status === 'void' ? (
          // Refunded: the label must not be printed and shipped with, and the server no longer hands it out.
          <span className="orders__no-pdf">Void</span>
        ) : o.pdfName ? (
          // A button, not a link: the link it opens carries a download token asked for at the click.
          <button
            type="button"
            className="button button--ghost orders__pdf"
            onClick={() => openPdf(o.pdfName as string)}
            aria-label={`${fileWord} label for ${o.tracking_number || o.receiver?.receiver_name || 'this order'}`}
          >
            {fileWord}
          </button>
        ) : (
          <span className="orders__no-pdf">
            <span aria-hidden="true">—</span>
            <span className="visually-hidden">No PDF yet</span>
          </span>
        ),
    },
    {
      key: 'refund',
      header: 'Refund',
      render: (o) => (
        <RefundCell
          row={{
            id: o._id,
            status: o.status,
            price: o.price,
            refundStatus: o.refundStatus ?? null,
            refundReason: o.refundReason ?? null,
            refundable: o.refundable ?? false,
            refundBlockedReason: o.refundBlockedReason ?? null,
          }}
        />
      ),
    },
  ];
}

export function OrdersPage() {
  const dispatch = useAppDispatch();
  // A ZPL file is for the printer, not for a tab: it is saved like a batch's files.
  const isZpl = usePrintFormat() === 'zpl-203';
  const opensIn = isZpl ? 'save' : 'tab';
  const userId = useAppSelector(selectUser)?._id;
  const orders = useAppSelector(selectOrders);
  const isLoading = useAppSelector(selectOrdersLoading);
  // The tracking filter lives in the address (`?tracking=in_transit`), so a filtered list can be bookmarked and
  // Back returns to the previous filter. A value that is no stage is ignored: every label is listed.
  const [params, setParams] = useSearchParams();
  const param = params.get('tracking');
  const tracking = isTrackingStage(param) ? param : null;
  const filterId = useId();

  useEffect(() => {
    dispatch(ordersTrackingFilterChosen(tracking));
    if (userId) dispatch(ordersRequested(userId));
  }, [userId, tracking, dispatch]);

  useEffect(() => {
    if (userId) dispatch(scanFormsRequested(userId));
  }, [userId, dispatch]);

  const chooseTracking = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set('tracking', value);
        else next.delete('tracking');
        return next;
      },
      { replace: false },
    );

  return (
    <section className="card orders" aria-labelledby="orders-heading">
      <div className="orders__head">
        <h2 id="orders-heading" className="orders__title">
          Orders List
        </h2>
        <p className="orders__lead">
          Every label you have bought, newest first. A label you did not use can be refunded from its row.
        </p>
      </div>
      <TodayScanForm userId={userId} />
      <div className="tracking-filter">
        <div className="field">
          <label className="field__label" htmlFor={filterId}>
            Tracking status
          </label>
          <select
            id={filterId}
            className="input"
            value={tracking ?? ''}
            onChange={(e) => chooseTracking(e.target.value)}
          >
            <option value="">Any status</option>
            {TRACKING_STAGES.map((s) => (
              <option key={s} value={s}>
                {TRACKING_STAGE_TEXT[s]}
              </option>
            ))}
          </select>
        </div>
        {tracking && isLoading ? (
          <span className="orders__filtering" role="status">
            Filtering...
          </span>
        ) : null}
      </div>
      <DataTable
        caption="Orders List"
        columns={columns(
          (pdfName) => dispatch(fileRequested({ path: labelDownloadPath(pdfName), open: opensIn })),
          isZpl ? 'ZPL' : 'PDF',
        )}
        rows={orders}
        rowKey={(o, i) => o._id ?? `${o.tracking_number}-${i}`}
        rowClassName={(o) => `orders__row orders__row--${orderRowTone(o.status)}`}
        emptyText={tracking ? `No orders are ${TRACKING_STAGE_TEXT[tracking].toLowerCase()}` : 'No orders found'}
        isLoading={isLoading && orders.length === 0}
        loadingText="Loading orders..."
      />
    </section>
  );
}
