import { createLogger, type ServiceApp } from '@flatship/kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bulkItems, newOrderId } from '../../orders/test/bulk-support';
import { user } from '../../orders/test/support';
import { buildWorkerApp } from '../src/app';
import { startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// The worker app as main.ts builds it, with a real pino logger writing to memory.
let s: WorkerStack;
let worker: ServiceApp;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  s = await startWorkerStack({ startWorker: false });
  const logger = createLogger('label-worker', 'info', {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  worker = await buildWorkerApp({
    logger,
    db: s.db,
    bus: s.bus,
    worker: { ...s.workerDeps, logger },
    concurrency: 4,
    batchSize: 25,
    stallMs: 60_000,
    sweepIntervalMs: 30_000,
  });
  await worker.ready();
});
afterAll(async () => {
  await worker.close();
  await s.close();
});

/** A series' value in a Prometheus text page, whatever the order of its labels; 0 when absent. */
function sample(page: string, name: string, labels: Record<string, string>): number {
  for (const line of page.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const got = Object.fromEntries(body.split(',').map((pair) => pair.split('=').map((v) => v.replace(/"/g, ''))));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('a bulk order submitted with a request id', () => {
  const REQUEST_ID = 'req-bulk-7f3a';
  let orderId: string;

  beforeAll(async () => {
    const u = user(s);
    await s.setBalance(u.id, 100_000);
    orderId = await newOrderId(s, u);
    // Two rows the sandbox carrier refuses (its FAIL recipient), four it sells.
    const orderData = bulkItems(6, (i) => (i < 2 ? { receiver: { receiver_name: 'FAIL' } } : {}));
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/orders/bulk/process/${u.id}`,
      headers: { token: u.token, 'x-request-id': REQUEST_ID },
      payload: { orderId, orderData },
    });
    expect(res.statusCode).toBe(202);
    await waitForStatus(s, orderId, ['completed_with_errors'], 30_000);
  }, 60_000);

  test("the worker's log lines for its messages carry the request id", () => {
    const mine = lines.filter((l) => l.reqId === REQUEST_ID);
    const batches = mine.filter((l) => l.msg === 'label batch settled');
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.reduce((n, l) => n + (l.labels as number), 0)).toBe(6);
    expect(batches.every((l) => (l.orderIds as string[]).includes(orderId))).toBe(true);
    expect(mine).toContainEqual(
      expect.objectContaining({ msg: 'bulk order finished', orderId, status: 'completed_with_errors' }),
    );
    // No batch line of this order lost its id.
    const unlabelled = lines.filter(
      (l) => l.msg === 'label batch settled' && (l.orderIds as string[]).includes(orderId) && l.reqId !== REQUEST_ID,
    );
    expect(unlabelled).toEqual([]);
  });

  test('the events the worker records for it carry the request id on to their consumers', async () => {
    await s.outbox.flush();
    const purchased = await s.db
      .withSchema('bus')
      .from('messages')
      .where({ topic: 'label.purchased' })
      .whereRaw(`value->>'bulkOrderId' = ?`, [orderId]);
    expect(purchased).toHaveLength(4);
    expect(purchased.map((m) => m.headers['x-request-id'])).toEqual([REQUEST_ID, REQUEST_ID, REQUEST_ID, REQUEST_ID]);
    const requested = await s.db
      .withSchema('bus')
      .from('messages')
      .where({ topic: 'label.requested' })
      .whereRaw(`value->>'bulkOrderId' = ?`, [orderId]);
    expect(requested).toHaveLength(6);
    expect(new Set(requested.map((m) => m.headers['x-request-id']))).toEqual(new Set([REQUEST_ID]));
    // Live progress (sent straight to the bus) and the final progress (through the outbox) alike.
    const progress = await s.db.withSchema('bus').from('messages').where({ topic: 'bulk.progress', key: orderId });
    expect(progress.length).toBeGreaterThan(1);
    expect(new Set(progress.map((m) => m.headers['x-request-id']))).toEqual(new Set([REQUEST_ID]));
  });

  test("the worker's metrics count the labels bought and failed, time the carrier, and time the order", async () => {
    const page = (await worker.inject('/metrics')).body;
    expect(sample(page, 'flatship_labels_bought_total', { carrier: 'usps', source: 'bulk' })).toBe(4);
    expect(sample(page, 'flatship_labels_failed_total', { carrier: 'usps', source: 'bulk', reason: 'refused' })).toBe(
      2,
    );
    expect(
      sample(page, 'flatship_carrier_call_duration_seconds_count', {
        carrier: 'usps',
        operation: 'purchase',
        outcome: 'ok',
      }),
    ).toBe(4);
    expect(
      sample(page, 'flatship_carrier_call_duration_seconds_count', {
        carrier: 'usps',
        operation: 'purchase',
        outcome: 'refused',
      }),
    ).toBe(2);
    expect(sample(page, 'flatship_bulk_order_duration_seconds_count', { status: 'completed_with_errors' })).toBe(1);
    expect(page).toMatch(/flatship_labels_bought_total\{[^}]*service="[a-z0-9_-]+"/);
  });
});
