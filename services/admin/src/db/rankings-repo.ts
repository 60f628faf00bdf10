import type { Knex } from '@flatship/kit';
import type { RankingsStore, RankingTotals, RankingUserFigures, RankingWindow } from '../domain/rankings/ports';

// The rankings read model (migrations 0101, 0102): label facts, and their sums per user per day, per user per
// month and per day.

interface DayRow {
  user_id: string;
  day: string;
  labels: number;
  revenue_cents: string | number;
  cost_cents: string | number;
}

const key = (userId: string, day: string) => `${userId}|${day}`;
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
const yearOf = (day: string) => `${day.slice(0, 4)}-01-01`;

export function createRankingsStore(db: Knex): RankingsStore {
  return {
    async record(facts) {
      if (facts.length === 0) return;
      await db.transaction(async (trx) => {
        // One user's sums are rebuilt by one transaction at a time (a purchase and its refund arrive on two topics).
        const users = [...new Set(facts.map((f) => f.userId))].sort();
        for (const u of users) await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`rankings:${u}`]);

        const touched = new Map<string, { userId: string; day: string }>();
        for (const fact of facts) {
          const rows: { day: string | null }[] =
            fact.kind === 'purchased'
              ? (
                  await trx.raw(
                    `insert into rankings_label_facts (label_id, user_id, price_cents, cost_cents, purchased_at, day)
                     values (?, ?, ?, ?, ?, (?::timestamptz at time zone 'UTC')::date)
                     on conflict (label_id) do update
                       set purchased_at = excluded.purchased_at, day = excluded.day, price_cents = excluded.price_cents,
                           cost_cents = excluded.cost_cents
                     returning to_char(day, 'YYYY-MM-DD') as day`,
                    [fact.labelId, fact.userId, fact.priceCents, fact.costCents ?? 0, fact.at, fact.at],
                  )
                ).rows
              : (
                  await trx.raw(
                    `insert into rankings_label_facts (label_id, user_id, price_cents, refunded_at)
                     values (?, ?, ?, ?)
                     on conflict (label_id) do update
                       set refunded_at = coalesce(rankings_label_facts.refunded_at, excluded.refunded_at)
                     returning to_char(day, 'YYYY-MM-DD') as day`,
                    [fact.labelId, fact.userId, fact.priceCents, fact.at],
                  )
                ).rows;
          const day = rows[0]?.day;
          if (day) touched.set(key(fact.userId, day), { userId: fact.userId, day });
        }
        if (touched.size > 0) await rebuildUserDays(trx, [...touched.values()]);
      });
    },

    async figures(window, opts) {
      const order = opts.order === 'asc' ? 'asc' : 'desc';
      const sortColumn = { labels: 'labels', revenue: 'revenue_cents', name: 'labels' }[opts.by];
      const cover = coverWindow(window);
      const parts: string[] = [];
      const bindings: string[] = [];
      for (const [level, table, column] of LEVELS) {
        for (const [from, to] of cover[level]) {
          parts.push(
            `select user_id, labels, revenue_cents, cost_cents, first_at, last_at from ${table} where ${column} >= ?::date and ${column} < ?::date`,
          );
          bindings.push(from, to);
        }
      }
      const { rows } = await db.raw(
        `with per_user as (
           select user_id, sum(labels)::bigint as labels, sum(revenue_cents)::bigint as revenue_cents,
                  sum(cost_cents)::bigint as cost_cents, min(first_at) as first_at, max(last_at) as last_at
             from (${parts.join(' union all ')}) as parts group by user_id
         )
         select user_id, labels, revenue_cents, cost_cents, first_at, last_at,
                count(*) over () as unique_users,
                sum(labels) over () as total_labels,
                sum(revenue_cents) over () as total_revenue_cents,
                sum(cost_cents) over () as total_cost_cents
           from per_user
          order by ${sortColumn} ${order}, first_at asc, user_id asc
          limit ?`,
        [...bindings, opts.limit],
      );
      const first = rows[0];
      const totals: RankingTotals = first
        ? {
            uniqueUsers: Number(first.unique_users),
            totalLabels: Number(first.total_labels),
            totalRevenueCents: Number(first.total_revenue_cents),
            totalCostCents: Number(first.total_cost_cents),
          }
        : { uniqueUsers: 0, totalLabels: 0, totalRevenueCents: 0, totalCostCents: 0 };
      const users: RankingUserFigures[] = rows.map(
        (r: {
          user_id: string;
          labels: string;
          revenue_cents: string;
          cost_cents: string;
          first_at: Date;
          last_at: Date;
        }) => ({
          userId: r.user_id,
          labels: Number(r.labels),
          revenueCents: Number(r.revenue_cents),
          costCents: Number(r.cost_cents),
          firstAt: r.first_at,
          lastAt: r.last_at,
        }),
      );
      return { users, totals };
    },

    async days(window) {
      const { rows } = await db.raw(
        `select to_char(day, 'YYYY-MM-DD') as day, labels, revenue_cents from rankings_days
          where day >= ?::date and day <= ?::date and labels > 0 order by day`,
        [window.start, window.end],
      );
      return rows.map((r: { day: string; labels: number; revenue_cents: string }) => ({
        day: r.day,
        labels: Number(r.labels),
        revenueCents: Number(r.revenue_cents),
      }));
    },
  };
}

const LEVELS = [
  ['years', 'rankings_user_years', 'year'],
  ['months', 'rankings_user_months', 'month'],
  ['days', 'rankings_user_days', 'day'],
] as const;

type Range = [from: string, to: string];

/**
 * The window as half-open ranges of whole calendar years, whole calendar months and single days that cover it
 * exactly, preferring the largest. A window with an open end (it ends today) may take its last month or year
 * whole, since nothing is bought after today.
 */
export function coverWindow(window: RankingWindow): { years: Range[]; months: Range[]; days: Range[] } {
  const DAY = 86_400_000;
  const iso = (d: number) => new Date(d).toISOString().slice(0, 10);
  const yearStart = (t: number) => Date.UTC(new Date(t).getUTCFullYear(), 0, 1);
  const monthStart = (t: number) => Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth(), 1);
  const nextYear = (t: number) => Date.UTC(new Date(t).getUTCFullYear() + 1, 0, 1);
  const nextMonth = (t: number) => Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth() + 1, 1);
  const ceilYear = (t: number) => (yearStart(t) === t ? t : nextYear(t));
  const ceilMonth = (t: number) => (monthStart(t) === t ? t : nextMonth(t));

  const out = { years: [] as Range[], months: [] as Range[], days: [] as Range[] };
  const start = Date.parse(`${window.start}T00:00:00Z`);
  const end = Date.parse(`${window.end}T00:00:00Z`) + DAY;
  const open = window.openEnd === true;

  // Whole months, then single days, of a segment [a, b).
  const monthsAndDays = (a: number, b: number, openEnd: boolean) => {
    if (a >= b) return;
    const m0 = ceilMonth(a);
    const m1 = openEnd ? ceilMonth(b) : monthStart(b);
    if (m0 < m1) {
      out.months.push([iso(m0), iso(m1)]);
      if (a < m0) out.days.push([iso(a), iso(m0)]);
      if (m1 < b) out.days.push([iso(m1), iso(b)]);
    } else {
      out.days.push([iso(a), iso(b)]);
    }
  };
  const y0 = ceilYear(start);
  const y1 = open ? ceilYear(end) : yearStart(end);
  if (y0 < y1) {
    out.years.push([iso(y0), iso(y1)]);
    monthsAndDays(start, y0, false);
    monthsAndDays(y1, end, false);
  } else {
    monthsAndDays(start, end, open);
  }
  return out;
}

/** Recomputes the given users' days from their facts, moves the change into the day totals, and redoes their months. */
async function rebuildUserDays(trx: Knex.Transaction, pairs: { userId: string; day: string }[]): Promise<void> {
  const userIds = pairs.map((p) => p.userId);
  const days = pairs.map((p) => p.day);
  const before: DayRow[] = (
    await trx.raw(
      `select d.user_id, to_char(d.day, 'YYYY-MM-DD') as day, d.labels, d.revenue_cents, d.cost_cents
         from rankings_user_days d join unnest(?::text[], ?::date[]) as p(user_id, day)
           on d.user_id = p.user_id and d.day = p.day`,
      [userIds, days],
    )
  ).rows;
  await trx.raw(
    `delete from rankings_user_days d using unnest(?::text[], ?::date[]) as p(user_id, day)
      where d.user_id = p.user_id and d.day = p.day`,
    [userIds, days],
  );
  const after: DayRow[] = (
    await trx.raw(
      `insert into rankings_user_days (day, user_id, labels, revenue_cents, cost_cents, first_at, last_at)
       select f.day, f.user_id, count(*), sum(f.price_cents), sum(f.cost_cents), min(f.purchased_at), max(f.purchased_at)
         from rankings_label_facts f join unnest(?::text[], ?::date[]) as p(user_id, day)
           on f.user_id = p.user_id and f.day = p.day
        where f.refunded_at is null
        group by f.day, f.user_id
       returning user_id, to_char(day, 'YYYY-MM-DD') as day, labels, revenue_cents, cost_cents`,
      [userIds, days],
    )
  ).rows;

  const delta = new Map<string, { labels: number; cents: number; cost: number }>();
  const add = (row: DayRow, sign: 1 | -1) => {
    const d = delta.get(row.day) ?? { labels: 0, cents: 0, cost: 0 };
    d.labels += sign * Number(row.labels);
    d.cents += sign * Number(row.revenue_cents);
    d.cost += sign * Number(row.cost_cents);
    delta.set(row.day, d);
  };
  for (const row of before) add(row, -1);
  for (const row of after) add(row, 1);
  const changed = [...delta.entries()].filter(([, d]) => d.labels !== 0 || d.cents !== 0 || d.cost !== 0).sort();
  if (changed.length > 0) {
    await trx.raw(
      `insert into rankings_days (day, labels, revenue_cents, cost_cents)
       select * from unnest(?::date[], ?::int[], ?::bigint[], ?::bigint[])
       on conflict (day) do update
         set labels = rankings_days.labels + excluded.labels,
             revenue_cents = rankings_days.revenue_cents + excluded.revenue_cents,
             cost_cents = rankings_days.cost_cents + excluded.cost_cents`,
      [
        changed.map(([day]) => day),
        changed.map(([, d]) => d.labels),
        changed.map(([, d]) => d.cents),
        changed.map(([, d]) => d.cost),
      ],
    );
  }

  await rollUp(trx, pairs, MONTHS);
  await rollUp(trx, pairs, YEARS);
}

/** A level of sums built from the one below it: months from user days, years from user months. */
interface RollUpLevel {
  table: string;
  column: string;
  bucketOf: (day: string) => string;
  source: string;
  sourceColumn: string;
  span: string;
}
const MONTHS: RollUpLevel = {
  table: 'rankings_user_months',
  column: 'month',
  bucketOf: monthOf,
  source: 'rankings_user_days',
  sourceColumn: 'day',
  span: '1 month',
};
const YEARS: RollUpLevel = {
  table: 'rankings_user_years',
  column: 'year',
  bucketOf: yearOf,
  source: 'rankings_user_months',
  sourceColumn: 'month',
  span: '1 year',
};

/** Recomputes the touched users' rows of `level` (a month or year holding one of their changed days). */
async function rollUp(trx: Knex.Transaction, pairs: { userId: string; day: string }[], level: RollUpLevel) {
  const buckets = new Map<string, { userId: string; bucket: string }>();
  for (const p of pairs) {
    const bucket = level.bucketOf(p.day);
    buckets.set(key(p.userId, bucket), { userId: p.userId, bucket });
  }
  const userIds = [...buckets.values()].map((b) => b.userId);
  const starts = [...buckets.values()].map((b) => b.bucket);
  const { table, column, source, sourceColumn, span } = level;
  await trx.raw(
    `delete from ${table} t using unnest(?::text[], ?::date[]) as p(user_id, bucket)
      where t.user_id = p.user_id and t.${column} = p.bucket`,
    [userIds, starts],
  );
  await trx.raw(
    `insert into ${table} (${column}, user_id, labels, revenue_cents, cost_cents, first_at, last_at)
     select p.bucket, s.user_id, sum(s.labels), sum(s.revenue_cents), sum(s.cost_cents), min(s.first_at), max(s.last_at)
       from ${source} s join unnest(?::text[], ?::date[]) as p(user_id, bucket)
         on s.user_id = p.user_id and s.${sourceColumn} >= p.bucket and s.${sourceColumn} < p.bucket + interval '${span}'
      group by p.bucket, s.user_id`,
    [userIds, starts],
  );
}

/** Rebuilds every sum from the label facts, e.g. after facts were loaded in bulk. */
export async function rebuildRankings(db: Knex): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('truncate rankings_user_days, rankings_user_months, rankings_user_years, rankings_days');
    await trx.raw(`
      insert into rankings_user_days (day, user_id, labels, revenue_cents, cost_cents, first_at, last_at)
      select day, user_id, count(*), sum(price_cents), sum(cost_cents), min(purchased_at), max(purchased_at)
        from rankings_label_facts where day is not null and refunded_at is null group by day, user_id`);
    await trx.raw(`
      insert into rankings_user_months (month, user_id, labels, revenue_cents, cost_cents, first_at, last_at)
      select date_trunc('month', day)::date, user_id, sum(labels), sum(revenue_cents), sum(cost_cents), min(first_at), max(last_at)
        from rankings_user_days group by 1, 2`);
    await trx.raw(`
      insert into rankings_user_years (year, user_id, labels, revenue_cents, cost_cents, first_at, last_at)
      select date_trunc('year', month)::date, user_id, sum(labels), sum(revenue_cents), sum(cost_cents), min(first_at), max(last_at)
        from rankings_user_months group by 1, 2`);
    await trx.raw(`
      insert into rankings_days (day, labels, revenue_cents, cost_cents)
      select day, sum(labels), sum(revenue_cents), sum(cost_cents) from rankings_user_days group by day`);
  });
  await db.raw('analyze rankings_user_days, rankings_user_months, rankings_user_years, rankings_days');
}
