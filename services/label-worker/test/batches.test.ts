import { randomUUID } from 'node:crypto';
import { AppError } from '@flatship/kit';
import { type BulkWorkerDeps, processBulkLabels } from '@flatship/orders/worker';
import type { LabelRequestedEvent } from '@flatship/proto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bulkItems, newOrderId, processBulk } from '../../orders/test/bulk-support';
import { type TestUser, user } from '../../orders/test/support';
import { startWorkerStack, type WorkerStack } from './harness';

// The batch use case driven directly (no consumer running), so each delivery of a batch is one call.
const PRIORITY_CENTS = 895;

let s: WorkerStack;
beforeAll(async () => {
  s = await startWorkerStack({ startWorker: false });
});
afterAll(() => s.close());

async function submitted(u: TestUser, count: number, failing: Set<number>) {
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, {
    orderId,
    orderData: bulkItems(count, (i) => (failing.has(i) ? { receiver: { receiver_name: 'FAIL' } } : {})),
  });
  expect(res.statusCode).toBe(202);
  return orderId;
}

async function eventsOf(orderId: string): Promise<LabelRequestedEvent[]> {
  const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  return rows.map((r) => ({ labelId: r.id, bulkOrderId: orderId, userId: r.user_id, attempt: r.attempt }));
}

const statuses = async (orderId: string) =>
  (await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index')).map((r) => r.status);

const refundKeys = async (userId: string) =>
  (await s.ledgerEntries(userId)).filter((e) => e.kind === 'label_refund').map((e) => e.idempotency_key);

test('payments away during a batch: bought rows settle, refused rows stay pending, and the batch again refunds each once', async () => {
  const u = user(s);
  await s.setBalance(u.id, 100_000);
  const orderId = await submitted(u, 6, new Set([2, 5]));
  const events = await eventsOf(orderId);

  let away = true;
  const deps: BulkWorkerDeps = {
    ...s.workerDeps,
    ledger: {
      ...s.workerDeps.ledger,
      refund: async (req) => {
        if (away) throw new AppError('SERVICE_UNAVAILABLE', 'Payments is not answering.');
        return s.workerDeps.ledger.refund(req);
      },
    },
  };

  await expect(processBulkLabels(deps, events)).rejects.toThrow('Payments is not answering.');
  expect(await statuses(orderId)).toEqual(['completed', 'completed', 'pending', 'completed', 'completed', 'pending']);
  expect(await s.db('bulk_orders').where({ id: orderId }).first()).toMatchObject({
    status: 'processing',
    processed_count: 4,
    failed_count: 0,
  });
  expect(await refundKeys(u.id)).toEqual([]);

  away = false;
  await processBulkLabels(deps, events);
  expect(await statuses(orderId)).toEqual([
    'completed',
    'completed',
    'cancelled',
    'completed',
    'completed',
    'cancelled',
  ]);
  const order = await s.db('bulk_orders').where({ id: orderId }).first();
  expect(order).toMatchObject({ status: 'completed_with_errors', processed_count: 4, failed_count: 2 });

  // The same batch once more (a redelivery after a crash before the commit of the offset) changes nothing.
  const labelsBefore = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  await processBulkLabels(deps, events);
  expect(await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index')).toEqual(labelsBefore);
  const rows = labelsBefore.filter((r) => r.status === 'cancelled');
  expect((await refundKeys(u.id)).sort()).toEqual(rows.map((r) => `bulk-refund:${r.id}:0`).sort());
  expect(await s.balanceCents(u.id)).toBe(100_000 - 4 * PRIORITY_CENTS);
  // label.purchased once per bought row, whether still in the outbox or already relayed to the bus.
  await s.outbox.flush();
  const relayed = await s.db.raw(
    `select count(*)::int as n from bus.messages where topic = 'label.purchased' and value->>'bulkOrderId' = ?`,
    [orderId],
  );
  expect(relayed.rows[0]?.n).toBe(4);
});

test('one batch holding rows of two orders settles both, and finishes each exactly once', async () => {
  const a = user(s);
  const b = user(s);
  await s.setBalance(a.id, 100_000);
  await s.setBalance(b.id, 100_000);
  const first = await submitted(a, 3, new Set());
  const second = await submitted(b, 4, new Set([0]));
  const events = [...(await eventsOf(first)), ...(await eventsOf(second))].reverse();

  await Promise.all([processBulkLabels(s.workerDeps, events), processBulkLabels(s.workerDeps, events)]);

  expect(await s.db('bulk_orders').where({ id: first }).first()).toMatchObject({
    status: 'completed',
    processed_count: 3,
    failed_count: 0,
  });
  expect(await s.db('bulk_orders').where({ id: second }).first()).toMatchObject({
    status: 'completed_with_errors',
    processed_count: 3,
    failed_count: 1,
  });
  expect(await refundKeys(b.id)).toHaveLength(1);
  expect(await s.balanceCents(a.id)).toBe(100_000 - 3 * PRIORITY_CENTS);
  expect(await s.balanceCents(b.id)).toBe(100_000 - 3 * PRIORITY_CENTS);
});

test('events for unknown rows, settled rows and old attempts are skipped without touching anything', async () => {
  const u = user(s);
  await s.setBalance(u.id, 100_000);
  const orderId = await submitted(u, 2, new Set());
  const [one, two] = await eventsOf(orderId);
  await processBulkLabels(s.workerDeps, [one!]);
  const before = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');

  await processBulkLabels(s.workerDeps, [
    one!,
    { ...two!, attempt: 1 },
    { ...two!, bulkOrderId: randomUUID() },
    { labelId: '00000000-0000-4000-8000-000000000000', bulkOrderId: orderId, userId: u.id, attempt: 0 },
  ]);
  expect(await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index')).toEqual(before);
  expect(before.map((r) => r.status)).toEqual(['completed', 'pending']);
});
