import { type Static, Type } from 'typebox';
import { IdSchema } from './ids';
import { LabelTrackingSchema } from './tracking-api';

// Refunds of unused labels (a customer's or an admin's request): the window, the states and the texts.

/** Where a label's refund stands: asked of the carrier, given back, or refused by the carrier (with its reason). */
export const REFUND_STATES = ['requested', 'refunded', 'rejected'] as const;
export type RefundState = (typeof REFUND_STATES)[number];
export const RefundStateSchema = Type.Union([
  Type.Literal('requested'),
  Type.Literal('refunded'),
  Type.Literal('rejected'),
]);

/** USPS takes refund requests for unused labels this many days after purchase (`REFUND_WINDOW_DAYS` changes it). */
export const DEFAULT_REFUND_WINDOW_DAYS = 30;

/** A label's refund, as every list of labels shows it. */
export const LabelRefundSchema = Type.Object({
  /** null: no refund asked for. */
  refundStatus: Type.Union([RefundStateSchema, Type.Null()]),
  /** Why the carrier refused it, for `rejected`. */
  refundReason: Type.Union([Type.String(), Type.Null()]),
  /** Whether a refund can be asked for now (a bought label, unused, within the window, none asked yet). */
  refundable: Type.Boolean(),
  /** Why not, when it was bought but cannot be refunded (scanned, past the window). */
  refundBlockedReason: Type.Union([Type.String(), Type.Null()]),
});
export type LabelRefund = Static<typeof LabelRefundSchema>;

/** POST /api/orders/labels/{labelId}/refund: the label's refund as it stands after the request. */
export const RefundLabelReplySchema = Type.Object({
  message: Type.String(),
  labelId: Type.String(),
  refundStatus: RefundStateSchema,
  refundReason: Type.Union([Type.String(), Type.Null()]),
  /** Dollars that came back to the balance with this request (0 while the carrier has not confirmed). */
  credited: Type.Number(),
});
export type RefundLabelReply = Static<typeof RefundLabelReplySchema>;

/** POST /api/orders/bulk/refund/{orderId}: one label of the batch (`labelIds`), some, or every unused one (`{}`). */
export const BatchRefundBodySchema = Type.Object(
  { labelIds: Type.Optional(Type.Array(IdSchema, { minItems: 1, maxItems: 5_000 })) },
  { additionalProperties: false },
);
export type BatchRefundBody = Static<typeof BatchRefundBodySchema>;

export const BatchRefundReplySchema = Type.Object({
  message: Type.String(),
  /** Labels asked for (every unused one, or those named). */
  asked: Type.Integer(),
  refunded: Type.Integer(),
  /** Asked of the carrier, not yet confirmed: credited when it is. */
  pending: Type.Integer(),
  rejected: Type.Integer(),
  /** Named but not refundable (scanned, past the window, never bought, refunded before). */
  skipped: Type.Integer(),
  /** Dollars back on the balance from this request. */
  credited: Type.Number(),
});
export type BatchRefundReply = Static<typeof BatchRefundReplySchema>;

/** One label of a batch, for its refund view: GET /api/orders/bulk/labels/{orderId}. */
export const BatchLabelSchema = Type.Object({
  _id: Type.String(),
  /** 1-based row of the order's file. */
  row: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('completed'),
    Type.Literal('cancelled'),
    Type.Literal('void'),
  ]),
  serviceName: Type.String(),
  receiverName: Type.String(),
  receiverPlace: Type.String(),
  trackingNumber: Type.Union([Type.String(), Type.Null()]),
  price: Type.Number(),
  ...LabelRefundSchema.properties,
  ...LabelTrackingSchema.properties,
});
export type BatchLabel = Static<typeof BatchLabelSchema>;
export const BatchLabelsReplySchema = Type.Object({ labels: Type.Array(BatchLabelSchema) });
export type BatchLabelsReply = Static<typeof BatchLabelsReplySchema>;

/** The texts of refunds a customer or an admin sees. None contains a colon: the web keeps only what follows one. */
export const REFUND_MESSAGES = {
  refunded: (dollars: string) => `Refunded. $${dollars} is back on the balance.`,
  requested: 'Refund requested. USPS is reviewing it; the balance is credited when it is approved.',
  rejected: (reason: string) => `USPS refused the refund. ${reason}`,
  alreadyRequested: 'A refund was already requested for this label; it is waiting for USPS.',
  alreadyRejected: (reason: string) => `The refund of this label was refused. ${reason}`,
  alreadyRefunded: 'Label already refunded',
  notBought: 'Only a bought label can be refunded; this one has no label to void',
  used: 'USPS has scanned this label, so it was used and cannot be refunded.',
  pastWindow: (days: number) => `Labels can be refunded within ${days} days of purchase; this one is older.`,
  carrierUnavailable:
    'USPS could not be reached to void the label. The refund is requested and will be sent again shortly.',
  labelNotFound: 'Label not found',
  noVoid: 'The carrier that sold this label does not take refunds.',
  batch: (n: { refunded: number; pending: number; rejected: number; skipped: number }, dollars: string) =>
    [
      n.refunded > 0 ? `${n.refunded} refunded ($${dollars} back on the balance)` : null,
      n.pending > 0 ? `${n.pending} waiting for USPS` : null,
      n.rejected > 0 ? `${n.rejected} refused by USPS` : null,
      n.skipped > 0 ? `${n.skipped} not refundable` : null,
    ]
      .filter(Boolean)
      .join(', ') || 'No unused labels to refund.',
} as const;
