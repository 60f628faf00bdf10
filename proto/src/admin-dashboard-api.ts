import { type Static, Type } from 'typebox';

/**
 * The live admin dashboard (spec doc 3 §2, Admin dashboard; shown at
 * /admin/dashboard and /main/admin). The admin service composes one figure set
 * from auth (users), orders (labels, revenue, bulk orders) and payments
 * (deposits). Days and months are UTC; admin works out their starts once and
 * hands them to every service, so all figures speak of the same day.
 */

/** How many of each kind of recent event the internal calls return. */
export const DASHBOARD_RECENT_MAX = 10;

/** Start of the UTC day and of the UTC month that contain `now`. */
export function dashboardPeriods(now: Date): DashboardPeriodsQuery {
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { dayStart: dayStart.toISOString(), monthStart: monthStart.toISOString() };
}

/** Query of every internal stats call: GET /internal/stats/...?dayStart&monthStart. */
const IsoInstantSchema = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,3})?Z$' });
export const DashboardPeriodsQuerySchema = Type.Object({ dayStart: IsoInstantSchema, monthStart: IsoInstantSchema });
export type DashboardPeriodsQuery = Static<typeof DashboardPeriodsQuerySchema>;

// ---- Internal calls (shared secret; money in cents) ----

/** GET /internal/stats/users on auth. */
export const InternalUserStatsReplySchema = Type.Object({
  totalUsers: Type.Integer(),
  newThisMonth: Type.Integer(),
  /** Newest sign-ups first. */
  latestSignUps: Type.Array(
    Type.Object({ userId: Type.String(), name: Type.String(), email: Type.String(), createdAt: Type.String() }),
  ),
});
export type InternalUserStatsReply = Static<typeof InternalUserStatsReplySchema>;

/** GET /internal/stats/labels on orders. Revenue counts completed labels that were not refunded. */
export const InternalLabelStatsReplySchema = Type.Object({
  labelsToday: Type.Integer(),
  labelsThisMonth: Type.Integer(),
  revenueTodayCents: Type.Integer(),
  revenueThisMonthCents: Type.Integer(),
  /**
   * What the carriers charged the platform for the same labels (`labels.carrier_cost_cents`; 0 for a label whose
   * carrier did not say). Optional: an orders service older than the field leaves it out.
   */
  costTodayCents: Type.Optional(Type.Integer()),
  costThisMonthCents: Type.Optional(Type.Integer()),
  /** Bulk orders not yet finished (processing or waiting). */
  runningBulkOrders: Type.Integer(),
  /** Labels that failed (were cancelled) today. */
  failedToday: Type.Integer(),
  /** Newest completed labels first. */
  latestLabels: Type.Array(
    Type.Object({
      labelId: Type.String(),
      userId: Type.String(),
      serviceName: Type.String(),
      priceCents: Type.Integer(),
      createdAt: Type.String(),
    }),
  ),
});
export type InternalLabelStatsReply = Static<typeof InternalLabelStatsReplySchema>;

/** GET /internal/stats/deposits on payments: settled deposits only. */
export const InternalDepositStatsReplySchema = Type.Object({
  depositsThisMonthCents: Type.Integer(),
  depositsThisMonthCount: Type.Integer(),
  /** Newest settlements first. */
  latestDeposits: Type.Array(
    Type.Object({
      depositId: Type.String(),
      userId: Type.String(),
      amountCents: Type.Integer(),
      settledAt: Type.String(),
    }),
  ),
});
export type InternalDepositStatsReply = Static<typeof InternalDepositStatsReplySchema>;

// ---- Public call (admin only; money in dollars) ----

export const DashboardActivitySchema = Type.Object({
  kind: Type.Union([Type.Literal('label'), Type.Literal('deposit'), Type.Literal('signup')]),
  /** ISO date-time of the event. */
  at: Type.String(),
  /** One line for people, e.g. 'Deposit of $500.00 settled'. */
  text: Type.String(),
});
export type DashboardActivity = Static<typeof DashboardActivitySchema>;

/** GET /api/admin/dashboard */
export const AdminDashboardReplySchema = Type.Object({
  users: Type.Object({ total: Type.Integer(), newThisMonth: Type.Integer() }),
  labels: Type.Object({ today: Type.Integer(), thisMonth: Type.Integer(), failedToday: Type.Integer() }),
  revenue: Type.Object({ today: Type.Number(), thisMonth: Type.Number() }),
  /** What the carriers charged the platform for those labels, and revenue minus that. */
  cost: Type.Object({ today: Type.Number(), thisMonth: Type.Number() }),
  margin: Type.Object({ today: Type.Number(), thisMonth: Type.Number() }),
  deposits: Type.Object({ thisMonth: Type.Number(), countThisMonth: Type.Integer() }),
  runningBulkOrders: Type.Integer(),
  /** Latest labels, deposits and sign-ups together, newest first, at most DASHBOARD_RECENT_MAX. */
  activity: Type.Array(DashboardActivitySchema),
  /** When the figures were read. */
  generatedAt: Type.String(),
});
export type AdminDashboardReply = Static<typeof AdminDashboardReplySchema>;

/** The periods as instants; null when a value matches the pattern but names no real time (month 13). */
export function readDashboardPeriods(query: DashboardPeriodsQuery): { dayStart: Date; monthStart: Date } | null {
  const dayStart = new Date(query.dayStart);
  const monthStart = new Date(query.monthStart);
  if (Number.isNaN(dayStart.getTime()) || Number.isNaN(monthStart.getTime())) return null;
  return { dayStart, monthStart };
}

/** The message of a stats call whose periods cannot be read. */
export const DASHBOARD_PERIODS_INVALID = 'dayStart and monthStart must be ISO date-times in UTC';
