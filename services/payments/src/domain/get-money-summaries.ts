import { centsToDollars, type MoneySummary } from '@flatship/proto';
import type { LedgerRepo } from './ports';
import { isUserId } from './rules';

/**
 * Balance, total deposit and total spent (label charges less their refunds)
 * in dollars, for every id asked about; users who never moved money have zeros.
 */
export async function getMoneySummaries(deps: { ledger: LedgerRepo }, userIds: string[]): Promise<MoneySummary[]> {
  const ids = [...new Set(userIds)];
  const totals = await deps.ledger.totals(ids.filter(isUserId));
  return ids.map((userId) => {
    const t = totals.get(userId);
    return {
      userId,
      balance: centsToDollars(t?.balanceCents ?? 0),
      totalDeposit: centsToDollars(t?.depositCents ?? 0),
      totalSpent: centsToDollars((t?.chargedCents ?? 0) - (t?.refundedCents ?? 0)),
      seq: t?.seq ?? 0,
    };
  });
}
