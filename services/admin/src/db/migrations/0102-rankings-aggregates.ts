import type { Migration } from '@flatship/kit';

/**
 * What a ranking sums: each user's labels that still count (not refunded) and their revenue per UTC day, per
 * calendar month and per calendar year, and every user's per day (the chart). A period is read as its whole
 * years, then its whole months, then the days at its edges; a period that ends today reads the current month
 * or year row as a whole (nothing is bought after today). So this year or this month reads one row per user,
 * not a million labels. All are derived from `rankings_label_facts` and can be rebuilt from it.
 */
export const createRankingsAggregates: Migration = {
  name: '0102_rankings_aggregates',
  async up(db) {
    for (const [table, column] of [
      ['rankings_user_days', 'day'],
      ['rankings_user_months', 'month'],
      ['rankings_user_years', 'year'],
    ] as const) {
      await db.raw(`
        create table ${table} (
          ${column} date not null,
          user_id text not null,
          labels integer not null,
          revenue_cents bigint not null,
          first_at timestamptz not null,
          last_at timestamptz not null,
          primary key (${column}, user_id)
        )`);
      // Index-only scans over a range of days or months.
      await db.raw(
        `create index ${table}_cover_idx on ${table} (${column}) include (user_id, labels, revenue_cents, first_at, last_at)`,
      );
    }
    await db.raw(`
      create table rankings_days (
        day date primary key,
        labels integer not null,
        revenue_cents bigint not null
      )`);
  },
};
