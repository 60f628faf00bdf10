import { type Static, Type } from 'typebox';
import { IdSchema } from './ids';
import { MultilineString } from './multiline-string';

/** Ledger entry kinds (DESIGN.md §7), and `referral_bonus`: promotional credit (never counted as a deposit). */
export const LEDGER_KINDS = ['deposit', 'label_charge', 'label_refund', 'admin_adjustment', 'referral_bonus'] as const;

/**
 * A line of the deposit history as the dashboard and deposit page show it. createdTime is unix seconds. Besides
 * BTCPay deposits the history lists referral bonuses credited to the balance: those have `kind: 'referral_bonus'`,
 * status Settled and a `description` saying what they were for. A line without `kind` is a deposit.
 */
export const DepositSchema = Type.Object({
  _id: Type.String(),
  amount: Type.Number(),
  createdTime: Type.Integer(),
  status: Type.String(),
  kind: Type.Optional(Type.Union([Type.Literal('deposit'), Type.Literal('referral_bonus')])),
  description: Type.Optional(Type.String()),
});
export type Deposit = Static<typeof DepositSchema>;

/**
 * GET /api/payment/top-up/{userId}: a new top-up invoice for the caller. `id`
 * is what the provider's modal opens (`window.btcpay.showInvoice(id)`);
 * `checkoutLink` is its payment page, whose origin serves the modal script.
 */
export const TopUpReplySchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  checkoutLink: Type.String(),
});
export type TopUpReply = Static<typeof TopUpReplySchema>;

/**
 * POST /internal/ledger/charge — takes amountCents from the balance, never below zero.
 * `key` makes it idempotent: the same key returns the first result and moves no money.
 * A $0 charge (a free label) is recorded too, so a refund of it finds its charge.
 */
export const ChargeBodySchema = Type.Object({
  userId: IdSchema,
  amountCents: Type.Integer({ minimum: 0 }),
  key: Type.String({ minLength: 1, maxLength: 200 }),
  memo: Type.Optional(MultilineString({ maxLength: 500 })),
});
export type ChargeBody = Static<typeof ChargeBodySchema>;

/** POST /internal/ledger/refund — returns (part of) an earlier charge, at most what it took, once per key ($0 for a free label). */
export const RefundBodySchema = Type.Object({
  userId: IdSchema,
  amountCents: Type.Integer({ minimum: 0 }),
  key: Type.String({ minLength: 1, maxLength: 200 }),
  chargeKey: Type.String({ minLength: 1, maxLength: 200 }),
  memo: Type.Optional(MultilineString({ maxLength: 500 })),
  /** The admin who gave the charge back (an admin voiding an unused label); absent for automatic refunds. */
  adminId: Type.Optional(IdSchema),
});
export type RefundBody = Static<typeof RefundBodySchema>;

/** POST /internal/ledger/set-balance — an admin sets a balance; recorded as an adjustment of the difference. */
export const SetBalanceBodySchema = Type.Object({
  userId: IdSchema,
  balanceCents: Type.Integer({ minimum: 0 }),
  adminId: IdSchema,
  key: Type.String({ minLength: 1, maxLength: 200 }),
});
export type SetBalanceBody = Static<typeof SetBalanceBodySchema>;

export const LedgerResultSchema = Type.Object({
  entryId: Type.Union([Type.String(), Type.Null()]),
  balanceCents: Type.Integer(),
  /** True when this key had been used before and nothing moved now. */
  replayed: Type.Boolean(),
});
export type LedgerResult = Static<typeof LedgerResultSchema>;

/**
 * POST /api/auth/users/details/{id} (admin service). Balance in dollars, as a number or a numeric string; a field that
 * is absent or null is left as it is.
 */
export const UserDetailsBodySchema = Type.Object({
  balance: Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()])),
  referralCode: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type UserDetailsBody = Static<typeof UserDetailsBodySchema>;

/** GET /api/payment/recent-deposits/{userId} — the newest deposits, at most RECENT_DEPOSITS_MAX. */
export const RECENT_DEPOSITS_MAX = 25;
export const RecentDepositsReplySchema = Type.Array(DepositSchema);
export type RecentDepositsReply = Static<typeof RecentDepositsReplySchema>;

/** Deposit list filters: `pending` is every status other than Settled and Expired (spec doc 1 §4). */
export const DEPOSIT_FILTERS = ['all', 'settled', 'expired', 'pending'] as const;
export type DepositFilter = (typeof DEPOSIT_FILTERS)[number];

/** GET /api/payment/deposits/{userId}?page&limit&filter — paged by the server, newest first. Absent means DEPOSITS_DEFAULT_QUERY. */
export const DepositsQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  filter: Type.Optional(
    Type.Union([Type.Literal('all'), Type.Literal('settled'), Type.Literal('expired'), Type.Literal('pending')]),
  ),
});
export type DepositsQuery = Static<typeof DepositsQuerySchema>;

export const DepositsReplySchema = Type.Object({
  deposits: Type.Array(DepositSchema),
  totalCount: Type.Integer(),
});
export type DepositsReply = Static<typeof DepositsReplySchema>;

/** One ledger entry as GET /internal/ledger/:userId lists it. Amounts in cents; charges are negative. */
export const LedgerEntrySchema = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  kind: Type.Union([
    Type.Literal('deposit'),
    Type.Literal('label_charge'),
    Type.Literal('label_refund'),
    Type.Literal('admin_adjustment'),
    Type.Literal('referral_bonus'),
  ]),
  amountCents: Type.Integer(),
  balanceAfterCents: Type.Integer(),
  key: Type.String(),
  reference: Type.Union([Type.String(), Type.Null()]),
  memo: Type.Union([Type.String(), Type.Null()]),
  adminId: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});
export type LedgerEntry = Static<typeof LedgerEntrySchema>;

export const LedgerEntriesReplySchema = Type.Object({ entries: Type.Array(LedgerEntrySchema) });
export type LedgerEntriesReply = Static<typeof LedgerEntriesReplySchema>;

/** The answer of POST /api/auth/users/details/{id}. Balance in dollars. */
export const UserDetailsReplySchema = Type.Object({
  message: Type.String(),
  user: Type.Object({ _id: Type.String(), balance: Type.Number(), referralCode: Type.String() }),
});
export type UserDetailsReply = Static<typeof UserDetailsReplySchema>;
