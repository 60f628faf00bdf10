import { AppError } from '@flatship/kit';
import type { LedgerResult, RefundBody } from '@flatship/proto';
import { MESSAGES } from './messages';
import { type MoveMoneyDeps, moveMoney } from './move-money';
import { assertAmount, assertUserId } from './rules';

/**
 * Gives back (part of) an earlier charge of the same user, once per key. All
 * refunds of one charge together never exceed it; they are serialised by the
 * account lock, so two refunds racing cannot both pass the check.
 */
export async function refundCharge(deps: MoveMoneyDeps, input: RefundBody): Promise<LedgerResult> {
  assertUserId(input.userId);
  assertAmount(input.amountCents);
  return moveMoney(deps, {
    userId: input.userId,
    key: input.key,
    isSameMovement: (e) =>
      e.kind === 'label_refund' &&
      e.userId === input.userId &&
      e.amountCents === input.amountCents &&
      e.reference === input.chargeKey,
    async plan(balance, tx) {
      const charge = await deps.ledger.findByKey(input.chargeKey, tx);
      if (charge?.kind !== 'label_charge' || charge.userId !== input.userId) {
        throw new AppError('PAYMENTS_CHARGE_NOT_FOUND', MESSAGES.chargeNotFound);
      }
      const charged = -charge.amountCents;
      const refunded = await deps.ledger.refundedCents(input.chargeKey, tx);
      if (refunded + input.amountCents > charged) {
        throw new AppError('PAYMENTS_REFUND_EXCEEDS_CHARGE', MESSAGES.refundExceedsCharge(charged, refunded));
      }
      return {
        userId: input.userId,
        kind: 'label_refund',
        amountCents: input.amountCents,
        balanceAfterCents: balance + input.amountCents,
        key: input.key,
        reference: input.chargeKey,
        memo: input.memo ?? null,
        adminId: input.adminId ?? null,
      };
    },
  });
}
