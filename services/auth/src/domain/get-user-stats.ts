import { DASHBOARD_RECENT_MAX, type InternalUserStatsReply } from '@flatship/proto';
import type { UserStatsRepo } from '../db/user-stats-repo';

/** Users on the admin dashboard: how many, how many joined this month, and the latest sign-ups. */
export async function getUserStats(
  deps: { stats: UserStatsRepo },
  periods: { monthStart: Date },
): Promise<InternalUserStatsReply> {
  const row = await deps.stats.read(periods.monthStart, DASHBOARD_RECENT_MAX);
  return {
    totalUsers: row.totalUsers,
    newThisMonth: row.newSince,
    latestSignUps: row.latest.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() })),
  };
}
