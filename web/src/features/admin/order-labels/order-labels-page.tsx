import '../admin-area';
import {
  type AdminBulkOrderRow,
  type AdminLabelRow,
  type AdminLabelStatus,
  BULK_STATUSES,
  type BulkStatus,
  bulkFileDownloadPath,
  FORCE_RECOVERABLE_BULK_STATUSES,
  labelDownloadPath,
} from '@flatship/proto';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDateTime, formatMoney } from '../../../app/format';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import type { RootState } from '../../../app/store';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { type Column, DataTable } from '../../../components/data-table';
import { fileRequested } from '../../downloads/downloads-actions';
import { RefundState } from '../../refunds/refund-cell';
import { TrackingBadge } from '../../tracking/tracking-cell';
import { UserPicker } from '../user-picker';
import {
  type BulkFilters,
  bulkOrdersRequested,
  type LabelFilters,
  labelsRequested,
  ORDER_LABELS_PAGE_SIZE,
  orderRowsRequested,
  recoveryRequested,
  refundRequested,
  servicesRequested,
} from './order-labels-slice';
import './order-labels.css';

const STATUS_TEXT: Record<AdminLabelStatus, string> = {
  pending: 'Pending',
  completed: 'Completed',
  cancelled: 'Failed',
  void: 'Void (refunded)',
};

const selectOrderLabels = (s: RootState) => s.orderLabels;

/** Form values are strings; an empty one is no filter. */
function compact<T extends object>(values: T): T {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && v !== undefined)) as T;
}

function LabelActions({ label, onRefund, busy }: { label: AdminLabelRow; onRefund: () => void; busy: boolean }) {
  const dispatch = useAppDispatch();
  const { pdfName } = label;
  return (
    <span className="order-labels__actions">
      {label.status === 'void' ? (
        // A refunded label must not be printed again; the server refuses its PDF too.
        <span className="order-labels__place">PDF void</span>
      ) : pdfName ? (
        <button
          type="button"
          className="button button--ghost"
          onClick={() => dispatch(fileRequested({ path: labelDownloadPath(pdfName), open: 'tab' }))}
          aria-label={`Download label ${label.trackingNumber ?? label._id}`}
        >
          PDF
        </button>
      ) : null}
      {label.refundStatus === 'requested' || label.refundStatus === 'rejected' ? (
        <RefundState row={label} />
      ) : label.status === 'completed' && !label.refundable && label.refundBlockedReason ? (
        <RefundState row={label} />
      ) : label.status === 'completed' ? (
        <button
          type="button"
          className="button button--ghost order-labels__refund"
          disabled={busy}
          onClick={onRefund}
          aria-label={`Refund label ${label.trackingNumber ?? label._id}`}
        >
          {busy ? 'Refunding...' : 'Refund'}
        </button>
      ) : null}
    </span>
  );
}

function labelColumns(
  onRefund: (label: AdminLabelRow) => void,
  refunding: string[],
  onUser?: (userId: string) => void,
): Column<AdminLabelRow>[] {
  return [
    {
      key: 'createdAt',
      header: 'Created',
      className: 'data-table__nowrap',
      render: (l) => formatDateTime(l.createdAt),
    },
    {
      key: 'userId',
      header: 'User',
      render: (l) =>
        onUser ? (
          <button type="button" className="order-labels__user" title={l.userId} onClick={() => onUser(l.userId)}>
            {l.userId.slice(0, 8)}
          </button>
        ) : (
          <span title={l.userId}>{l.userId.slice(0, 8)}</span>
        ),
    },
    { key: 'row', header: 'Row', render: (l) => (l.row === null ? 'Single' : `#${l.row}`) },
    { key: 'serviceName', header: 'Service' },
    {
      key: 'receiverName',
      header: 'Receiver',
      render: (l) => (
        <>
          <span className="order-labels__receiver">{l.receiverName}</span>
          <span className="order-labels__place">{l.receiverPlace}</span>
        </>
      ),
    },
    { key: 'trackingNumber', header: 'Tracking Number', render: (l) => l.trackingNumber ?? '—' },
    { key: 'price', header: 'Price', render: (l) => formatMoney(l.price) },
    {
      key: 'status',
      header: 'Status',
      render: (l) => (
        <span className={`order-labels__status order-labels__status--${l.status}`} title={l.error ?? undefined}>
          {STATUS_TEXT[l.status]}
        </span>
      ),
    },
    {
      key: 'trackingStage',
      header: 'Tracking',
      render: (l) =>
        l.trackingStage ? (
          <TrackingBadge stage={l.trackingStage} />
        ) : (
          <span className="order-labels__place">
            <span aria-hidden="true">—</span>
            <span className="visually-hidden">Nothing to track</span>
          </span>
        ),
    },
    {
      key: 'actions',
      header: 'Actions',
      render: (l) => <LabelActions label={l} busy={refunding.includes(l._id)} onRefund={() => onRefund(l)} />,
    },
  ];
}

type CommonFilter = 'userId' | 'from' | 'to' | 'status';
const LABEL_STATUS_OPTIONS = (Object.keys(STATUS_TEXT) as AdminLabelStatus[]).map((s) => ({
  value: s,
  text: STATUS_TEXT[s],
}));
const BULK_STATUS_OPTIONS = BULK_STATUSES.map((s: BulkStatus) => ({ value: s, text: s.replace(/_/g, ' ') }));

/** The filters both tabs share: whose, between which dates, in which status. */
function WhoWhenStatusFields({
  filters,
  statuses,
  onChange,
}: {
  filters: Record<CommonFilter, string>;
  statuses: { value: string; text: string }[];
  onChange: (key: CommonFilter, value: string) => void;
}) {
  const userFieldId = useId();
  const set = (key: CommonFilter) => (e: { target: { value: string } }) => onChange(key, e.target.value);
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={userFieldId}>
          User
        </label>
        <UserPicker
          id={userFieldId}
          userId={filters.userId || null}
          clearLabel="Any user"
          onChange={(user) => onChange('userId', user?._id ?? '')}
        />
      </div>
      <label className="field">
        <span className="field__label">From</span>
        <input type="date" className="input" value={filters.from} onChange={set('from')} />
      </label>
      <label className="field">
        <span className="field__label">To</span>
        <input type="date" className="input" value={filters.to} onChange={set('to')} />
      </label>
      <label className="field">
        <span className="field__label">Status</span>
        <select className="input" value={filters.status} onChange={set('status')}>
          <option value="">Any status</option>
          {statuses.map((o) => (
            <option key={o.value} value={o.value}>
              {o.text}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

function LabelsTab({ onRefund, userId }: { onRefund: (label: AdminLabelRow) => void; userId: string | null }) {
  const dispatch = useAppDispatch();
  const { labels, labelFilters: stored, services, refunding } = useAppSelector(selectOrderLabels);
  // Opened for one user (from the rankings), the filters are that user alone.
  const labelFilters: LabelFilters = userId ? { userId } : stored;
  const [form, setForm] = useState<Required<Record<keyof LabelFilters, string>>>({
    userId: labelFilters.userId ?? '',
    from: labelFilters.from ?? '',
    to: labelFilters.to ?? '',
    status: labelFilters.status ?? '',
    service: labelFilters.service ?? '',
    tracking: labelFilters.tracking ?? '',
  });
  const set = (key: keyof LabelFilters) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const search = (values = form) =>
    dispatch(
      labelsRequested({
        filters: compact({ ...values, tracking: values.tracking.trim(), userId: values.userId.trim() }) as LabelFilters,
      }),
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    search();
  };
  const byUser = (userId: string) => {
    const next = { ...form, userId };
    setForm(next);
    search(next);
  };

  return (
    <>
      <form className="order-labels__filters" onSubmit={submit} aria-label="Label filters">
        <WhoWhenStatusFields
          filters={form}
          statuses={LABEL_STATUS_OPTIONS}
          onChange={(key, value) => setForm((f) => ({ ...f, [key]: value }))}
        />
        <label className="field">
          <span className="field__label">Service</span>
          <select className="input" value={form.service} onChange={set('service')}>
            <option value="">Any service</option>
            {services.map((s) => (
              <option key={s.uid} value={s.uid}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">Tracking number</span>
          <input className="input" value={form.tracking} onChange={set('tracking')} placeholder="Any part of it" />
        </label>
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <p className="order-labels__count">{labels.totalCount} labels</p>
      <DataTable
        caption="Labels"
        columns={labelColumns(onRefund, refunding, byUser)}
        rows={labels.rows}
        rowKey={(l) => l._id}
        pageSize={ORDER_LABELS_PAGE_SIZE}
        page={labels.page}
        totalRows={labels.totalCount}
        onPageChange={(page) => dispatch(labelsRequested({ page }))}
        isLoading={labels.isLoading && labels.rows.length === 0}
        loadingText="Loading labels..."
        emptyText="No labels match these filters"
      />
    </>
  );
}

function BulkOrderFiles({ order }: { order: AdminBulkOrderRow }) {
  const dispatch = useAppDispatch();
  const files = [
    { type: 'pdf', text: 'Labels PDF', has: order.hasPdf },
    { type: 'result-csv', text: 'Results CSV', has: order.hasResultCsv },
    { type: 'auto-csv', text: 'Auto-confirm CSV', has: order.hasAutoConfirmCsv },
  ] as const;
  const present = files.filter((f) => f.has);
  if (present.length === 0) return <span className="order-labels__place">No files yet</span>;
  return (
    <span className="order-labels__actions">
      {present.map((f) => (
        <button
          key={f.type}
          type="button"
          className="button button--ghost"
          onClick={() => dispatch(fileRequested({ path: bulkFileDownloadPath(f.type, order._id), open: 'save' }))}
        >
          {f.text}
        </button>
      ))}
    </span>
  );
}

function BulkOrdersTab({ onRefund, userId }: { onRefund: (label: AdminLabelRow) => void; userId: string | null }) {
  const dispatch = useAppDispatch();
  const {
    bulkOrders,
    bulkFilters: stored,
    openOrderId,
    orderRows,
    refunding,
    recovering,
  } = useAppSelector(selectOrderLabels);
  const bulkFilters: BulkFilters = userId ? { userId } : stored;
  const [form, setForm] = useState<Required<Record<keyof BulkFilters, string>>>({
    userId: bulkFilters.userId ?? '',
    from: bulkFilters.from ?? '',
    to: bulkFilters.to ?? '',
    status: bulkFilters.status ?? '',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    dispatch(bulkOrdersRequested({ filters: compact({ ...form, userId: form.userId.trim() }) as BulkFilters }));
  };
  const open = bulkOrders.rows.find((o) => o._id === openOrderId);

  const columns: Column<AdminBulkOrderRow>[] = [
    {
      key: 'createdAt',
      header: 'Created',
      className: 'data-table__nowrap',
      render: (o) => formatDateTime(o.createdAt),
    },
    { key: 'userId', header: 'User', render: (o) => <span title={o.userId}>{o.userId.slice(0, 8)}</span> },
    { key: 'fileName', header: 'File', render: (o) => o.fileName ?? o.source },
    { key: 'status', header: 'Status' },
    {
      key: 'rows',
      header: 'Rows',
      render: (o) =>
        `${o.processedCount}/${o.totalCount}${o.failedCount ? `, ${o.failedCount} failed` : ''}${
          o.refundedCount ? `, ${o.refundedCount} refunded` : ''
        }`,
    },
    { key: 'cost', header: 'Cost', render: (o) => formatMoney(o.cost) },
    {
      key: 'files',
      header: 'Files',
      render: (o) =>
        (FORCE_RECOVERABLE_BULK_STATUSES as readonly string[]).includes(o.status) ? (
          <span className="order-labels__actions">
            <span className="order-labels__place">
              {o.status === 'recovery_failed' ? 'Recovery failed' : 'Files generation stuck'}
            </span>
            <button
              type="button"
              className="button button--primary"
              disabled={recovering.includes(o._id)}
              onClick={() => dispatch(recoveryRequested({ orderId: o._id, userId: o.userId }))}
              aria-label={`Force Recovery of bulk order ${o.fileName ?? o._id}`}
            >
              {recovering.includes(o._id) ? 'Recovering...' : 'Force Recovery'}
            </button>
          </span>
        ) : (
          <BulkOrderFiles order={o} />
        ),
    },
    {
      key: 'open',
      header: 'Rows',
      label: 'Open',
      render: (o) => (
        <button
          type="button"
          className="button button--ghost"
          aria-expanded={openOrderId === o._id}
          onClick={() => dispatch(orderRowsRequested({ orderId: openOrderId === o._id ? null : o._id }))}
        >
          {openOrderId === o._id ? 'Hide rows' : 'View rows'}
        </button>
      ),
    },
  ];

  return (
    <>
      <form className="order-labels__filters" onSubmit={submit} aria-label="Bulk order filters">
        <WhoWhenStatusFields
          filters={form}
          statuses={BULK_STATUS_OPTIONS}
          onChange={(key, value) => setForm((f) => ({ ...f, [key]: value }))}
        />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <DataTable
        caption="Bulk orders"
        columns={columns}
        rows={bulkOrders.rows}
        rowKey={(o) => o._id}
        pageSize={ORDER_LABELS_PAGE_SIZE}
        page={bulkOrders.page}
        totalRows={bulkOrders.totalCount}
        onPageChange={(page) => dispatch(bulkOrdersRequested({ page }))}
        isLoading={bulkOrders.isLoading && bulkOrders.rows.length === 0}
        loadingText="Loading bulk orders..."
        emptyText="No bulk orders match these filters"
      />
      {openOrderId ? (
        <section className="order-labels__rows" aria-labelledby="order-rows-heading">
          <h3 id="order-rows-heading">Rows of {open?.fileName ?? `bulk order ${openOrderId.slice(0, 8)}`}</h3>
          <DataTable
            caption="Bulk order rows"
            columns={labelColumns(onRefund, refunding).filter((c) => c.key !== 'userId')}
            rows={orderRows.rows}
            rowKey={(l) => l._id}
            pageSize={ORDER_LABELS_PAGE_SIZE}
            page={orderRows.page}
            totalRows={orderRows.totalCount}
            onPageChange={(page) => dispatch(orderRowsRequested({ orderId: openOrderId, page }))}
            isLoading={orderRows.isLoading && orderRows.rows.length === 0}
            loadingText="Loading rows..."
            emptyText="This bulk order has no rows"
          />
        </section>
      ) : null}
    </>
  );
}

/** Order label management: every user's labels and bulk orders, re-download, and refunds of unused labels. */
export function OrderLabelsPage() {
  const dispatch = useAppDispatch();
  const [tab, setTab] = useState<'labels' | 'bulk'>('labels');
  const [confirming, setConfirming] = useState<AdminLabelRow | null>(null);
  // `?userId=` opens the page on one user's labels and bulk orders.
  const [params] = useSearchParams();
  const userId = params.get('userId');

  // The carriers' services do not depend on the user: read once.
  useEffect(() => {
    dispatch(servicesRequested());
  }, [dispatch]);
  useEffect(() => {
    dispatch(labelsRequested(userId ? { filters: { userId } } : {}));
    dispatch(bulkOrdersRequested(userId ? { filters: { userId } } : {}));
  }, [dispatch, userId]);

  return (
    <section className="card order-labels" aria-labelledby="order-labels-heading">
      <h2 id="order-labels-heading">Order Label Management</h2>
      <div role="tablist" className="order-labels__tabs" aria-label="Order label management">
        <button type="button" role="tab" aria-selected={tab === 'labels'} onClick={() => setTab('labels')}>
          Labels
        </button>
        <button type="button" role="tab" aria-selected={tab === 'bulk'} onClick={() => setTab('bulk')}>
          Bulk orders
        </button>
      </div>
      <div role="tabpanel">
        {tab === 'labels' ? (
          <LabelsTab key={userId} onRefund={setConfirming} userId={userId} />
        ) : (
          <BulkOrdersTab key={userId} onRefund={setConfirming} userId={userId} />
        )}
      </div>
      <ConfirmDialog
        isOpen={confirming !== null}
        title="Refund label"
        text={
          confirming
            ? `Refund ${formatMoney(confirming.price)} to the user for label ${confirming.trackingNumber ?? confirming._id}? USPS voids the label, and the money goes back to the user when USPS confirms.`
            : ''
        }
        confirmLabel="Refund"
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) dispatch(refundRequested(confirming._id));
          setConfirming(null);
        }}
      />
    </section>
  );
}
