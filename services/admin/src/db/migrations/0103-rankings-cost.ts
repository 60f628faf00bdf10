import type { Migration } from '@flatship/kit';

/**
 * What the carriers charged the platform for the labels a ranking counts (`label.purchased`'s `carrierCostCents`),
 * beside their revenue, so rankings show cost and margin. A label whose event did not say (bought before the cost
 * was kept) counts 0. The sums' covering indexes include it, so a period is still read from the index alone.
 */
export const addRankingsCost: Migration = {
  name: '0103_rankings_cost',
  async up(db) {
    await db.raw(
      'alter table rankings_label_facts add column cost_cents integer not null default 0 check (cost_cents >= 0)',
    );
    for (const [table, column] of [
      ['rankings_user_days', 'day'],
      ['rankings_user_months', 'month'],
      ['rankings_user_years', 'year'],
    ] as const) {
      await db.raw(`alter table ${table} add column cost_cents bigint not null default 0`);
      await db.raw(`drop index ${table}_cover_idx`);
      await db.raw(
        `create index ${table}_cover_idx on ${table} (${column}) include (user_id, labels, revenue_cents, cost_cents, first_at, last_at)`,
      );
    }
    await db.raw('alter table rankings_days add column cost_cents bigint not null default 0');
  },
};
