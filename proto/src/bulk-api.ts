import { type Static, Type } from 'typebox';
import { IdSchema } from './ids';
import { BULK_FILE_NAME_MAX } from './limits';
import { ORDER_SOURCES, type OrderSource } from './marketplaces';

/** Batch order statuses (spec doc 2 §4), exactly. */
export const BULK_STATUSES = [
  'processing',
  'generating_files',
  'completed',
  'completed_with_errors',
  'failed',
  'retrying_failed',
  'processing_error',
  'retry_processing_error',
  'recovery_failed',
] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];
// Spelled out: a Union over `BULK_STATUSES.map(...)` would have the static type `never`.
export const BulkStatusSchema = Type.Union([
  Type.Literal('processing'),
  Type.Literal('generating_files'),
  Type.Literal('completed'),
  Type.Literal('completed_with_errors'),
  Type.Literal('failed'),
  Type.Literal('retrying_failed'),
  Type.Literal('processing_error'),
  Type.Literal('retry_processing_error'),
  Type.Literal('recovery_failed'),
]);
/** The statuses after which nothing more happens to an order by itself (spec doc 2 §4). */
export const TERMINAL_BULK_STATUSES: readonly BulkStatus[] = ['completed', 'completed_with_errors', 'failed'];
/** Whether a status (as any text, e.g. from a progress event) is one of TERMINAL_BULK_STATUSES. */
export const isTerminalBulkStatus = (status: string): boolean =>
  (TERMINAL_BULK_STATUSES as readonly string[]).includes(status);

const Str = Type.Optional(Type.Union([Type.String(), Type.Null()]));
const Num = Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()]));

/** One shipment of a bulk order as the browser sends it (spec doc 2 §3 "Bulk order item"). */
export const BulkOrderItemSchema = Type.Object({
  courier: Type.Optional(Type.String()),
  service_name: Type.String(),
  manifested: Type.Optional(Type.Boolean()),
  sender: Type.Object({
    order_id: Str,
    sender_name: Str,
    sender_phone: Str,
    sender_company: Str,
    sender_address1: Str,
    sender_address2: Str,
    sender_city: Str,
    sender_state_province: Str,
    sender_zip_postal: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
    sender_country: Str,
  }),
  receiver: Type.Object({
    receiver_name: Str,
    receiver_phone: Str,
    receiver_company: Str,
    receiver_address1: Str,
    receiver_address2: Str,
    receiver_city: Str,
    receiver_state_province: Str,
    receiver_zip_postal: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
    receiver_country: Str,
  }),
  package: Type.Object({
    order_item_id: Str,
    quantity: Num,
    sku_number: Str,
    package_length: Num,
    package_width: Num,
    package_height: Num,
    package_weight: Num,
    package_weight_unit: Str,
    package_description: Str,
    package_reference1: Str,
    package_reference2: Str,
  }),
});
export type BulkOrderItem = Static<typeof BulkOrderItemSchema>;

export const BULK_MAX_ROWS = 10_000;

/** POST /api/orders/bulk/init {userId} → { data: { orderId } } */
export const BulkInitBodySchema = Type.Object({ userId: IdSchema });
export const BulkInitReplySchema = Type.Object({
  message: Type.String(),
  data: Type.Object({ orderId: Type.String() }),
});
export type BulkInitReply = Static<typeof BulkInitReplySchema>;

/** POST /api/orders/bulk/process/{userId} */
export const BulkProcessBodySchema = Type.Object({
  orderId: Type.String(),
  orderData: Type.Array(BulkOrderItemSchema, { maxItems: BULK_MAX_ROWS }),
  source: Type.Optional(Type.Unsafe<OrderSource>(Type.Union(ORDER_SOURCES.map((id) => Type.Literal(id))))),
  fileName: Type.Optional(Type.String({ maxLength: BULK_FILE_NAME_MAX })),
});
export type BulkProcessBody = Static<typeof BulkProcessBodySchema>;

/** Downloadable files of a bulk order (spec doc 2 §3 fileData). */
export const FileDataSchema = Type.Object({
  pdfName: Type.Union([Type.String(), Type.Null()]),
  resultCSVName: Type.Union([Type.String(), Type.Null()]),
  autoConfirmCSVName: Type.Union([Type.String(), Type.Null()]),
});
export type FileData = Static<typeof FileDataSchema>;

/**
 * The real-time progress event (gateway emits it as `orderProgress` to room `order_<orderId>`). Rows are
 * bought (processed), failed, or bought and then refunded by an admin (refunded: the label is void); once
 * every row is settled the three add up to totalCount.
 */
export const BulkProgressEventSchema = Type.Object({
  orderId: Type.String(),
  userId: Type.String(),
  processedCount: Type.Integer(),
  failedCount: Type.Integer(),
  /** Rows an admin refunded; absent in events recorded before refunded rows were counted (read as 0). */
  refundedCount: Type.Optional(Type.Integer()),
  totalCount: Type.Integer(),
  /** One of BULK_STATUSES. */
  status: Type.String(),
  fileData: Type.Union([FileDataSchema, Type.Null()]),
});
export type BulkProgressEvent = Static<typeof BulkProgressEventSchema>;

/** label.requested, keyed by label id: the worker reads the row itself. */
export const LabelRequestedEventSchema = Type.Object({
  bulkOrderId: Type.String(),
  labelId: Type.String(),
  userId: Type.String(),
  attempt: Type.Integer(),
});
export type LabelRequestedEvent = Static<typeof LabelRequestedEventSchema>;

/** Retry response (spec doc 2 §3). */
export const RetryReplySchema = Type.Object({
  message: Type.String(),
  fileData: Type.Union([FileDataSchema, Type.Null()]),
  finalProcessedCount: Type.Integer(),
  finalFailedCount: Type.Integer(),
  /** Rows an admin refunded (not part of the spec's retry response; counted so the three add up). */
  finalRefundedCount: Type.Integer(),
  status: Type.String(),
  updatedTotalCount: Type.Integer(),
  newlySuccessfulCount: Type.Integer(),
});
export type RetryReply = Static<typeof RetryReplySchema>;

/** A saved SKU preset (spec doc 2 §3). Dimensions in inches, weight in pounds. */
export const SkuSchema = Type.Object({
  _id: Type.String(),
  sku: Type.String(),
  maxQty: Type.Integer(),
  weight: Type.Number(),
  length: Type.Number(),
  width: Type.Number(),
  height: Type.Number(),
  description: Type.String(),
});
export type Sku = Static<typeof SkuSchema>;

// ---- Real-time progress over socket.io (gateway ↔ browser) ----

// Event and room names live in realtime.ts, which the browser imports without the schema library.

/** What `orderProgress` carries: the progress event without the owner's id. */
export const OrderProgressSchema = Type.Omit(BulkProgressEventSchema, ['userId']);
export type OrderProgress = Static<typeof OrderProgressSchema>;

/** POST /api/orders/bulk/process/{userId} → 202: the order is charged and its labels are queued. Price in dollars. */
export const BulkProcessReplySchema = Type.Object({
  message: Type.String(),
  data: Type.Object({ orderId: Type.String(), totalCount: Type.Integer(), price: Type.Number() }),
  /**
   * The offline ZIP check's doubts about the rows bought (a ZIP that does not exist or is in another state than the
   * row's), as the table showed them at load: warnings, not refusals. Absent when there are none.
   */
  addressWarnings: Type.Optional(Type.Array(Type.Object({ rowIndex: Type.Integer(), message: Type.String() }))),
});
export type BulkProcessReply = Static<typeof BulkProcessReplySchema>;

/** A failed row of a batch order; rowIndex counts from 0 in the submitted order. */
export const FailedLabelSchema = Type.Object({ rowIndex: Type.Integer(), error: Type.String() });
export type FailedLabel = Static<typeof FailedLabelSchema>;

/** One batch order as the Batch Orders list shows it (spec doc 2 §3 "Batch order"). Cost in dollars. */
export const BatchOrderSchema = Type.Object({
  _id: Type.String(),
  createdAt: Type.String(),
  status: BulkStatusSchema,
  source: Type.String(),
  fileName: Type.Union([Type.String(), Type.Null()]),
  processedCount: Type.Integer(),
  totalCount: Type.Integer(),
  failedCount: Type.Integer(),
  /** Rows whose label an admin refunded (void); not in processedCount. */
  refundedCount: Type.Integer(),
  /** At most the first 100 failures, in row order. */
  failedLabels: Type.Array(FailedLabelSchema),
  bulkOrderData: Type.Object({ cost: Type.Number() }),
  pdfName: Type.Union([Type.String(), Type.Null()]),
  resultCSVName: Type.Union([Type.String(), Type.Null()]),
  autoConfirmCSVName: Type.Union([Type.String(), Type.Null()]),
  fileStorageNames: Type.Object({
    pdf: Type.Union([Type.String(), Type.Null()]),
    resultCSV: Type.Union([Type.String(), Type.Null()]),
  }),
  fileDisplayNames: FileDataSchema,
  stuckAt: Type.Union([Type.String(), Type.Null()]),
});
export type BatchOrder = Static<typeof BatchOrderSchema>;

/** GET /api/orders/bulk/{userId}: newest first. */
export const BatchOrdersReplySchema = Type.Object({ bulkOrders: Type.Array(BatchOrderSchema) });
export type BatchOrdersReply = Static<typeof BatchOrdersReplySchema>;

/** POST /api/orders/bulk/fix/{orderId}: the order after the fix, with the files it has now. */
export const BulkFixReplySchema = Type.Object({
  message: Type.String(),
  status: BulkStatusSchema,
  processedCount: Type.Integer(),
  failedCount: Type.Integer(),
  refundedCount: Type.Integer(),
  totalCount: Type.Integer(),
  fileData: Type.Union([FileDataSchema, Type.Null()]),
});
export type BulkFixReply = Static<typeof BulkFixReplySchema>;

/**
 * Statuses Force Recovery accepts: an order stuck generating its files (the Batch Orders list reads 'Files
 * Generation Stuck - Use Force Recovery'), or one whose recovery failed ('Recovery Failed - Try Again').
 */
export const FORCE_RECOVERABLE_BULK_STATUSES: readonly BulkStatus[] = ['generating_files', 'recovery_failed'];

/**
 * POST /api/orders/bulk/force-recovery/{userId}/{orderId}: the order's files generated again, and the order as
 * it then stands (the fix reply's shape). Any other status is refused with 409 ORDERS_NOT_STUCK.
 */
export const BulkForceRecoveryReplySchema = BulkFixReplySchema;
export type BulkForceRecoveryReply = BulkFixReply;

/** GET /api/orders/bulk/files/{orderId}: which files can be downloaded now. */
export const BulkFilesReplySchema = Type.Object({
  pdf: Type.Boolean(),
  resultCSV: Type.Boolean(),
  autoConfirm: Type.Boolean(),
  fileData: FileDataSchema,
});
export type BulkFilesReply = Static<typeof BulkFilesReplySchema>;

/** The `{type}` of GET /api/orders/download/{type}/{orderId}. */
export const BULK_FILE_TYPES = ['pdf', 'result-csv', 'auto-csv'] as const;
export type BulkFileType = (typeof BULK_FILE_TYPES)[number];

const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * The names an order's files are saved as (spec doc 2 §9), stamped with a month (1–12) and day:
 * `Labels_03-07.pdf`, `Order_Results_03-07.csv`, `Auto_Confirm_03-07.tsv`. The confirmation file ends as its
 * marketplace's does (`MarketplaceInfo.confirmationFile.extension`; Amazon's is `tsv`).
 */
export function bulkFileNames(month: number, day: number, confirmationExtension = 'tsv'): Record<BulkFileType, string> {
  const stamp = `${twoDigits(month)}-${twoDigits(day)}`;
  return {
    pdf: `Labels_${stamp}.pdf`,
    'result-csv': `Order_Results_${stamp}.csv`,
    'auto-csv': `Auto_Confirm_${stamp}.${confirmationExtension}`,
  };
}
