import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileStore } from '@flatship/orders/worker';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bulkItems, call, newOrderId, processBulk } from '../../orders/test/bulk-support';
import { type TestUser, user } from '../../orders/test/support';
import { startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// Force Recovery: an order stuck generating its files gets them from its owner or an admin, once however
// often it is asked, without a charge; anything else is refused.
const PRIORITY_CENTS = 895;

/** Every file written, by key; `failing` makes writes of keys ending so throw. */
const written: string[] = [];
let failing: string | null = null;
const counting = (real: FileStore): FileStore => ({
  ...real,
  async put(key, data) {
    if (failing && key.endsWith(failing)) throw new Error(`disk full writing ${key}`);
    written.push(key);
    return real.put(key, data);
  },
});

let s: WorkerStack;
beforeAll(async () => {
  s = await startWorkerStack({ files: counting });
});
afterAll(() => s.close());

async function funded(cents: number): Promise<TestUser> {
  const u = user(s);
  await s.setBalance(u.id, cents);
  return u;
}

/** A finished order of `n` rows left as a worker that died writing its files leaves it. */
async function stuckOrder(u: TestUser, n = 3, source?: string): Promise<string> {
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, { orderId, orderData: bulkItems(n), ...(source ? { source } : {}) });
  expect(res.statusCode, res.body).toBe(202);
  await waitForStatus(s, orderId);
  await rm(join(s.filesDir, 'bulk', u.id, orderId), { recursive: true, force: true });
  await s
    .db('bulk_orders')
    .where({ id: orderId })
    .update({ status: 'generating_files', pdf_name: null, result_csv_name: null, auto_confirm_name: null });
  return orderId;
}

const recover = (token: string, userId: string, orderId: string) =>
  s.app.inject({ method: 'POST', url: `/api/orders/bulk/force-recovery/${userId}/${orderId}`, headers: { token } });

const download = (u: TestUser, type: string, orderId: string) =>
  s.app.inject({ url: `/api/orders/download/${type}/${orderId}`, headers: { token: u.token } });

const order = (orderId: string) => s.db('bulk_orders').where({ id: orderId }).first();

/** Writes of one of an order's files since the `from`th write. */
const writesOf = (orderId: string, file: string, from = 0) =>
  written.slice(from).filter((k) => k.endsWith(`${orderId}/${file}`)).length;

const charges = async (userId: string) =>
  (await s.ledgerEntries(userId)).filter((e) => e.kind !== 'admin_adjustment').map((e) => e.idempotency_key);

describe('POST /api/orders/bulk/force-recovery/{userId}/{orderId}', () => {
  test('writes the files of an order stuck generating them, finishes it, and charges nothing', async () => {
    const u = await funded(10_000);
    const orderId = await stuckOrder(u, 3, 'amazon');
    const before = await charges(u.id);
    expect((await download(u, 'pdf', orderId)).statusCode).toBe(202);

    const res = await recover(u.token, u.id, orderId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: 'Order recovered. Its files are ready to download.',
      status: 'completed',
      processedCount: 3,
      failedCount: 0,
      refundedCount: 0,
      totalCount: 3,
      fileData: {
        pdfName: expect.stringMatching(/^Labels_\d\d-\d\d\.pdf$/),
        resultCSVName: expect.stringMatching(/^Order_Results_\d\d-\d\d\.csv$/),
        autoConfirmCSVName: expect.stringMatching(/^Auto_Confirm_\d\d-\d\d\.tsv$/),
      },
    });
    const pdf = await download(u, 'pdf', orderId);
    expect(pdf.statusCode).toBe(200);
    expect((await PDFDocument.load(pdf.rawPayload)).getPageCount()).toBe(3);
    expect((await download(u, 'result-csv', orderId)).statusCode).toBe(200);
    expect((await download(u, 'auto-csv', orderId)).statusCode).toBe(200);
    expect(await charges(u.id)).toEqual(before);
    expect(await s.balanceCents(u.id)).toBe(10_000 - 3 * PRIORITY_CENTS);
    const listed = (await call(s, u, 'GET', `/api/orders/bulk/${u.id}`)).json().bulkOrders[0];
    expect(listed).toMatchObject({ _id: orderId, status: 'completed', pdfName: expect.stringMatching(/^Labels_/) });

    // Done: a second click is told so, plainly, and writes nothing.
    const writes = written.length;
    const again = await recover(u.token, u.id, orderId);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'ORDERS_NOT_STUCK',
      message: 'Force Recovery is only for an order whose file generation is stuck. This order is completed.',
    });
    expect(written.length).toBe(writes);
  });

  test('asked many times at once, the files are written once and every answer is the finished order', async () => {
    const u = await funded(10_000);
    const orderId = await stuckOrder(u);
    const from = written.length;
    const answers = await Promise.all(Array.from({ length: 6 }, () => recover(u.token, u.id, orderId)));
    for (const a of answers) {
      if (a.statusCode === 200) expect(a.json()).toMatchObject({ status: 'completed', processedCount: 3 });
      else expect(a.json().code, a.body).toBe('ORDERS_NOT_STUCK');
    }
    expect(answers.some((a) => a.statusCode === 200)).toBe(true);
    expect(writesOf(orderId, 'labels.pdf', from)).toBe(1);
    expect(writesOf(orderId, 'results.csv', from)).toBe(1);
    expect(await order(orderId)).toMatchObject({ status: 'completed' });
  });

  test('an order that is not stuck is refused with what it is doing', async () => {
    const u = await funded(10_000);
    await s.stopWorker();
    try {
      const orderId = await newOrderId(s, u);
      expect((await processBulk(s, u, { orderId, orderData: bulkItems(2) })).statusCode).toBe(202);
      const res = await recover(u.token, u.id, orderId);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        code: 'ORDERS_NOT_STUCK',
        message: 'Force Recovery is only for an order whose file generation is stuck. This order is still processing.',
      });
    } finally {
      await s.startWorker();
    }
  });

  test('only for the owner (their own user id) or an admin; anyone else learns nothing of the order', async () => {
    const owner = await funded(10_000);
    const other = await funded(10_000);
    const admin = user(s, 'admin');
    const orderId = await stuckOrder(owner, 2);

    // Another user's id in the path: 403, whatever the order.
    expect((await recover(other.token, owner.id, orderId)).statusCode).toBe(403);
    // Their own id with someone else's order, or an admin naming the wrong owner: not found.
    for (const [token, userId] of [
      [other.token, other.id],
      [admin.token, admin.id],
    ] as const) {
      const res = await recover(token, userId, orderId);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Bulk order not found' });
    }
    expect(
      (await s.app.inject({ method: 'POST', url: `/api/orders/bulk/force-recovery/${owner.id}/${orderId}` }))
        .statusCode,
    ).toBe(401);
    expect((await recover(owner.token, owner.id, 'not-an-id')).statusCode).toBe(400);
    expect(await order(orderId)).toMatchObject({ status: 'generating_files' });

    const res = await recover(admin.token, owner.id, orderId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'completed', processedCount: 2 });
  });

  test('when the files cannot be written, nothing half-written is served; the order reads recovery_failed and a retry recovers it', async () => {
    const u = await funded(10_000);
    const orderId = await stuckOrder(u, 2);
    failing = `${orderId}/results.csv`;
    try {
      const res = await recover(u.token, u.id, orderId);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        code: 'ORDERS_RECOVERY_FAILED',
        message:
          'The order files could not be generated, so the order is marked Recovery Failed. Please try Force Recovery again.',
      });
    } finally {
      failing = null;
    }
    // The labels PDF was written before the results CSV failed, but no file is handed out until all are.
    expect(await order(orderId)).toMatchObject({
      status: 'recovery_failed',
      pdf_name: null,
      result_csv_name: null,
      stuck_at: expect.any(Date),
    });
    expect((await download(u, 'pdf', orderId)).statusCode).toBe(404);
    const files = (await call(s, u, 'GET', `/api/orders/bulk/files/${orderId}`)).json();
    expect(files).toMatchObject({ pdf: false, resultCSV: false, autoConfirm: false });

    const again = await recover(u.token, u.id, orderId);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ status: 'completed', processedCount: 2 });
    expect(await order(orderId)).toMatchObject({ status: 'completed', stuck_at: null });
    expect((await download(u, 'pdf', orderId)).statusCode).toBe(200);
  });
});
