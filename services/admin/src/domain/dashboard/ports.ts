import type {
  DashboardPeriodsQuery,
  InternalDepositStatsReply,
  InternalLabelStatsReply,
  InternalUserStatsReply,
} from '@flatship/proto';

export interface StatsContext {
  requestId: string;
}

/** Where each part of the dashboard comes from: auth, orders and payments. */
export interface DashboardSources {
  users(periods: DashboardPeriodsQuery, ctx: StatsContext): Promise<InternalUserStatsReply>;
  labels(periods: DashboardPeriodsQuery, ctx: StatsContext): Promise<InternalLabelStatsReply>;
  deposits(periods: DashboardPeriodsQuery, ctx: StatsContext): Promise<InternalDepositStatsReply>;
}

export interface DashboardDeps {
  sources: DashboardSources;
  clock: { now(): Date };
}
