import { AppError, type AuthContext, type Tx } from '@flatship/kit';
import {
  ADMIN_ORDERS_DEFAULT_QUERY,
  ADMIN_ORDERS_MESSAGES,
  type AdminBulkOrderRow,
  type AdminBulkOrdersQuery,
  type AdminBulkOrdersReply,
  type AdminLabelRow,
  type AdminLabelsQuery,
  type AdminLabelsReply,
  type AdminRefundLabelReply,
  type BulkStatus,
  calendarDayProblem,
  centsToDollars,
  type LabelRefundedEvent,
} from '@flatship/proto';
import type { BulkDeps } from './bulk/deps';
import type { BulkOrderRecord } from './bulk/ports';
import { recountAfterRowRefund, regenerateAfterRowRefund } from './bulk/recount-refunded-row';
import { refundCharge, refundKeyFor } from './buy-and-refund';
import type { LabelRecord } from './ports';

// Order label management: every user's labels and bulk orders, for admins (see proto/src/admin-orders-api.ts).

export interface AdminLabelRecord extends LabelRecord {
  rowIndex: number | null;
  voidedAt: Date | null;
  voidedBy: string | null;
}

export interface AdminBulkOrderRecord {
  id: string;
  userId: string;
  status: BulkStatus;
  source: string;
  fileName: string | null;
  totalCount: number;
  processedCount: number;
  failedCount: number;
  refundedCount: number;
  costCents: number;
  pdfName: string | null;
  resultCsvName: string | null;
  autoConfirmName: string | null;
  createdAt: Date;
}

export type AdminLabelFilters = Omit<AdminLabelsQuery, 'page' | 'limit'>;
export type AdminBulkOrderFilters = Omit<AdminBulkOrdersQuery, 'page' | 'limit'>;
export interface Page {
  page: number;
  limit: number;
}

export interface AdminOrdersRepo {
  listLabels(filters: AdminLabelFilters, page: Page): Promise<{ rows: AdminLabelRecord[]; totalCount: number }>;
  /** Inside a transaction, the row is locked until it ends. */
  findLabel(id: string, tx?: Tx): Promise<AdminLabelRecord | null>;
  /** completed → void, naming the admin; null when the label was not completed. */
  voidLabel(id: string, adminId: string, tx: Tx): Promise<AdminLabelRecord | null>;
  listBulkOrders(
    filters: AdminBulkOrderFilters,
    page: Page,
  ): Promise<{ rows: AdminBulkOrderRecord[]; totalCount: number }>;
}

/** Records `label.refunded` in the caller's transaction, so it exists exactly when the void does. */
export type PublishLabelRefunded = (tx: Tx, event: LabelRefundedEvent) => Promise<void>;

/** The bulk domain too: refunding a bulk row recounts its order and may regenerate the order's files. */
export interface AdminOrdersDeps extends BulkDeps {
  adminOrders: AdminOrdersRepo;
  publishLabelRefunded: PublishLabelRefunded;
}

const pageOf = (q: { page?: number | undefined; limit?: number | undefined }): Page => ({
  page: q.page ?? ADMIN_ORDERS_DEFAULT_QUERY.page,
  limit: q.limit ?? ADMIN_ORDERS_DEFAULT_QUERY.limit,
});

function checkDays(q: { from?: string | undefined; to?: string | undefined }): void {
  for (const field of ['from', 'to'] as const) {
    const value = q[field];
    const problem = value === undefined ? null : calendarDayProblem(field, value);
    if (problem) throw new AppError('VALIDATION_FAILED', problem);
  }
  if (q.from && q.to && q.from > q.to) throw new AppError('VALIDATION_FAILED', ADMIN_ORDERS_MESSAGES.fromAfterTo);
}

export function toAdminLabelRow(l: AdminLabelRecord): AdminLabelRow {
  const r = l.receiver;
  return {
    _id: l.id,
    userId: l.userId,
    bulkOrderId: l.bulkOrderId,
    row: l.rowIndex === null ? null : l.rowIndex + 1,
    status: l.status,
    courier: l.courier,
    serviceUid: l.serviceUid,
    serviceName: l.serviceName,
    price: centsToDollars(l.priceCents),
    senderName: l.sender.name,
    receiverName: r.name,
    receiverPlace: [r.city, [r.state, r.zip].filter(Boolean).join(' ')].filter(Boolean).join(', '),
    trackingNumber: l.trackingNumber,
    pdfName: l.pdfName,
    error: l.error,
    refunded: l.refunded,
    voidedAt: l.voidedAt?.toISOString() ?? null,
    voidedBy: l.voidedBy,
    createdAt: l.createdAt.toISOString(),
  };
}

const toAdminBulkOrderRow = (o: AdminBulkOrderRecord): AdminBulkOrderRow => ({
  _id: o.id,
  userId: o.userId,
  status: o.status,
  source: o.source,
  fileName: o.fileName,
  totalCount: o.totalCount,
  processedCount: o.processedCount,
  failedCount: o.failedCount,
  refundedCount: o.refundedCount,
  cost: centsToDollars(o.costCents),
  hasPdf: o.pdfName !== null,
  hasResultCsv: o.resultCsvName !== null,
  hasAutoConfirmCsv: o.autoConfirmName !== null,
  createdAt: o.createdAt.toISOString(),
});

export async function listAdminLabels(
  deps: Pick<AdminOrdersDeps, 'adminOrders'>,
  query: AdminLabelsQuery,
): Promise<AdminLabelsReply> {
  checkDays(query);
  const { page: _p, limit: _l, ...filters } = query;
  const page = pageOf(query);
  const { rows, totalCount } = await deps.adminOrders.listLabels(filters, page);
  return { labels: rows.map(toAdminLabelRow), totalCount, ...page };
}

export async function listAdminBulkOrders(
  deps: Pick<AdminOrdersDeps, 'adminOrders'>,
  query: AdminBulkOrdersQuery,
): Promise<AdminBulkOrdersReply> {
  checkDays(query);
  const { page: _p, limit: _l, ...filters } = query;
  const page = pageOf(query);
  const { rows, totalCount } = await deps.adminOrders.listBulkOrders(filters, page);
  return { bulkOrders: rows.map(toAdminBulkOrderRow), totalCount, ...page };
}

/**
 * Gives a bought label's charge back to its owner and marks it void, once. The money moves first, under the
 * label's one refund key, which payments takes at most once: two admins at once, or a retry after a crash
 * between the refund and the void, move no more money, and exactly one of them voids the label (with its
 * `label.refunded`, in the same transaction); the other is told it was already refunded.
 */
export async function refundLabelAsAdmin(
  deps: AdminOrdersDeps,
  admin: AuthContext,
  labelId: string,
): Promise<AdminRefundLabelReply> {
  const adminId = admin.impersonatorId ?? admin.userId;
  const label = await deps.adminOrders.findLabel(labelId);
  if (!label) throw new AppError('NOT_FOUND', ADMIN_ORDERS_MESSAGES.labelNotFound);
  if (label.status === 'void')
    throw new AppError('ORDERS_LABEL_ALREADY_REFUNDED', ADMIN_ORDERS_MESSAGES.alreadyRefunded);
  if (label.status !== 'completed')
    throw new AppError('ORDERS_LABEL_NOT_REFUNDABLE', ADMIN_ORDERS_MESSAGES.notRefundable);

  const charged = await refundCharge(deps, {
    userId: label.userId,
    amountCents: label.priceCents,
    chargeKey: label.chargeKey,
    key: refundKeyFor(label.id),
    memo: `Refund of unused label ${label.trackingNumber ?? label.id}`,
    adminId,
  });
  if (!charged) throw new AppError('ORDERS_LABEL_NOT_REFUNDABLE', ADMIN_ORDERS_MESSAGES.notRefundable);

  const { voided, order } = await deps.transactor.run(async (tx) => {
    // A bulk row's order is locked first, as for every change of its rows, so its counts never race.
    if (label.bulkOrderId) await deps.bulk.lock(label.bulkOrderId, tx);
    const row = await deps.adminOrders.voidLabel(label.id, adminId, tx);
    let order: BulkOrderRecord | null = null;
    if (row) {
      await deps.publishLabelRefunded(tx, {
        userId: row.userId,
        labelId: row.id,
        priceCents: row.priceCents,
        refundedAt: (row.voidedAt ?? new Date()).toISOString(),
      });
      if (row.bulkOrderId) order = await recountAfterRowRefund(deps, row.bulkOrderId, tx);
    }
    return { voided: row, order };
  });
  if (!voided) throw new AppError('ORDERS_LABEL_ALREADY_REFUNDED', ADMIN_ORDERS_MESSAGES.alreadyRefunded);
  if (order) await regenerateAfterRowRefund(deps, order);
  return { message: ADMIN_ORDERS_MESSAGES.refunded, label: toAdminLabelRow(voided) };
}
