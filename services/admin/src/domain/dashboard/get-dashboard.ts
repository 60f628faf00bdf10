import {
  type AdminDashboardReply,
  centsToDollars,
  DASHBOARD_RECENT_MAX,
  type DashboardActivity,
  dashboardPeriods,
} from '@flatship/proto';
import type { DashboardDeps, StatsContext } from './ports';

const settledValue = <T>(result: PromiseSettledResult<T>): T => {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
};
const dollars = (cents: number) => `$${centsToDollars(cents).toFixed(2)}`;

/**
 * The live admin dashboard: users from auth, labels and revenue from orders,
 * deposits from payments, read in parallel for the same UTC day and month.
 * Recent activity is the newest labels, deposits and sign-ups together.
 */
export async function getDashboard(deps: DashboardDeps, ctx: StatsContext): Promise<AdminDashboardReply> {
  const now = deps.clock.now();
  const periods = dashboardPeriods(now);
  // Every call is let finish before answering, also when one fails: no work of this request outlives it.
  const [u, l, d] = await Promise.allSettled([
    deps.sources.users(periods, ctx),
    deps.sources.labels(periods, ctx),
    deps.sources.deposits(periods, ctx),
  ]);
  const [users, labels, deposits] = [settledValue(u), settledValue(l), settledValue(d)];

  const activity: DashboardActivity[] = [
    ...users.latestSignUps.map((u) => ({
      kind: 'signup' as const,
      at: u.createdAt,
      text: `New user registered: ${u.email}`,
    })),
    ...labels.latestLabels.map((l) => ({
      kind: 'label' as const,
      at: l.createdAt,
      text: `Label purchased: ${l.serviceName} (${dollars(l.priceCents)})`,
    })),
    ...deposits.latestDeposits.map((d) => ({
      kind: 'deposit' as const,
      at: d.settledAt,
      text: `Deposit of ${dollars(d.amountCents)} settled`,
    })),
  ]
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
    .slice(0, DASHBOARD_RECENT_MAX);

  return {
    users: { total: users.totalUsers, newThisMonth: users.newThisMonth },
    labels: { today: labels.labelsToday, thisMonth: labels.labelsThisMonth, failedToday: labels.failedToday },
    revenue: {
      today: centsToDollars(labels.revenueTodayCents),
      thisMonth: centsToDollars(labels.revenueThisMonthCents),
    },
    cost: {
      today: centsToDollars(labels.costTodayCents ?? 0),
      thisMonth: centsToDollars(labels.costThisMonthCents ?? 0),
    },
    margin: {
      today: centsToDollars(labels.revenueTodayCents - (labels.costTodayCents ?? 0)),
      thisMonth: centsToDollars(labels.revenueThisMonthCents - (labels.costThisMonthCents ?? 0)),
    },
    deposits: {
      thisMonth: centsToDollars(deposits.depositsThisMonthCents),
      countThisMonth: deposits.depositsThisMonthCount,
    },
    runningBulkOrders: labels.runningBulkOrders,
    activity,
    generatedAt: now.toISOString(),
  };
}
