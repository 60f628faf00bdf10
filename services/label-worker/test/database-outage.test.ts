import { createSandboxCarrier } from '@flatship/carriers';
import { type RestartablePostgres, startRestartablePostgres, waitFor } from '@flatship/kit/testing';
import type { CarrierPort } from '@flatship/orders/worker';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bulkItems, newOrderId, processBulk } from '../../orders/test/bulk-support';
import { user } from '../../orders/test/support';
import { startSweeper } from '../src/sweeper';
import { startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// PostgreSQL is killed here, so this file runs its own: the run's shared one serves every other file.
const PRIORITY_CENTS = 895;
let pg: RestartablePostgres;
let s: WorkerStack;
const crashes: unknown[] = [];
const onCrash = (err: unknown) => void crashes.push(err);

// After the first few labels, purchases wait at a gate: the database dies while they are in the carrier's hands.
const sandbox = createSandboxCarrier();
let bought = 0;
let waiting = 0;
let release!: () => void;
const gate = new Promise<void>((resolve) => {
  release = resolve;
});
const carrier: CarrierPort = {
  async purchaseLabel(req) {
    if (++bought > 5) {
      waiting++;
      await gate;
    }
    return sandbox.purchaseLabel(req);
  },
};

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  pg = await startRestartablePostgres();
  s = await startWorkerStack({ carrier, adminUrl: pg.adminUrl, batchSize: 2 });
}, 60_000);

afterAll(async () => {
  release();
  await s?.close();
  await pg?.stop();
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
});

test('a bulk order in flight when PostgreSQL dies finishes once it is back, every label bought and charged once', async () => {
  // The sweeper runs throughout: its rounds fail while the database is away, and it goes on afterwards.
  let sweeps = 0;
  const sweepFailures: unknown[] = [];
  const { bulk } = s.workerDeps;
  const sweeper = startSweeper(
    {
      ...s.workerDeps,
      bulk: {
        ...bulk,
        leaseStalled: async (...args) => {
          const stalled = await bulk.leaseStalled(...args);
          sweeps++;
          return stalled;
        },
      },
      logger: { info() {}, warn() {}, error: (obj) => void sweepFailures.push(obj) },
    },
    { stallMs: 60_000, intervalMs: 50 },
  );
  const u = user(s);
  await s.setBalance(u.id, 100_000);
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, { orderId, orderData: bulkItems(20) });
  expect(res.statusCode).toBe(202);
  await waitFor('labels waiting at the carrier', () => waiting > 0, 30_000);

  await pg.kill();
  // The carrier answers while the database is away: settling these rows fails, and their events must come again.
  release();
  await waitFor('a sweep to fail', () => sweepFailures.length > 0, 15_000);
  await pg.start();
  const sweepsAtRestart = sweeps;

  const order = await waitForStatus(s, orderId, undefined, 30_000);
  await waitFor('sweeps to succeed again', () => sweeps > sweepsAtRestart + 1, 15_000);
  await sweeper.stop();
  expect(order).toMatchObject({ status: 'completed', total_count: 20, processed_count: 20, failed_count: 0 });
  const rows = await s.db('labels').where({ bulk_order_id: orderId });
  expect(rows.every((r) => r.status === 'completed')).toBe(true);
  expect(new Set(rows.map((r) => r.tracking_number)).size).toBe(20);
  // One charge for the order, no refund: redelivered events bought nothing twice and moved no money.
  const entries = (await s.ledgerEntries(u.id)).filter((e) => e.kind !== 'admin_adjustment');
  expect(entries.map((e) => [e.kind, Number(e.amount_cents)])).toEqual([['label_charge', -20 * PRIORITY_CENTS]]);
  expect(await s.balanceCents(u.id)).toBe(100_000 - 20 * PRIORITY_CENTS);
  expect(crashes).toEqual([]);
}, 60_000);
