import { randomUUID } from 'node:crypto';
import { type RestartablePostgres, startRestartablePostgres, waitFor } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startDepositReconciler } from '../src/jobs/deposit-reconciler';
import {
  balanceOf,
  creditDeposit,
  entriesOf,
  internal,
  ledgerSum,
  startTestPayments,
  type TestPayments,
} from './support';

// PostgreSQL is killed here, so this file runs its own: the run's shared one serves every other file.
let pg: RestartablePostgres;
let t: TestPayments;
const crashes: unknown[] = [];
const onCrash = (err: unknown) => void crashes.push(err);

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  pg = await startRestartablePostgres();
  t = await startTestPayments({ adminUrl: pg.adminUrl });
});

afterAll(async () => {
  await t?.close();
  await pg?.stop();
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
});

const readyz = async () => (await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode;

test('while PostgreSQL is down the service answers 503 at once, and after it is back it carries on with the ledger exact', async () => {
  // A periodic job on the same database: its rounds fail while the database is away, and it goes on afterwards.
  let rounds = 0;
  const roundFailures: unknown[] = [];
  const job = startDepositReconciler({
    intervalMs: 50,
    logger: { info() {}, warn() {}, error: (obj) => void roundFailures.push(obj) },
    run: async () => {
      await t.db.raw('select 1');
      rounds++;
      return { checked: 0, failed: 0, outcomes: {} };
    },
  });
  const userId = randomUUID();
  await creditDeposit(t, userId, 100_000);
  expect(await readyz()).toBe(200);

  // Charges keep coming from several callers while the database dies and comes back. Like orders, each caller
  // repeats a charge with the same key until it gets an answer; 503 is the only failure allowed.
  const answers = new Map<number, number>();
  const charged: string[] = [];
  let running = true;
  const caller = async () => {
    while (running) {
      const key = `charge-${randomUUID()}`;
      for (;;) {
        const res = await internal(t.app, 'POST', '/internal/ledger/charge', { userId, amountCents: 100, key });
        answers.set(res.statusCode, (answers.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode === 200) {
          charged.push(key);
          break;
        }
        expect(res.statusCode).toBe(503);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const callers = Array.from({ length: 4 }, caller);
  try {
    await waitFor('some charges before the outage', () => charged.length >= 10);

    await pg.kill();
    await waitFor('/readyz to answer 503', async () => (await readyz()) === 503, 15_000);
    // Answered on the refused connection, not after waiting out the pool: 503 and no more.
    const during = await internal(t.app, 'POST', '/internal/accounts/summaries', { userIds: [userId] });
    expect(during.statusCode).toBe(503);
    expect(during.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'This part of Flatship is not available right now. Please try again later.',
    });

    const chargedBefore = charged.length;
    await waitFor('a reconciler round to fail', () => roundFailures.length > 0, 15_000);
    await pg.start();
    const roundsAtRestart = rounds;
    await waitFor('/readyz to answer 200 again', async () => (await readyz()) === 200, 15_000);
    await waitFor('charges after the outage', () => charged.length >= chargedBefore + 10, 15_000);
    await waitFor('reconciler rounds to succeed again', () => rounds > roundsAtRestart + 1, 15_000);
  } finally {
    running = false;
    await Promise.all(callers);
    await job.stop();
  }

  expect(answers.get(503)).toBeGreaterThan(0);
  expect([...answers.keys()].sort()).toEqual([200, 503]);
  // Every charge that was answered moved money exactly once, however often it was sent; none that was not.
  const charges = (await entriesOf(t.db, userId)).filter((e) => e.kind === 'label_charge');
  expect(charges.map((e) => e.idempotency_key).sort()).toEqual([...charged].sort());
  expect(await balanceOf(t.db, userId)).toBe(100_000 - 100 * charged.length);
  expect(await ledgerSum(t.db, userId)).toBe(100_000 - 100 * charged.length);

  const after = await internal(t.app, 'POST', '/internal/accounts/summaries', { userIds: [userId] });
  expect(after.statusCode).toBe(200);
  expect(after.json().summaries[0]).toMatchObject({ userId, balance: (100_000 - 100 * charged.length) / 100 });
  expect(crashes).toEqual([]);
}, 60_000);
