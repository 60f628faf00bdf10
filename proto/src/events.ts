import { type Static, Type } from 'typebox';
import { TokenStateSchema } from './users';

/** Topic names of the event bus (DESIGN.md §5). */
export const TOPICS = {
  labelRequested: 'label.requested',
  bulkProgress: 'bulk.progress',
  labelPurchased: 'label.purchased',
  labelRefunded: 'label.refunded',
  userChanged: 'user.changed',
} as const;
export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

/** user.changed, keyed by user id: the user's current token state (or deleted). */
export const UserChangedEventSchema = Type.Intersect([
  TokenStateSchema,
  Type.Object({ deleted: Type.Optional(Type.Boolean()) }),
]);
export type UserChangedEvent = Static<typeof UserChangedEventSchema>;

/** label.purchased, keyed by user id: feeds rankings and spend figures. Price in cents. */
export const LabelPurchasedEventSchema = Type.Object({
  userId: Type.String(),
  labelId: Type.String(),
  /** Set for labels of a bulk order. */
  bulkOrderId: Type.Optional(Type.String()),
  serviceUid: Type.String(),
  serviceName: Type.String(),
  priceCents: Type.Integer(),
  createdAt: Type.String(),
});
export type LabelPurchasedEvent = Static<typeof LabelPurchasedEventSchema>;

/**
 * label.refunded, keyed by user id: a purchased label given back (voided by an admin), so figures built from
 * label.purchased stop counting it. Price in cents, as charged.
 */
export const LabelRefundedEventSchema = Type.Object({
  userId: Type.String(),
  labelId: Type.String(),
  priceCents: Type.Integer(),
  refundedAt: Type.String(),
});
export type LabelRefundedEvent = Static<typeof LabelRefundedEventSchema>;
