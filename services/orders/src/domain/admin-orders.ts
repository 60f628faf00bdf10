import { AppError, type AuthContext } from '@flatship/kit';
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
} from '@flatship/proto';
import type { LabelRecord } from './ports';
import { type RefundDeps, refundLabel, refundView } from './refunds';
import { labelTrackingStage } from './tracking';
import { placeOf } from './validate-shipment';

export type { PublishLabelRefunded } from './refunds';

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
  listBulkOrders(
    filters: AdminBulkOrderFilters,
    page: Page,
  ): Promise<{ rows: AdminBulkOrderRecord[]; totalCount: number }>;
}

/** Refunds too: an admin's refund is the owner's flow, recorded as the admin's. */
export interface AdminOrdersDeps extends RefundDeps {
  adminOrders: AdminOrdersRepo;
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

export function toAdminLabelRow(l: AdminLabelRecord, now: Date, windowDays: number | undefined): AdminLabelRow {
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
    receiverPlace: placeOf(r),
    trackingNumber: l.trackingNumber,
    pdfName: l.pdfName,
    error: l.error,
    refunded: l.refunded,
    voidedAt: l.voidedAt?.toISOString() ?? null,
    voidedBy: l.voidedBy,
    createdAt: l.createdAt.toISOString(),
    ...refundView(l, now, windowDays),
    trackingStage: labelTrackingStage(l),
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
  deps: Pick<AdminOrdersDeps, 'adminOrders' | 'clock' | 'refundWindowDays'>,
  query: AdminLabelsQuery,
): Promise<AdminLabelsReply> {
  checkDays(query);
  const { page: _p, limit: _l, ...filters } = query;
  const page = pageOf(query);
  const { rows, totalCount } = await deps.adminOrders.listLabels(filters, page);
  const now = deps.clock.now();
  return { labels: rows.map((l) => toAdminLabelRow(l, now, deps.refundWindowDays)), totalCount, ...page };
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
 * An admin's refund of a bought label: the same flow as its owner's (`requestLabelRefund`), recorded as the admin's,
 * so the carrier voids it and the balance is credited once, when the carrier confirms.
 */
export async function refundLabelAsAdmin(
  deps: AdminOrdersDeps,
  admin: AuthContext,
  labelId: string,
): Promise<AdminRefundLabelReply> {
  const { reply, label } = await refundLabel(deps, { userId: admin.userId, byAdmin: true, ownerId: null }, labelId);
  return { message: reply.message, label: toAdminLabelRow(label, deps.clock.now(), deps.refundWindowDays) };
}
