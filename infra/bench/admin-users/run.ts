import { randomUUID, sign } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ADMIN_SCHEMA, buildApp, createRankingsStore, migrations } from '@flatship/admin';
import { createCarrierSet } from '@flatship/carriers';
import { createCachedTokenState, createDb, createInternalClient, migrate } from '@flatship/kit';
import type { AdminUsersReply, TokenState } from '@flatship/proto';
import pg from 'pg';
// Straight from the files: the testing entry point also brings in vitest, which a plain script cannot load.
import { startThrowawayPostgres } from '../../../services/kit/src/testing/embedded-pg';
import { generateTokenKeys } from '../../../services/kit/src/testing/keys';
import { median } from '../stats';

// How long the admin user table takes to answer with many users: the real admin app and its read model on a
// throw-away PostgreSQL, the table filled with one insert … select generate_series, each query timed through
// HTTP (inject) `runs` times; medians printed.
const { values } = parseArgs({
  options: { users: { type: 'string', default: '100000' }, runs: { type: 'string', default: '7' } },
});
const userCount = Number(values.users);
const runs = Number(values.runs);
if (!(Number.isInteger(userCount) && userCount > 0 && Number.isInteger(runs) && runs > 0)) {
  console.error('usage: run.ts [--users N] [--runs N]');
  process.exit(2);
}

const postgres = await startThrowawayPostgres();
const dbName = `admin_bench_${randomUUID().slice(0, 8)}`;
const maintenance = new pg.Client({ connectionString: postgres.adminUrl });
await maintenance.connect();
await maintenance.query(`create database "${dbName}"`);
await maintenance.end();
const url = new URL(postgres.adminUrl);
url.pathname = `/${dbName}`;
const db = createDb(url.toString(), ADMIN_SCHEMA);
await migrate(db, ADMIN_SCHEMA, migrations);

const filledAt = performance.now();
await db.raw(
  `insert into users_view (id, name, email, role, activation, referral_code, created_at, profile_updated_at,
                           balance_cents, total_deposit_cents, total_spent_cents, money_seq)
   select gen_random_uuid(), 'Customer ' || g, 'customer' || g || '@bench.example',
          (array['user', 'user', 'user', 'friend', 'admin'])[1 + (g % 5)::int], case when g % 17 = 0 then 'block' else 'allow' end,
          'REF' || g, now() - g * interval '1 minute', now(), (g * 7919) % 1000000, (g * 104729) % 5000000, (g * 31) % 200000, g
   from generate_series(1, ?::bigint) g`,
  [userCount],
);
await db.raw('analyze users_view');
const fillSeconds = (performance.now() - filledAt) / 1000;

// The admin who asks; auth's answer for their token state is fixed, since only the table is measured here.
const keys = generateTokenKeys();
const adminState: TokenState = { id: randomUUID(), role: 'admin', activation: 'allow', tokenVersion: 1 };
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const now = Math.floor(Date.now() / 1000);
const unsigned = `${b64({ alg: 'EdDSA', typ: 'JWT' })}.${b64({ sub: adminState.id, role: 'admin', ver: 1, iat: now, exp: now + 3600 })}`;
const token = `${unsigned}.${sign(null, Buffer.from(unsigned), keys.privateKey).toString('base64url')}`;
const unused = createInternalClient({ baseUrl: 'http://127.0.0.1:9', secret: 'benchmark-secret-0123456789' });
const carriers = createCarrierSet('sandbox-usps', { renderThreads: 0 });
const app = await buildApp({
  db,
  logger: false,
  jwtPublicKey: keys.publicKey,
  internalSecret: 'benchmark-secret-0123456789',
  auth: unused,
  payments: unused,
  orders: unused,
  carriers,
  carrierBalanceWarnCents: 100_00,
  rankings: createRankingsStore(db),
  tokenState: createCachedTokenState(async (id) => (id === adminState.id ? adminState : null), 60_000),
});
await app.ready();

const cases: [string, string][] = [
  ['first page, newest first (default)', ''],
  ['page 50 of 100 by name', 'page=50&limit=100&sort=name&order=asc'],
  ['by balance, highest first', 'sort=balance&order=desc&limit=100'],
  ['by total deposit, lowest first', 'sort=totalDeposit&order=asc&limit=100'],
  ['by total spent, page 200', 'sort=totalSpent&order=desc&page=200'],
  ['search a name fragment', 'search=omer 4242'],
  ['search an email fragment', 'search=customer99999@'],
  ['search a referral code', 'search=ref1234'],
  ['search matching almost everyone', 'search=customer&sort=balance&order=desc'],
];

console.log(
  `admin user table: ${userCount.toLocaleString('en-US')} users (filled in ${fillSeconds.toFixed(1)} s), ${runs} runs each, median ms per page`,
);
for (const [label, query] of cases) {
  const times: number[] = [];
  let reply: AdminUsersReply | undefined;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const res = await app.inject({ url: `/api/auth/users?${query}`, headers: { token } });
    times.push(performance.now() - started);
    if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
    reply = res.json();
  }
  console.log(
    `  ${label.padEnd(38)} ${median(times).toFixed(1).padStart(8)} ms   (${reply?.users.length} rows of ${reply?.totalCount.toLocaleString('en-US')} matching)`,
  );
}

await app.close();
await carriers.close();
await db.destroy();
await postgres.stop();
