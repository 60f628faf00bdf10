import { type Static, Type } from 'typebox';

/** Ledger entry kinds (DESIGN.md §7). */
export const LEDGER_KINDS = ['deposit', 'label_charge', 'label_refund', 'admin_adjustment'] as const;

/** A deposit row as the dashboard and deposit page show it. createdTime is unix seconds. */
export const DepositSchema = Type.Object({
  _id: Type.String(),
  amount: Type.Number(),
  createdTime: Type.Integer(),
  status: Type.String(),
});
export type Deposit = Static<typeof DepositSchema>;

/**
 * POST /internal/ledger/charge — takes amountCents from the balance, never below zero.
 * `key` makes it idempotent: the same key returns the first result and moves no money.
 */
export const ChargeBodySchema = Type.Object({
  userId: Type.String(),
  amountCents: Type.Integer({ minimum: 1 }),
  key: Type.String({ minLength: 1, maxLength: 200 }),
  memo: Type.Optional(Type.String({ maxLength: 500 })),
});
export type ChargeBody = Static<typeof ChargeBodySchema>;

/** POST /internal/ledger/refund — returns (part of) an earlier charge, at most what it took, once per key. */
export const RefundBodySchema = Type.Object({
  userId: Type.String(),
  amountCents: Type.Integer({ minimum: 1 }),
  key: Type.String({ minLength: 1, maxLength: 200 }),
  chargeKey: Type.String({ minLength: 1, maxLength: 200 }),
  memo: Type.Optional(Type.String({ maxLength: 500 })),
});
export type RefundBody = Static<typeof RefundBodySchema>;

/** POST /internal/ledger/set-balance — an admin sets a balance; recorded as an adjustment of the difference. */
export const SetBalanceBodySchema = Type.Object({
  userId: Type.String(),
  balanceCents: Type.Integer({ minimum: 0 }),
  adminId: Type.String(),
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

/** POST /api/auth/users/details/{id} (admin service). */
export const UserDetailsBodySchema = Type.Object({
  balance: Type.Optional(Type.Union([Type.Number(), Type.String()])),
  referralCode: Type.Optional(Type.String()),
});
export type UserDetailsBody = Static<typeof UserDetailsBodySchema>;
