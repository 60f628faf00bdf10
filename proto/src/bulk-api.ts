import { type Static, Type } from 'typebox';

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
export const TERMINAL_BULK_STATUSES: readonly BulkStatus[] = ['completed', 'completed_with_errors', 'failed'];

/** Where a bulk order's rows came from; Amazon orders get the shipping-confirmation file. */
export const ORDER_SOURCES = ['csv', 'amazon', 'walmart'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

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
export const BulkInitBodySchema = Type.Object({ userId: Type.String() });
export const BulkInitReplySchema = Type.Object({
  message: Type.String(),
  data: Type.Object({ orderId: Type.String() }),
});

/** POST /api/orders/bulk/process/{userId} */
export const BulkProcessBodySchema = Type.Object({
  orderId: Type.String(),
  orderData: Type.Array(BulkOrderItemSchema, { maxItems: BULK_MAX_ROWS }),
  source: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('amazon'), Type.Literal('walmart')])),
  fileName: Type.Optional(Type.String({ maxLength: 255 })),
});
export type BulkProcessBody = Static<typeof BulkProcessBodySchema>;

/** Downloadable files of a bulk order (spec doc 2 §3 fileData). */
export const FileDataSchema = Type.Object({
  pdfName: Type.Union([Type.String(), Type.Null()]),
  resultCSVName: Type.Union([Type.String(), Type.Null()]),
  autoConfirmCSVName: Type.Union([Type.String(), Type.Null()]),
});
export type FileData = Static<typeof FileDataSchema>;

/** The real-time progress event (gateway emits it as `orderProgress` to room `order_<orderId>`). */
export const BulkProgressEventSchema = Type.Object({
  orderId: Type.String(),
  userId: Type.String(),
  processedCount: Type.Integer(),
  failedCount: Type.Integer(),
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
