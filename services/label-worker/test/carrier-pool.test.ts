import { createCarrierPool, createSandboxCarrier, type LabelRequest } from '@flatship/carriers';
import { type BulkWorkerDeps, processBulkLabels } from '@flatship/orders/worker';
import type { LabelRequestedEvent } from '@flatship/proto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bulkItems, newOrderId, processBulk } from '../../orders/test/bulk-support';
import { user } from '../../orders/test/support';
import { startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// Batches larger than the carrier pool: the pool bounds what is at the carrier, the batch still settles whole.
const PRIORITY_CENTS = 895;
const sandbox = createSandboxCarrier({ latencyMs: 15 });
const seen = { inFlight: 0, maxInFlight: 0, keys: [] as string[] };
/** The sandbox carrier, watched at the carrier port. */
const carrierPort = {
  async purchaseLabel(req: LabelRequest) {
    seen.keys.push(req.idempotencyKey);
    seen.maxInFlight = Math.max(seen.maxInFlight, ++seen.inFlight);
    try {
      return await sandbox.purchaseLabel(req);
    } finally {
      seen.inFlight--;
    }
  },
};
const pool = createCarrierPool(carrierPort, { concurrency: 3 });

let s: WorkerStack;
beforeAll(async () => {
  s = await startWorkerStack({ carrier: pool, startWorker: false, batchSize: 60 });
});
afterAll(async () => {
  await s.close();
  await sandbox.close();
});

async function submitted(count: number) {
  const u = user(s);
  await s.setBalance(u.id, 100_000);
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, { orderId, orderData: bulkItems(count) });
  expect(res.statusCode).toBe(202);
  const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  const events: LabelRequestedEvent[] = rows.map((r) => ({
    labelId: r.id,
    bulkOrderId: orderId,
    userId: r.user_id,
    attempt: r.attempt,
  }));
  return { u, orderId, events };
}

const ledgerSum = async (userId: string) =>
  (await s.ledgerEntries(userId)).reduce((acc, e) => acc + Number(e.amount_cents), 0);

test('a batch of 40 rows through a pool of 3 buys each row exactly once, never more than 3 at a time, and settles the order', async () => {
  seen.keys.length = 0;
  seen.maxInFlight = 0;
  const { u, orderId, events } = await submitted(40);
  const deps: BulkWorkerDeps = s.workerDeps;

  await processBulkLabels(deps, events);

  expect(seen.maxInFlight).toBe(3);
  // The carrier key of a row's first attempt is its label id: one purchase per row.
  expect([...seen.keys].sort()).toEqual(events.map((e) => e.labelId).sort());
  const rows = await s.db('labels').where({ bulk_order_id: orderId });
  expect(rows.map((r) => r.status)).toEqual(Array(40).fill('completed'));
  expect(new Set(rows.map((r) => r.tracking_number)).size).toBe(40);
  expect(await waitForStatus(s, orderId)).toMatchObject({ status: 'completed', processed_count: 40, failed_count: 0 });
  expect(await s.balanceCents(u.id)).toBe(100_000 - 40 * PRIORITY_CENTS);
  expect(await ledgerSum(u.id)).toBe(100_000 - 40 * PRIORITY_CENTS);

  // The same batch again (redelivered before its offset was committed) buys nothing and moves no money.
  await processBulkLabels(deps, events);
  expect(seen.keys).toHaveLength(40);
  expect(await s.balanceCents(u.id)).toBe(100_000 - 40 * PRIORITY_CENTS);
});

test('the consumer, taking batches larger than the pool from several partitions, completes an order with every row bought once', async () => {
  seen.keys.length = 0;
  seen.maxInFlight = 0;
  const { u, orderId, events } = await submitted(90);
  // Every row is waiting before the worker starts, so its batches take many rows each.
  await s.outbox.flush();
  await s.startWorker();

  expect(await waitForStatus(s, orderId)).toMatchObject({ status: 'completed', processed_count: 90, failed_count: 0 });
  expect(seen.maxInFlight).toBe(3);
  expect([...seen.keys].sort()).toEqual(events.map((e) => e.labelId).sort());
  expect(await s.balanceCents(u.id)).toBe(100_000 - 90 * PRIORITY_CENTS);
  expect(await ledgerSum(u.id)).toBe(100_000 - 90 * PRIORITY_CENTS);
  const ledger = await s.ledgerEntries(u.id);
  expect(ledger.filter((e) => e.kind === 'label_refund')).toEqual([]);
});
