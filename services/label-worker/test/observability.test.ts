import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCachedTokenState, createLogger, type ServiceApp } from '@flatship/kit';
import { metricSample } from '@flatship/kit/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// The real gateway in front, so the request id is followed from the edge (a cross-workspace import, for this test only).
import { buildGateway } from '../../../gateway/src/app';
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
    expect(metricSample(page, 'flatship_labels_bought_total', { carrier: 'usps', source: 'bulk' })).toBe(4);
    expect(
      metricSample(page, 'flatship_labels_failed_total', { carrier: 'usps', source: 'bulk', reason: 'refused' }),
    ).toBe(2);
    expect(
      metricSample(page, 'flatship_carrier_call_duration_seconds_count', {
        carrier: 'usps',
        operation: 'purchase',
        outcome: 'ok',
      }),
    ).toBe(4);
    expect(
      metricSample(page, 'flatship_carrier_call_duration_seconds_count', {
        carrier: 'usps',
        operation: 'purchase',
        outcome: 'refused',
      }),
    ).toBe(2);
    expect(metricSample(page, 'flatship_bulk_order_duration_seconds_count', { status: 'completed_with_errors' })).toBe(
      1,
    );
    expect(page).toMatch(/flatship_labels_bought_total\{[^}]*service="[a-z0-9_-]+"/);
  });
});

describe('a bulk order submitted through the gateway', () => {
  test('the request id the gateway gives the submit reaches the worker log lines of its labels', async () => {
    const ordersUrl = await s.app.listen({ host: '127.0.0.1', port: 0 });
    const gateway = await buildGateway({
      logger: false,
      tokenState: createCachedTokenState(async (id) => s.states.get(id) ?? null, 0),
      config: {
        // Auth is not called on this path; a configured address is all the gateway needs of it here.
        upstreams: { auth: 'http://127.0.0.1:9', orders: ordersUrl },
        staticDir: mkdtempSync(join(tmpdir(), 'flatship-web-')),
        rateLimit: { max: 1000, timeWindow: '1 minute' },
        trustProxy: false,
        jwtPublicKey: s.keys.publicKey,
        internalSecret: 'worker-observability-secret',
        upstreamReadyTimeoutMs: 500,
        cspExtraOrigins: [],
      },
    });
    const edge = await gateway.listen({ host: '127.0.0.1', port: 0 });
    try {
      const u = user(s);
      await s.setBalance(u.id, 100_000);
      const orderId = await newOrderId(s, u);
      const res = await fetch(`${edge}/api/orders/bulk/process/${u.id}`, {
        method: 'POST',
        headers: { token: u.token, 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, orderData: bulkItems(3) }),
      });
      expect(res.status).toBe(202);
      // No id was sent: the gateway made one and answers it.
      const requestId = res.headers.get('x-request-id');
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      await waitForStatus(s, orderId, ['completed'], 30_000);

      const batches = lines.filter(
        (l) => l.msg === 'label batch settled' && (l.orderIds as string[]).includes(orderId),
      );
      expect(batches.length).toBeGreaterThan(0);
      expect(batches.map((l) => l.reqId)).toEqual(batches.map(() => requestId));
      expect(lines).toContainEqual(expect.objectContaining({ msg: 'bulk order finished', orderId, reqId: requestId }));
    } finally {
      await gateway.close();
    }
  }, 60_000);
});
