import type { InternalClient } from '@flatship/kit';
import type { DashboardPeriodsQuery, InternalLabelStatsReply } from '@flatship/proto';
import type { StatsContext } from '../domain/dashboard/ports';

/** GET /internal/stats/labels on orders: its part of the admin dashboard. */
export function createOrdersLabelStats(client: InternalClient) {
  return (periods: DashboardPeriodsQuery, ctx: StatsContext) =>
    client.request<InternalLabelStatsReply>('GET', `/internal/stats/labels?${new URLSearchParams(periods)}`, {
      requestId: ctx.requestId,
    });
}
