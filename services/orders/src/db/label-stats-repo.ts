import type { Knex } from '@flatship/kit';
import { TERMINAL_BULK_STATUSES } from '@flatship/proto';

export interface LabelStatsRow {
  labelsToday: number;
  labelsSinceMonth: number;
  revenueTodayCents: number;
  revenueSinceMonthCents: number;
  /** What the carriers charged the platform for those labels (a label whose carrier did not say counts 0). */
  costTodayCents: number;
  costSinceMonthCents: number;
  runningBulkOrders: number;
  failedToday: number;
  latest: { labelId: string; userId: string; serviceName: string; priceCents: number; createdAt: Date }[];
}

/**
 * Label figures for the admin dashboard; read-only. A label counts when it is
 * completed (bought and paid); a failed label is one cancelled, counted on the
 * day it was cancelled.
 */
export function createLabelStatsRepo(db: Knex) {
  return {
    async read(periods: { dayStart: Date; monthStart: Date }, latestLimit: number): Promise<LabelStatsRow> {
      const { dayStart, monthStart } = periods;
      /** A sum over completed labels bought since `since`, 0 when there are none. */
      const completedSum = (column: string, since: Date, as: string) =>
        db.raw(`coalesce(sum(??) filter (where status = 'completed' and created_at >= ?), 0)::bigint as ??`, [
          column,
          since,
          as,
        ]);
      const [sums] = await db('labels').select(
        db.raw(`(count(*) filter (where status = 'completed' and created_at >= ?))::int as labels_today`, [dayStart]),
        db.raw(`(count(*) filter (where status = 'completed' and created_at >= ?))::int as labels_month`, [monthStart]),
        completedSum('price_cents', dayStart, 'revenue_today'),
        completedSum('price_cents', monthStart, 'revenue_month'),
        completedSum('carrier_cost_cents', dayStart, 'cost_today'),
        completedSum('carrier_cost_cents', monthStart, 'cost_month'),
        db.raw(`(count(*) filter (where status = 'cancelled' and updated_at >= ?))::int as failed_today`, [dayStart]),
      );
      const [bulk] = await db('bulk_orders')
        .whereNotIn('status', TERMINAL_BULK_STATUSES)
        .count<{ count: string }[]>('*');
      const latest = await db('labels')
        .where({ status: 'completed' })
        .select('id', 'user_id', 'service_name', 'price_cents', 'created_at')
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(latestLimit);
      return {
        labelsToday: Number(sums?.labels_today ?? 0),
        labelsSinceMonth: Number(sums?.labels_month ?? 0),
        revenueTodayCents: Number(sums?.revenue_today ?? 0),
        revenueSinceMonthCents: Number(sums?.revenue_month ?? 0),
        costTodayCents: Number(sums?.cost_today ?? 0),
        costSinceMonthCents: Number(sums?.cost_month ?? 0),
        runningBulkOrders: Number(bulk?.count ?? 0),
        failedToday: Number(sums?.failed_today ?? 0),
        latest: latest.map((l) => ({
          labelId: l.id,
          userId: l.user_id,
          serviceName: l.service_name,
          priceCents: Number(l.price_cents),
          createdAt: l.created_at,
        })),
      };
    },
  };
}
export type LabelStatsRepo = ReturnType<typeof createLabelStatsRepo>;
