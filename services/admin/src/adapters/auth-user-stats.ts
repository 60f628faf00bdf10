import type { InternalClient } from '@flatship/kit';
import type { DashboardPeriodsQuery, InternalUserStatsReply } from '@flatship/proto';
import type { StatsContext } from '../domain/dashboard/ports';

/** GET /internal/stats/users on auth: its part of the admin dashboard. */
export function createAuthUserStats(client: InternalClient) {
  return (periods: DashboardPeriodsQuery, ctx: StatsContext) =>
    client.request<InternalUserStatsReply>('GET', `/internal/stats/users?${new URLSearchParams(periods)}`, {
      requestId: ctx.requestId,
    });
}
