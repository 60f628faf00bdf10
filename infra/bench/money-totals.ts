// Money read benchmark: one user with 10,000 ledger entries (deposits, label charges, refunds, admin
// adjustments), then the median time of the read behind GET /api/auth/verify's balance / totalDeposit /
// totalSpent (payments' getMoneySummaries, what POST /internal/accounts/summaries answers with) and of one
// more ledger entry appended with its `account.changed` event. Given --baseline <checkout>, the same is
// measured on that checkout's payments code in the same run, reads interleaved round by round.
//
//   node --import tsx infra/bench/money-totals.ts [--entries 10000] [--reads 300] [--appends 50] [--baseline /work/main]
//
// Prints figures; the exit code is non-zero only when the benchmark could not run.
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, createTransactor, type Knex, migrate } from '@flatship/kit';
import { createOutbox, createPostgresBus, migrateBus } from '@flatship/kit/bus';
import { createTestDatabase, startThrowawayPostgres } from '@flatship/kit/testing';
import { median } from './stats';

const { values: args } = parseArgs({
  options: {
    entries: { type: 'string', default: '10000' },
    reads: { type: 'string', default: '300' },
    appends: { type: 'string', default: '50' },
    baseline: { type: 'string' },
  },
});
const entries = Number(args.entries);
const reads = Number(args.reads);
const appends = Number(args.appends);
for (const [name, v] of [
  ['entries', entries],
  ['reads', reads],
  ['appends', appends],
] as const) {
  if (!(Number.isInteger(v) && v >= 1)) throw new Error(`--${name} must be a whole number ≥ 1`);
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

// The payments code of a checkout: this one, or the baseline's.
async function load(root: string) {
  const src = resolve(root, 'services/payments/src');
  const [mig, repo, summaries, move] = await Promise.all([
    import(`${src}/db/migrations/index.ts`),
    import(`${src}/db/ledger-repo.ts`),
    import(`${src}/domain/get-money-summaries.ts`),
    import(`${src}/domain/move-money.ts`),
  ]);
  return {
    migrations: mig.migrations,
    schema: mig.PAYMENTS_SCHEMA as string,
    createLedgerRepo:
      repo.createLedgerRepo as typeof import('../../services/payments/src/db/ledger-repo').createLedgerRepo,
    getMoneySummaries:
      summaries.getMoneySummaries as typeof import('../../services/payments/src/domain/get-money-summaries').getMoneySummaries,
    moveMoney: move.moveMoney as typeof import('../../services/payments/src/domain/move-money').moveMoney,
  };
}

type Code = Awaited<ReturnType<typeof load>>;

interface Side {
  name: string;
  code: Code;
  db: Knex;
  userId: string;
  drop(): Promise<void>;
  readMs: number[];
  appendMs: number[];
}

const ADMIN_ID = randomUUID();

/** The i-th entry of a seller's history: deposits, mostly label charges, some refunds and admin adjustments. */
function planEntry(i: number, userId: string, balance: number) {
  const slot = i % 20;
  if (slot === 0 || balance < 1000) {
    return { userId, kind: 'deposit' as const, amountCents: 50_000, key: `d-${i}`, reference: `inv-${i}` };
  }
  if (slot === 7) {
    return { userId, kind: 'label_refund' as const, amountCents: 700, key: `r-${i}`, reference: `c-${i - 1}` };
  }
  if (slot === 13) {
    return { userId, kind: 'admin_adjustment' as const, amountCents: -100, key: `a-${i}`, adminId: ADMIN_ID };
  }
  return { userId, kind: 'label_charge' as const, amountCents: -700, key: `c-${i}`, reference: `label-${i}` };
}

async function setUp(name: string, code: Code, adminUrl: string): Promise<Side> {
  const tdb = await createTestDatabase('money_bench', adminUrl);
  const db = createDb(tdb.url, code.schema, { max: 4 });
  await migrate(db, code.schema, code.migrations);
  const userId = randomUUID();
  // Seeded without the outbox: the history is what matters here, not its events.
  const ledger = code.createLedgerRepo(db);
  const transactor = createTransactor(db);
  const t = performance.now();
  for (let from = 0; from < entries; from += 500) {
    await transactor.run(async (tx) => {
      let balance = await ledger.lockAccount(userId, tx);
      for (let i = from; i < Math.min(entries, from + 500); i++) {
        const e = planEntry(i, userId, balance);
        balance += e.amountCents;
        const r = await ledger.append({ ...e, balanceAfterCents: balance }, tx);
        if (!r.ok) throw new Error(`seed entry ${i} was refused`);
      }
    });
  }
  log(`${name}: ${entries} entries seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const drop = async () => {
    await db.destroy();
    await tdb.drop();
  };
  return { name, code, db, userId, drop, readMs: [], appendMs: [] };
}

const pg = await startThrowawayPostgres();
const sides: Side[] = [];
try {
  if (args.baseline) sides.push(await setUp('baseline', await load(args.baseline), pg.adminUrl));
  sides.push(await setUp('this checkout', await load(resolve(import.meta.dirname, '../..')), pg.adminUrl));

  // Warm up, then interleave the sides round by round so load on the machine hits both alike.
  for (const s of sides)
    for (let i = 0; i < 20; i++) await s.code.getMoneySummaries({ ledger: s.code.createLedgerRepo(s.db) }, [s.userId]);
  const summaries = new Map<string, unknown>();
  for (let r = 0; r < reads; r++) {
    for (const s of sides) {
      const ledger = s.code.createLedgerRepo(s.db);
      const t = performance.now();
      const [m] = await s.code.getMoneySummaries({ ledger }, [s.userId]);
      s.readMs.push(performance.now() - t);
      const { userId: _u, seq: _s, ...money } = m as { userId: string; seq?: number };
      summaries.set(s.name, money);
    }
  }

  // One more entry each time, with the account.changed event the service records alongside it.
  for (const s of sides) await migrateBus(s.db, 'bus');
  for (let r = 0; r < appends; r++) {
    for (const s of sides) {
      const bus = createPostgresBus({ db: s.db, schema: 'bus' });
      const deps = {
        ledger: s.code.createLedgerRepo(s.db, createOutbox({ db: s.db, schema: s.code.schema, bus })),
        transactor: createTransactor(s.db),
      };
      const key = `bench-charge-${r}`;
      const t = performance.now();
      await s.code.moveMoney(deps, {
        userId: s.userId,
        key,
        isSameMovement: () => true,
        plan: async (balance) => ({
          userId: s.userId,
          kind: 'label_charge',
          amountCents: -1,
          balanceAfterCents: balance - 1,
          key,
          reference: `bench-label-${r}`,
        }),
      });
      s.appendMs.push(performance.now() - t);
      await bus.close();
    }
  }

  const [l1, l5] = loadavg();
  console.log(
    `money read of one user with ${entries} ledger entries; load average ${l1?.toFixed(2)} / ${l5?.toFixed(2)}`,
  );
  for (const s of sides) {
    console.log(
      `  ${s.name.padEnd(14)} read median ${median(s.readMs).toFixed(2)} ms, p90 ${pct(s.readMs, 0.9)?.toFixed(2)} ms (${reads} reads);` +
        ` append + account.changed median ${median(s.appendMs).toFixed(2)} ms (${appends})`,
    );
    console.log(`  ${''.padEnd(14)} answer ${JSON.stringify(summaries.get(s.name))}`);
  }
  if (sides.length === 2) {
    const [b, a] = sides as [Side, Side];
    console.log(
      `  read ${(median(b.readMs) / median(a.readMs)).toFixed(1)}× faster, append ${(median(b.appendMs) / median(a.appendMs)).toFixed(1)}× faster than the baseline`,
    );
  }
} finally {
  for (const s of sides) await s.drop().catch(() => {});
  await pg.stop();
}
