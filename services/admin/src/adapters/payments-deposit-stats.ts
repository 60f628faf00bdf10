import type { InternalClient } from '@flatship/kit';
import type { DashboardPeriodsQuery, InternalDepositStatsReply } from '@flatship/proto';
import type { StatsContext } from '../domain/dashboard/ports';

/** GET /internal/stats/deposits on payments: its part of the admin dashboard. */
export function createPaymentsDepositStats(client: InternalClient) {
  return (periods: DashboardPeriodsQuery, ctx: StatsContext) =>
    client.request<InternalDepositStatsReply>('GET', `/internal/stats/deposits?${new URLSearchParams(periods)}`, {
      requestId: ctx.requestId,
    });
}
