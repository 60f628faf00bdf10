import type { LedgerResult, SetBalanceBody } from '@flatship/proto';
import { MESSAGES } from './messages';
import { type MoveMoneyDeps, moveMoney } from './move-money';
import { assertAmount, assertUserId } from './rules';

/**
 * An admin puts a balance at a figure. The ledger stays the only history of
 * money: the change is an adjustment entry of the difference, signed by the
 * admin; setting the current figure records nothing.
 */
export async function setBalance(deps: MoveMoneyDeps, input: SetBalanceBody): Promise<LedgerResult> {
  assertUserId(input.userId);
  assertUserId(input.adminId, MESSAGES.invalidAdminId);
  assertAmount(input.balanceCents);
  return moveMoney(deps, {
    userId: input.userId,
    key: input.key,
    isSameMovement: (e) =>
      e.kind === 'admin_adjustment' && e.userId === input.userId && e.balanceAfterCents === input.balanceCents,
    async plan(balance) {
      const difference = input.balanceCents - balance;
      if (difference === 0) return null;
      return {
        userId: input.userId,
        kind: 'admin_adjustment',
        amountCents: difference,
        balanceAfterCents: input.balanceCents,
        key: input.key,
        adminId: input.adminId,
      };
    },
  });
}
