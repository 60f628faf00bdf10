import { DASHBOARD_RECENT_MAX, type InternalLabelStatsReply } from '@flatship/proto';
import type { LabelStatsRepo } from '../db/label-stats-repo';

/** Labels on the admin dashboard: counts and revenue today and this month, running bulk orders, failures, latest. */
export async function getLabelStats(
  deps: { stats: LabelStatsRepo },
  periods: { dayStart: Date; monthStart: Date },
): Promise<InternalLabelStatsReply> {
  const row = await deps.stats.read(periods, DASHBOARD_RECENT_MAX);
  return {
    labelsToday: row.labelsToday,
    labelsThisMonth: row.labelsSinceMonth,
    revenueTodayCents: row.revenueTodayCents,
    revenueThisMonthCents: row.revenueSinceMonthCents,
    costTodayCents: row.costTodayCents,
    costThisMonthCents: row.costSinceMonthCents,
    runningBulkOrders: row.runningBulkOrders,
    failedToday: row.failedToday,
    latestLabels: row.latest.map((l) => ({ ...l, createdAt: l.createdAt.toISOString() })),
  };
}
