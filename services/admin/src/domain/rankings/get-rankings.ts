import { isAppError } from '@flatship/kit';
import {
  centsToDollars,
  type InternalUser,
  RANKINGS_DEFAULT_QUERY,
  type RankingRow,
  type RankingsQuery,
  type RankingsReply,
} from '@flatship/proto';
import type { CallContext, UserDirectory } from '../ports';
import { daysOf, resolvePeriod } from './period';
import type { RankingsStore } from './ports';

export interface GetRankingsDeps {
  rankings: RankingsStore;
  users: Pick<UserDirectory, 'get'>;
  now?: () => Date;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The user volume ranking of a period (spec doc 3 §2): top users, totals over all users, and the day-by-day chart. */
export async function getRankings(
  deps: GetRankingsDeps,
  query: RankingsQuery,
  ctx: CallContext,
): Promise<RankingsReply> {
  const period = query.period ?? RANKINGS_DEFAULT_QUERY.period;
  const limit = query.limit ?? RANKINGS_DEFAULT_QUERY.limit;
  const sort = query.sort ?? RANKINGS_DEFAULT_QUERY.sort;
  const order = query.order ?? RANKINGS_DEFAULT_QUERY.order;
  const now = deps.now?.() ?? new Date();
  const window = resolvePeriod(period, now, query);
  const openEnd = window.end >= now.toISOString().slice(0, 10);

  // Labels per day is labels over a fixed number of days, so it ranks exactly as labels do.
  const by = sort === 'revenue' ? 'revenue' : sort === 'name' ? 'name' : 'labels';
  const [{ users, totals }, days] = await Promise.all([
    deps.rankings.figures({ ...window, openEnd }, { by, order: sort === 'name' ? 'desc' : order, limit }),
    deps.rankings.days(window),
  ]);

  // Names and roles live in auth; only the rows shown (at most 100) are asked for.
  const profiles = await Promise.all(users.map((u) => profileOf(deps.users, u.userId, ctx)));
  const rankings: RankingRow[] = users.map((u, i) => {
    const p = profiles[i];
    return {
      userId: u.userId,
      userName: p?.name ?? '',
      userEmail: p?.email ?? '',
      userRole: p?.user_role ?? null,
      activation: p?.activation ?? null,
      labelCount: u.labels,
      totalRevenue: centsToDollars(u.revenueCents),
      totalCost: centsToDollars(u.costCents),
      margin: centsToDollars(u.revenueCents - u.costCents),
      averageLabelsPerDay: round2(u.labels / window.days),
      firstOrderDate: u.firstAt.toISOString(),
      lastOrderDate: u.lastAt.toISOString(),
    };
  });
  if (sort === 'name') {
    const dir = order === 'asc' ? 1 : -1;
    rankings.sort((a, b) => dir * a.userName.localeCompare(b.userName, 'en', { sensitivity: 'base' }));
  }

  const byDay = new Map(days.map((d) => [d.day, d]));
  return {
    rankings,
    summary: {
      uniqueUsers: totals.uniqueUsers,
      totalLabels: totals.totalLabels,
      totalRevenue: centsToDollars(totals.totalRevenueCents),
      totalCost: centsToDollars(totals.totalCostCents),
      margin: centsToDollars(totals.totalRevenueCents - totals.totalCostCents),
    },
    daily: daysOf(window).map((date) => {
      const d = byDay.get(date);
      return { date, labels: d?.labels ?? 0, revenue: centsToDollars(d?.revenueCents ?? 0) };
    }),
    period: { start: window.start, end: window.end, days: window.days },
  };
}

/** A user deleted since buying still ranks, without a name. */
async function profileOf(users: Pick<UserDirectory, 'get'>, userId: string, ctx: CallContext) {
  try {
    return await users.get(userId, ctx);
  } catch (err) {
    if (isAppError(err) && err.code === 'USER_NOT_FOUND') return undefined as InternalUser | undefined;
    throw err;
  }
}
