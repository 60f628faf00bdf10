import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, type ServiceProcess, spawnService, waitUntilUp } from '@flatship/kit/testing';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bulkItems, newOrderId, processBulk } from '../../orders/test/bulk-support';
import { INTERNAL_SECRET, user } from '../../orders/test/support';
import { startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// The label worker's real entry point as a child process, against the test stack's database,
// payments service and files directory.
// The built entry production runs (the test setup rebuilds it when its sources changed).
const MAIN = new URL('../dist/main.js', import.meta.url);
const PRIORITY_CENTS = 895;

let s: WorkerStack;
let paymentsUrl: string;
beforeAll(async () => {
  s = await startWorkerStack({ startWorker: false });
  const addr = s.payments.server.address();
  if (!addr || typeof addr === 'string') throw new Error('payments is not listening');
  paymentsUrl = `http://127.0.0.1:${addr.port}`;
});
/** Gates still closed when a test failed: opened before the stack closes, which waits for their transactions. */
const openGates = new Set<() => Promise<void>>();
afterAll(async () => {
  for (const release of openGates) await release();
  await s.close();
});

type Worker = ServiceProcess & { port: number };

async function runWorker(env: Record<string, string> = {}): Promise<Worker> {
  const port = await freePort();
  const w = spawnService(MAIN, {
    PORT: String(port),
    DATABASE_URL: s.url,
    JWT_PUBLIC_KEY: s.keys.publicKey,
    INTERNAL_SECRET,
    PAYMENTS_URL: paymentsUrl,
    FILES_DIR: s.filesDir,
    LOG_LEVEL: 'info',
    ...env,
  });
  return { ...w, port };
}

/** The first /readyz answer other than 200 after the signal (it is 200 until the process has handled it). */
async function readyzOnceShuttingDown(w: Worker): Promise<{ status: number; message: string }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${w.port}/readyz`);
    const body = (await res.json()) as { message?: string };
    if (res.status !== 200) return { status: res.status, message: body.message ?? '' };
    if (Date.now() > deadline) throw new Error(`/readyz still 200:\n${w.logs()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Ready and consuming: /readyz answers before the consumer has joined. */
async function waitReady(w: Worker) {
  await waitUntilUp(`http://127.0.0.1:${w.port}/readyz`, w, {
    isUp: (res) => res.ok && w.logs().includes('label worker consuming label.requested'),
  });
}

/**
 * Holds every settlement of the order after its first until `release`: a trigger on the order's row waits for an
 * advisory lock the test holds. The worker is then stopped with some rows settled and the next settlement in flight,
 * however fast or slow the machine is.
 */
async function holdAfterFirstSettlement(orderId: string) {
  const name = `hold_${orderId.replace(/-/g, '')}`;
  await s.db.raw(`
    create function ${name}() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(4242, hashtext(old.id::text));
      return new;
    end $$`);
  await s.db.raw(`
    create trigger ${name} before update on bulk_orders for each row
      when (old.id = '${orderId}' and old.processed_count + old.failed_count > 0)
      execute function ${name}()`);
  const gate = await s.db.transaction();
  await gate.raw('select pg_advisory_xact_lock(4242, hashtext(?))', [orderId]);
  const release = async () => {
    if (!openGates.delete(release)) return;
    await gate.commit();
    await s.db.raw(`drop trigger ${name} on bulk_orders`);
    await s.db.raw(`drop function ${name}()`);
  };
  openGates.add(release);
  return {
    /** Waits until a settlement is waiting at the gate. */
    async held(process: ServiceProcess) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { rows } = await s.db.raw(
          "select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = 4242 and not granted",
        );
        if (rows[0].n > 0) return;
        if (Date.now() > deadline) throw new Error(`no settlement held:\n${process.logs()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    release,
  };
}

describe('the label-worker process', () => {
  test('a bad configuration stops it with a message naming each variable', async () => {
    const w = await runWorker({ LABEL_WORKER_CONCURRENCY: '0', FILES_DIR: '', PAYMENTS_URL: 'payments' });
    expect(await w.exited).toBe(78);
    expect(w.logs()).toContain('LABEL_WORKER_CONCURRENCY="0" is invalid');
    expect(w.logs()).toContain('FILES_DIR is required but not set');
    expect(w.logs()).toContain('PAYMENTS_URL="payments" is invalid');
  }, 30_000);

  test('SIGKILL in the middle of a 200-row order, then a restart: the order completes, each label bought and each failure refunded exactly once', async () => {
    const u = user(s);
    await s.setBalance(u.id, 500_000);
    // The killed worker's partitions are free again once its leases run out: 3 s here rather than the default 10 s.
    const sandbox = { CARRIER_LATENCY_MS: '15', CARRIER_FAILURE_RATE: '0.1', BUS_LEASE_TIMEOUT_MS: '3000' };
    const worker = await runWorker(sandbox);
    await waitReady(worker);

    const orderId = await newOrderId(s, u);
    const gate = await holdAfterFirstSettlement(orderId);
    const res = await processBulk(s, u, { orderId, orderData: bulkItems(200) });
    expect(res.statusCode).toBe(202);

    // Kill it once some rows are settled, while the next settlement is under way.
    await gate.held(worker);
    worker.child.kill('SIGKILL');
    await worker.exited;
    await gate.release();
    const atKill = await s.db('bulk_orders').where({ id: orderId }).first();
    expect(atKill.status).toBe('processing');
    expect(atKill.processed_count + atKill.failed_count).toBeGreaterThan(0);
    expect(atKill.processed_count + atKill.failed_count).toBeLessThan(200);

    const again = await runWorker(sandbox);
    await waitReady(again);
    const order = await waitForStatus(s, orderId, ['completed', 'completed_with_errors'], 90_000);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    await s.outbox.flush();

    const rows = await s.db('labels').where({ bulk_order_id: orderId });
    const done = rows.filter((r) => r.status === 'completed');
    const failed = rows.filter((r) => r.status === 'cancelled');
    expect(rows).toHaveLength(200);
    expect(done.length + failed.length).toBe(200);
    expect(failed.length).toBeGreaterThan(0);
    expect(order).toMatchObject({ total_count: 200, processed_count: done.length, failed_count: failed.length });
    expect(new Set(done.map((r) => r.tracking_number)).size).toBe(done.length);
    // Rendered on the built worker's render threads (dist/render-worker.js): a real one-page label PDF.
    const label = await PDFDocument.load(await readFile(join(s.filesDir, 'labels', u.id, done[0]!.pdf_name)));
    expect(label.getPageCount()).toBe(1);

    const purchased = await s.db
      .withSchema('bus')
      .from('messages')
      .where({ topic: 'label.purchased' })
      .whereRaw(`value->>'bulkOrderId' = ?`, [orderId]);
    expect(purchased).toHaveLength(done.length);
    expect(new Set(purchased.map((m) => m.value.labelId)).size).toBe(done.length);

    const entries = (await s.ledgerEntries(u.id)).filter((e) => e.kind !== 'admin_adjustment');
    expect(entries.filter((e) => e.kind === 'label_charge').map((e) => e.idempotency_key)).toEqual([`bulk:${orderId}`]);
    const refunds = entries.filter((e) => e.kind === 'label_refund');
    expect(refunds.map((e) => e.idempotency_key).sort()).toEqual(failed.map((r) => `bulk-refund:${r.id}:0`).sort());
    expect(await s.balanceCents(u.id)).toBe(500_000 - done.length * PRIORITY_CENTS);
  }, 180_000);

  test('SIGTERM lets the rows in hand finish and exits cleanly', async () => {
    const u = user(s);
    await s.setBalance(u.id, 100_000);
    const w = await runWorker({ CARRIER_LATENCY_MS: '50' });
    await waitReady(w);
    const orderId = await newOrderId(s, u);
    await processBulk(s, u, { orderId, orderData: bulkItems(20) });
    const deadline = Date.now() + 30_000;
    while ((await s.db('labels').where({ bulk_order_id: orderId, status: 'completed' })).length === 0) {
      if (Date.now() > deadline) throw new Error(`no progress:\n${w.logs()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    const order = await s.db('bulk_orders').where({ id: orderId }).first();
    const settled = await s.db('labels').where({ bulk_order_id: orderId }).whereNot({ status: 'pending' });
    expect(order.processed_count + order.failed_count).toBe(settled.length);
  }, 60_000);

  test('SIGTERM mid-order: readiness turns 503 at once, the labels being bought finish and commit, the process exits 0 within its grace period, and its log lines carry the submit request id', async () => {
    const u = user(s);
    await s.setBalance(u.id, 100_000);
    const w = await runWorker({
      CARRIER_LATENCY_MS: '300',
      // Long enough for the test to see /readyz answer during the drain however busy the machine is.
      SHUTDOWN_DRAIN_MS: '2000',
      SHUTDOWN_TIMEOUT_MS: '30000',
      // One partition of five rows at a time, so the order is still being bought when the signal comes.
      LABEL_WORKER_BATCH: '5',
      LABEL_WORKER_CONCURRENCY: '1',
    });
    await waitReady(w);
    const orderId = await newOrderId(s, u);
    const gate = await holdAfterFirstSettlement(orderId);
    const requestId = 'req-sigterm-0042';
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/orders/bulk/process/${u.id}`,
      headers: { token: u.token, 'x-request-id': requestId },
      payload: { orderId, orderData: bulkItems(60) },
    });
    expect(res.statusCode).toBe(202);
    // The signal comes with a batch in hand: its settlement waits at the gate until the test has seen /readyz.
    await gate.held(w);
    w.child.kill('SIGTERM');
    const ready = await readyzOnceShuttingDown(w);
    expect(ready.status).toBe(503);
    expect(ready.message).toBe('label-worker is shutting down');
    await gate.release();

    // Exit 0 is the clean end: past its grace period the process exits 1.
    expect(await w.exited).toBe(0);
    // Every row it took is settled and counted: nothing left half-bought.
    const order = await s.db('bulk_orders').where({ id: orderId }).first();
    const settled = await s.db('labels').where({ bulk_order_id: orderId }).whereNot({ status: 'pending' });
    expect(settled.length).toBeGreaterThan(0);
    expect(settled.length).toBeLessThan(60);
    expect(order.processed_count + order.failed_count).toBe(settled.length);
    const lines = w
      .logs()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.msg === 'label batch settled' && l.reqId === requestId).length).toBeGreaterThan(0);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'shut down cleanly' }));

    // The offsets it committed match what it settled: the next worker buys the rest, and nothing twice.
    const next = await runWorker({ CARRIER_LATENCY_MS: '10' });
    await waitReady(next);
    await waitForStatus(s, orderId, ['completed'], 60_000);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
    await s.outbox.flush();
    const done = await s.db('labels').where({ bulk_order_id: orderId, status: 'completed' });
    expect(done).toHaveLength(60);
    expect(new Set(done.map((r) => r.tracking_number)).size).toBe(60);
    const purchased = await s.db
      .withSchema('bus')
      .from('messages')
      .where({ topic: 'label.purchased' })
      .whereRaw(`value->>'bulkOrderId' = ?`, [orderId]);
    expect(purchased).toHaveLength(60);
  }, 120_000);
});
