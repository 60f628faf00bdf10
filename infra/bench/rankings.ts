// User volume rankings benchmark: 1,000,000 labels of ~5,000 users over the last 365 days in the admin
// service's read model (inserted by SQL, sums rebuilt the way the service keeps them), then the median time of
// the month and year rankings through the domain function the route calls. Target: under 50 ms each.
//
//   node --import tsx infra/bench/rankings.ts [--labels 1000000] [--users 5000] [--runs 7]
//
// A missed target is a measurement, not an error: the exit code is non-zero only when the benchmark could not run.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createDb, migrate } from '@flatship/kit';
import { createTestDatabase, startThrowawayPostgres } from '@flatship/kit/testing';
import type { InternalUser, RankingPeriod } from '@flatship/proto';
import { ADMIN_SCHEMA, migrations } from '../../services/admin/src/db/migrations';
import { createRankingsStore, rebuildRankings } from '../../services/admin/src/db/rankings-repo';
import { getRankings } from '../../services/admin/src/domain/rankings/get-rankings';
import { median } from './stats';

const TARGET_MS = 50;
const { values: args } = parseArgs({
  options: {
    labels: { type: 'string', default: '1000000' },
    users: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '7' },
  },
});
const labels = Number(args.labels);
const users = Number(args.users);
const runs = Number(args.runs);
for (const [name, v] of [
  ['labels', labels],
  ['users', users],
  ['runs', runs],
] as const) {
  if (!(Number.isInteger(v) && v >= 1)) throw new Error(`--${name} must be a whole number ≥ 1`);
}

const log = (line: string) => process.stderr.write(`${line}\n`);

const pg = await startThrowawayPostgres();
const tdb = await createTestDatabase('rankings_bench', pg.adminUrl);
const db = createDb(tdb.url, ADMIN_SCHEMA);
try {
  await migrate(db, ADMIN_SCHEMA, migrations);
  let t = performance.now();
  // Skewed towards low user numbers, as real volume is: a few heavy shippers and a long tail.
  await db.raw(
    `insert into rankings_label_facts (label_id, user_id, price_cents, purchased_at, day)
     select md5('label-' || i)::uuid::text, user_id, 300 + ((i::bigint * 7919) % 2700)::int, at, (at at time zone 'UTC')::date
       from (
         select i,
                md5('user-' || floor(? * power(random(), 2))::int)::uuid::text as user_id,
                now() - random() * interval '365 days' as at
           from generate_series(1, ?) as i
       ) as g`,
    [users, labels],
  );
  log(`inserted ${labels.toLocaleString('en-US')} labels in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  await rebuildRankings(db);
  const counts = await db.raw(
    `select (select count(*) from rankings_user_days) as days, (select count(*) from rankings_user_months) as months,
            (select count(distinct user_id) from rankings_user_months) as users`,
  );
  const c = counts.rows[0];
  log(
    `sums rebuilt in ${((performance.now() - t) / 1000).toFixed(1)} s: ${c.users} users, ${c.days} user-days, ${c.months} user-months`,
  );

  // Names come from auth for the rows shown; here they answer at once, so the figure is the read model's.
  const directory = {
    get: async (userId: string): Promise<InternalUser> => ({
      _id: userId,
      name: `User ${userId.slice(0, 6)}`,
      email: `${userId.slice(0, 6)}@example.com`,
      avatar: '',
      user_role: 'user',
      activation: 'allow',
      referralCode: '',
      referredBy: null,
      createdAt: new Date(0).toISOString(),
    }),
  };
  const deps = { rankings: createRankingsStore(db), users: directory };
  const results: { period: RankingPeriod; limit: 50 | 100; ms: number; users: number; labels: number }[] = [];
  for (const period of ['month', 'year'] as const) {
    for (const limit of [50, 100] as const) {
      const times: number[] = [];
      let summary = { uniqueUsers: 0, totalLabels: 0 };
      // One warm-up run, then the measured ones.
      await getRankings(deps, { period, limit }, { requestId: 'bench' });
      for (let r = 0; r < runs; r++) {
        const start = performance.now();
        const reply = await getRankings(deps, { period, limit, sort: 'revenue' }, { requestId: 'bench' });
        times.push(performance.now() - start);
        summary = reply.summary;
      }
      results.push({ period, limit, ms: median(times), users: summary.uniqueUsers, labels: summary.totalLabels });
    }
  }

  console.log(`\nuser volume rankings, ${labels.toLocaleString('en-US')} labels, median of ${runs} runs`);
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const r of results) {
    const verdict = r.ms < TARGET_MS ? 'met' : 'MISSED';
    console.log(
      `  ${r.period.padEnd(5)} limit ${String(r.limit).padStart(3)}: ${r.ms.toFixed(1).padStart(6)} ms` +
        ` (${r.users} users, ${r.labels.toLocaleString('en-US')} labels) target < ${TARGET_MS} ms ${verdict}`,
    );
  }
} finally {
  await db.destroy();
  await tdb.drop();
  await pg.stop();
}
