import { DASHBOARD_RECENT_MAX, type InternalDepositStatsReply } from '@flatship/proto';
import type { DepositStatsRepo } from '../db/deposit-stats-repo';

/** Deposits on the admin dashboard: what settled this month, and the latest settlements. */
export async function getDepositStats(
  deps: { stats: DepositStatsRepo },
  periods: { monthStart: Date },
): Promise<InternalDepositStatsReply> {
  const row = await deps.stats.read(periods.monthStart, DASHBOARD_RECENT_MAX);
  return {
    depositsThisMonthCents: row.settledCentsSince,
    depositsThisMonthCount: row.settledCountSince,
    latestDeposits: row.latest.map((d) => ({ ...d, settledAt: d.settledAt.toISOString() })),
  };
}
