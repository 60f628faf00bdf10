import { type Static, Type } from 'typebox';
import { BulkStatusSchema } from './bulk-api';
import { IdSchema } from './ids';
import { LabelRefundSchema } from './refunds-api';
import { LabelTrackingSchema } from './tracking-api';

/**
 * Order label management (admin area; the spec names the page only): every label and bulk order of every user,
 * filtered and paged by the server; a bulk order's rows are its labels (`bulkOrderId`). Admins download any
 * label with the ordinary download link, and a bulk order's files with the ordinary file links. Money in dollars.
 */

export const ADMIN_ORDERS_PAGE_SIZES = [10, 25, 50, 100] as const;
export const ADMIN_ORDERS_DEFAULT_QUERY = { page: 1, limit: 25 } as const;

export const ADMIN_LABEL_STATUSES = ['pending', 'completed', 'cancelled', 'void'] as const;
export type AdminLabelStatus = (typeof ADMIN_LABEL_STATUSES)[number];
export const AdminLabelStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('completed'),
  Type.Literal('cancelled'),
  Type.Literal('void'),
]);

const DaySchema = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
};

/**
 * GET /api/orders/admin/labels?page&limit&userId&bulkOrderId&from&to&status&service&tracking — newest first.
 * `from`/`to` are UTC days, both included, each a real day from 2000-01-01 to 2100-12-31 (`calendarDayProblem`); `service` is a service uid; `tracking` matches anywhere in the
 * tracking number, ignoring case.
 */
export const AdminLabelsQuerySchema = Type.Object({
  ...Paging,
  userId: Type.Optional(IdSchema),
  bulkOrderId: Type.Optional(IdSchema),
  from: Type.Optional(DaySchema),
  to: Type.Optional(DaySchema),
  status: Type.Optional(AdminLabelStatusSchema),
  service: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  tracking: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export type AdminLabelsQuery = Static<typeof AdminLabelsQuerySchema>;

export const AdminLabelRowSchema = Type.Object({
  _id: Type.String(),
  userId: Type.String(),
  bulkOrderId: Type.Union([Type.String(), Type.Null()]),
  /** The row's number in its bulk order's file (1-based); null for single labels. */
  row: Type.Union([Type.Integer(), Type.Null()]),
  status: AdminLabelStatusSchema,
  courier: Type.String(),
  serviceUid: Type.String(),
  serviceName: Type.String(),
  price: Type.Number(),
  senderName: Type.String(),
  receiverName: Type.String(),
  /** City, state and ZIP of the receiver. */
  receiverPlace: Type.String(),
  trackingNumber: Type.Union([Type.String(), Type.Null()]),
  /** The label's file, for `/api/orders/download/v2/{pdfName}`; null when nothing was bought. */
  pdfName: Type.Union([Type.String(), Type.Null()]),
  /** Why a cancelled label failed. */
  error: Type.Union([Type.String(), Type.Null()]),
  /** Its charge came back (a failed purchase, or an admin's refund). */
  refunded: Type.Boolean(),
  voidedAt: Type.Union([Type.String(), Type.Null()]),
  voidedBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  ...LabelRefundSchema.properties,
  ...LabelTrackingSchema.properties,
});
export type AdminLabelRow = Static<typeof AdminLabelRowSchema>;

export const AdminLabelsReplySchema = Type.Object({
  labels: Type.Array(AdminLabelRowSchema),
  /** Labels matching the filters, over every page. */
  totalCount: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});
export type AdminLabelsReply = Static<typeof AdminLabelsReplySchema>;

/** GET /api/orders/admin/bulk-orders?page&limit&userId&from&to&status — submitted bulk orders, newest first. */
export const AdminBulkOrdersQuerySchema = Type.Object({
  ...Paging,
  userId: Type.Optional(IdSchema),
  from: Type.Optional(DaySchema),
  to: Type.Optional(DaySchema),
  status: Type.Optional(BulkStatusSchema),
});
export type AdminBulkOrdersQuery = Static<typeof AdminBulkOrdersQuerySchema>;

export const AdminBulkOrderRowSchema = Type.Object({
  _id: Type.String(),
  userId: Type.String(),
  status: BulkStatusSchema,
  source: Type.String(),
  fileName: Type.Union([Type.String(), Type.Null()]),
  totalCount: Type.Integer(),
  processedCount: Type.Integer(),
  failedCount: Type.Integer(),
  /** Rows whose label an admin refunded (void). */
  refundedCount: Type.Integer(),
  cost: Type.Number(),
  /** Which files exist, for `/api/orders/download/{pdf|result-csv|auto-csv}/{orderId}`. */
  hasPdf: Type.Boolean(),
  hasResultCsv: Type.Boolean(),
  hasAutoConfirmCsv: Type.Boolean(),
  createdAt: Type.String(),
});
export type AdminBulkOrderRow = Static<typeof AdminBulkOrderRowSchema>;

export const AdminBulkOrdersReplySchema = Type.Object({
  bulkOrders: Type.Array(AdminBulkOrderRowSchema),
  totalCount: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});
export type AdminBulkOrdersReply = Static<typeof AdminBulkOrdersReplySchema>;

/**
 * POST /api/orders/admin/labels/{id}/refund — gives a completed label's charge back to its owner (a ledger
 * refund naming the admin) and marks the label void. Once only: again is 409 'Label already refunded'.
 */
export const AdminRefundLabelReplySchema = Type.Object({
  message: Type.String(),
  label: AdminLabelRowSchema,
});
export type AdminRefundLabelReply = Static<typeof AdminRefundLabelReplySchema>;

/** The texts of these calls an admin sees. */
export const ADMIN_ORDERS_MESSAGES = {
  fromAfterTo: 'The start date must be on or before the end date',
} as const;
