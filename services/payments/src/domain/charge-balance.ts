import { AppError } from '@flatship/kit';
import type { ChargeBody, LedgerResult } from '@flatship/proto';
import { MESSAGES } from './messages';
import { type MoveMoneyDeps, moveMoney } from './move-money';
import { assertAmount, assertUserId } from './rules';

/** Takes the price of labels from a balance, never below zero; once per key. */
export async function chargeBalance(deps: MoveMoneyDeps, input: ChargeBody): Promise<LedgerResult> {
  assertUserId(input.userId);
  assertAmount(input.amountCents);
  return moveMoney(deps, {
    userId: input.userId,
    key: input.key,
    isSameMovement: (e) =>
      e.kind === 'label_charge' && e.userId === input.userId && e.amountCents === -input.amountCents,
    async plan(balance) {
      if (balance < input.amountCents) {
        throw new AppError('PAYMENTS_INSUFFICIENT_BALANCE', MESSAGES.insufficientBalance(input.amountCents, balance));
      }
      return {
        userId: input.userId,
        kind: 'label_charge',
        amountCents: -input.amountCents,
        balanceAfterCents: balance - input.amountCents,
        key: input.key,
        memo: input.memo ?? null,
      };
    },
  });
}
