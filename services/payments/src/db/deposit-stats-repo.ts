import type { Knex } from '@flatship/kit';

export interface DepositStatsRow {
  settledCentsSince: number;
  settledCountSince: number;
  latest: { depositId: string; userId: string; amountCents: number; settledAt: Date }[];
}

/** Settled deposits for the admin dashboard; read-only. A deposit counts when it settled, not when it was opened. */
export function createDepositStatsRepo(db: Knex) {
  const settled = () => db('deposits').where({ status: 'Settled' }).whereNotNull('settled_at');
  return {
    async read(since: Date, latestLimit: number): Promise<DepositStatsRow> {
      const [sums] = await settled()
        .where('settled_at', '>=', since)
        .select(db.raw('coalesce(sum(amount_cents), 0)::bigint as cents'), db.raw('count(*)::int as count'));
      const latest = await settled()
        .select('id', 'user_id', 'amount_cents', 'settled_at')
        .orderBy([
          { column: 'settled_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(latestLimit);
      return {
        settledCentsSince: Number(sums?.cents ?? 0),
        settledCountSince: Number(sums?.count ?? 0),
        latest: latest.map((d) => ({
          depositId: d.id,
          userId: d.user_id,
          amountCents: Number(d.amount_cents),
          settledAt: d.settled_at,
        })),
      };
    },
  };
}
export type DepositStatsRepo = ReturnType<typeof createDepositStatsRepo>;
