import { type Static, Type } from 'typebox';
import { ActivationSchema, RoleSchema } from './users';

/**
 * User volume rankings (spec doc 3 §2, §3, §5, §9): which users bought the most labels in a period.
 *
 * Periods are whole UTC days and always end today, except custom:
 * - day: today;
 * - week: the last 7 days, today included;
 * - month (default): the current calendar month, from its 1st to today;
 * - year: the current calendar year, from 1 January to today;
 * - custom: startDate to endDate (YYYY-MM-DD, both required, start ≤ end, both days included, each a real day
 *   from FIRST_CALENDAR_DAY to LAST_CALENDAR_DAY: 2000-01-01 … 2100-12-31).
 *
 * A label counts on the UTC day it was bought; a refunded label no longer counts.
 * averageLabelsPerDay = labelCount / days in the period, to 2 decimals.
 *
 * The `limit` users shown are the top ones by the sort column (labels for `name`, which then orders them by
 * name); ties go to the user who bought first.
 */

export const RANKING_PERIODS = ['day', 'week', 'month', 'year', 'custom'] as const;
export type RankingPeriod = (typeof RANKING_PERIODS)[number];
export const RankingPeriodSchema = Type.Union([
  Type.Literal('day'),
  Type.Literal('week'),
  Type.Literal('month'),
  Type.Literal('year'),
  Type.Literal('custom'),
]);

export const RANKING_LIMITS = [10, 25, 50, 100] as const;
export type RankingLimit = (typeof RANKING_LIMITS)[number];
export const RankingLimitSchema = Type.Union([Type.Literal(10), Type.Literal(25), Type.Literal(50), Type.Literal(100)]);

export const RANKING_SORTS = ['name', 'labels', 'revenue', 'averagePerDay'] as const;
export type RankingSort = (typeof RANKING_SORTS)[number];
export const RankingSortSchema = Type.Union([
  Type.Literal('name'),
  Type.Literal('labels'),
  Type.Literal('revenue'),
  Type.Literal('averagePerDay'),
]);

/** What an absent query part means. */
export const RANKINGS_DEFAULT_QUERY = { period: 'month', limit: 50, sort: 'labels', order: 'desc' } as const;

/** The message of the custom period without both dates (spec doc 3 §5). */
export const RANKINGS_CUSTOM_DATES_MESSAGE = 'Please select both start and end dates for custom period';

/** A calendar day, YYYY-MM-DD. */
export const RankingDateSchema = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** GET /api/admin/user-volume-rankings?period&limit&startDate&endDate&sort&order */
export const RankingsQuerySchema = Type.Object({
  period: Type.Optional(RankingPeriodSchema),
  limit: Type.Optional(RankingLimitSchema),
  startDate: Type.Optional(RankingDateSchema),
  endDate: Type.Optional(RankingDateSchema),
  sort: Type.Optional(RankingSortSchema),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});
export type RankingsQuery = Static<typeof RankingsQuerySchema>;

/** A ranking row (spec doc 3 §3). Revenue in dollars; dates are ISO timestamps of the first and last label. */
export const RankingRowSchema = Type.Object({
  userId: Type.String(),
  /** Empty for a user who no longer exists. */
  userName: Type.String(),
  userEmail: Type.String(),
  userRole: Type.Union([RoleSchema, Type.Null()]),
  activation: Type.Union([ActivationSchema, Type.Null()]),
  labelCount: Type.Integer(),
  totalRevenue: Type.Number(),
  /** What the carriers charged the platform for those labels (0 for labels bought before the cost was kept). */
  totalCost: Type.Number(),
  /** Revenue minus cost. */
  margin: Type.Number(),
  averageLabelsPerDay: Type.Number(),
  firstOrderDate: Type.String(),
  lastOrderDate: Type.String(),
});
export type RankingRow = Static<typeof RankingRowSchema>;

/** Every user of the period, not only those shown. Revenue in dollars. */
export const RankingSummarySchema = Type.Object({
  uniqueUsers: Type.Integer(),
  totalLabels: Type.Integer(),
  totalRevenue: Type.Number(),
  totalCost: Type.Number(),
  margin: Type.Number(),
});
export type RankingSummary = Static<typeof RankingSummarySchema>;

/** Labels and revenue (dollars) of one day of the period, every user; every day of the period is present. */
export const RankingDaySchema = Type.Object({
  date: RankingDateSchema,
  labels: Type.Integer(),
  revenue: Type.Number(),
});
export type RankingDay = Static<typeof RankingDaySchema>;

export const RankingsReplySchema = Type.Object({
  rankings: Type.Array(RankingRowSchema),
  summary: RankingSummarySchema,
  daily: Type.Array(RankingDaySchema),
  /** The days the figures cover, both included. */
  period: Type.Object({ start: RankingDateSchema, end: RankingDateSchema, days: Type.Integer() }),
});
export type RankingsReply = Static<typeof RankingsReplySchema>;
