import { type Static, Type } from 'typebox';
import { TokenStateSchema } from './users';

/** Topic names of the event bus (DESIGN.md §5). */
export const TOPICS = {
  labelRequested: 'label.requested',
  bulkProgress: 'bulk.progress',
  labelPurchased: 'label.purchased',
  labelRefunded: 'label.refunded',
  userChanged: 'user.changed',
  accountChanged: 'account.changed',
  impersonationAction: 'impersonation.action',
  depositSettled: 'deposit.settled',
} as const;
export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

/**
 * user.changed, keyed by user id: the user's current token state (or deleted), and the profile as it is
 * now. The profile fields are optional so events written before they existed still parse; `updatedAt`
 * orders two events of one user (a consumer keeps the newer).
 */
export const UserChangedEventSchema = Type.Intersect([
  TokenStateSchema,
  Type.Object({
    deleted: Type.Optional(Type.Boolean()),
    name: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    avatar: Type.Optional(Type.String()),
    referralCode: Type.Optional(Type.String()),
    referredBy: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    createdAt: Type.Optional(Type.String()),
    updatedAt: Type.Optional(Type.String()),
  }),
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
  /** The carrier plugin that sold it (`sandbox-usps`, `usps`, `easypost`); absent in events written before it was kept. */
  carrierId: Type.Optional(Type.String()),
  /** What the carrier charged the platform, in cents, when it said: price minus this is the margin. */
  carrierCostCents: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type LabelPurchasedEvent = Static<typeof LabelPurchasedEventSchema>;

/**
 * account.changed, keyed by user id: a user's money after a ledger movement, in cents. `seq` grows with
 * every movement (the id of the latest ledger entry), so a consumer keeps the figure with the highest seq.
 */
export const AccountChangedEventSchema = Type.Object({
  userId: Type.String(),
  balanceCents: Type.Integer(),
  totalDepositCents: Type.Integer(),
  totalSpentCents: Type.Integer(),
  seq: Type.Integer({ minimum: 0 }),
});
export type AccountChangedEvent = Static<typeof AccountChangedEventSchema>;

/**
 * impersonation.action, keyed by user id: an action with effects (any method but GET/HEAD/OPTIONS, and the GETs
 * that change something, listed in the gateway) made with a login-as token, as the gateway answered it. `path` has
 * no query string.
 */
export const ImpersonationActionEventSchema = Type.Object({
  /**
   * Made by the gateway for each action, so a redelivered event is recorded once and two actions are two entries
   * however alike. Optional only because events published before it existed lack it.
   */
  id: Type.Optional(Type.String({ format: 'uuid' })),
  userId: Type.String(),
  adminId: Type.String(),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  at: Type.String(),
});
export type ImpersonationActionEvent = Static<typeof ImpersonationActionEventSchema>;

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

/**
 * deposit.settled, keyed by user id: a BTCPay deposit credited to the ledger (written to payments' outbox in the
 * transaction that credits it, so it is announced exactly when the money arrived). Payments' referral bonus
 * consumer acts on it. Amount in cents, always above zero.
 */
export const DepositSettledEventSchema = Type.Object({
  userId: Type.String({ format: 'uuid' }),
  invoiceId: Type.String({ minLength: 1 }),
  amountCents: Type.Integer({ minimum: 1 }),
  settledAt: Type.String(),
});
export type DepositSettledEvent = Static<typeof DepositSettledEventSchema>;
