import { createSandboxCarrier } from '@flatship/carriers';
import { type CarrierPort, sweepStalledBulkOrders } from '@flatship/orders/worker';
import { PDFDocument } from 'pdf-lib';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { bulkItems, call, newOrderId, processBulk } from '../../orders/test/bulk-support';
import { type TestUser, user } from '../../orders/test/support';
import { parseDelimited, startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// Rows an admin refunded (their labels void) in a bulk order: the order still adds up and ends, whatever the
// refund met — a running order, a finished one, a retry, every row refunded — and its files leave them out.
const PRIORITY_CENTS = 895;
const REFUNDED_NOTE = 'Label refunded; it is void and must not be used';

/** Recipients named like this are refused, held until let go, or bought, as `special` says. */
const SPECIAL = 'Special Receiver';
let special: 'fail' | 'hold' | 'buy' = 'fail';
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
let gate = deferred();
let held = 0;
const sandbox = createSandboxCarrier();
const carrier: CarrierPort = {
  async purchaseLabel(req) {
    if (req.to.name === SPECIAL && special === 'hold') {
      held += 1;
      await gate.promise;
    }
    if (req.to.name === SPECIAL && special === 'fail') {
      return { ok: false, message: 'Address validation failed: try later.', retryable: false };
    }
    return sandbox.purchaseLabel(req);
  },
};
function hold() {
  special = 'hold';
  held = 0;
  gate = deferred();
}
function release(then: 'fail' | 'buy') {
  special = then;
  gate.resolve();
}

let s: WorkerStack;
beforeAll(async () => {
  // One row at a time, so a row held at the carrier does not hold up the rows beside it.
  s = await startWorkerStack({ carrier, batchSize: 1 });
});
// A row still held at the carrier holds its partition: let it go after every test, so a test that stops early
// never leaves the next ones' rows queued behind it.
afterEach(() => {
  special = 'fail';
  gate.resolve();
});
afterAll(async () => {
  await s.close();
});

/** Waits for `check`, however long the machine takes (the test's timeout is the bound). */
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 55_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function funded(cents: number): Promise<TestUser> {
  const u = user(s);
  await s.setBalance(u.id, cents);
  return u;
}

async function submit(u: TestUser, items: unknown[]) {
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, { orderId, orderData: items });
  expect(res.statusCode, res.body).toBe(202);
  return orderId;
}

/** n rows, those in `specials` addressed to the special recipient. */
const items = (n: number, specials: number[] = []) =>
  bulkItems(n, (i) => (specials.includes(i) ? { receiver: { receiver_name: SPECIAL } } : {}));

const rowsOf = (orderId: string) => s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');

const refund = (labelId: string) =>
  s.app.inject({
    method: 'POST',
    url: `/api/orders/admin/labels/${labelId}/refund`,
    headers: { token: s.adminToken },
  });

async function refundRow(orderId: string, rowIndex: number) {
  const row = (await rowsOf(orderId))[rowIndex];
  const res = await refund(row.id);
  expect(res.statusCode, res.body).toBe(200);
  return row;
}

const download = (u: TestUser, type: string, orderId: string) =>
  s.app.inject({ url: `/api/orders/download/${type}/${orderId}`, headers: { token: u.token } });

async function mergedPages(u: TestUser, orderId: string): Promise<number> {
  const res = await download(u, 'pdf', orderId);
  expect(res.statusCode, res.body).toBe(200);
  return (await PDFDocument.load(res.rawPayload)).getPageCount();
}

/** The results CSV's status, tracking number and error of every row. */
async function results(u: TestUser, orderId: string) {
  const res = await download(u, 'result-csv', orderId);
  expect(res.statusCode, res.body).toBe(200);
  const [header, ...lines] = parseDelimited(res.body);
  const col = (name: string) => (header as string[]).indexOf(name);
  return lines.map((l) => ({ status: l[col('status')], tracking: l[col('tracking_number')], error: l[col('error')] }));
}

async function listed(u: TestUser, orderId: string) {
  const res = await call(s, u, 'GET', `/api/orders/bulk/${u.id}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().bulkOrders as { _id: string }[]).find((o) => o._id === orderId);
}

async function lastProgress(orderId: string) {
  await s.outbox.flush();
  const events = await s.db
    .withSchema('bus')
    .from('messages')
    .where({ topic: 'bulk.progress', key: orderId })
    .orderBy('created_at');
  return events.at(-1)?.value;
}

async function expectLedgerSums(userId: string, balanceCents: number) {
  expect(await s.balanceCents(userId)).toBe(balanceCents);
  const sum = (await s.ledgerEntries(userId)).reduce((acc, e) => acc + Number(e.amount_cents), 0);
  expect(sum).toBe(balanceCents);
}

describe('a row refunded by an admin', () => {
  test('then a retry of the failed row: the order ends, with the refunded row counted', async () => {
    special = 'fail';
    const u = await funded(10_000);
    const orderId = await submit(u, items(2, [1]));
    expect(await waitForStatus(s, orderId)).toMatchObject({
      status: 'completed_with_errors',
      processed_count: 1,
      failed_count: 1,
    });
    await refundRow(orderId, 0);

    // The failed row fails again.
    const retried = await call(s, u, 'POST', `/api/orders/bulk/retry-failed/${orderId}`);
    expect(retried.statusCode, retried.body).toBe(200);
    const order = await waitForStatus(s, orderId);
    expect(order).toMatchObject({
      status: 'completed_with_errors',
      processed_count: 0,
      failed_count: 1,
      refunded_count: 1,
    });
    expect(retried.json()).toMatchObject({
      message: '0 labels recovered. 1 still failed.',
      status: 'completed_with_errors',
      finalProcessedCount: 0,
      finalFailedCount: 1,
      finalRefundedCount: 1,
      updatedTotalCount: 2,
      newlySuccessfulCount: 0,
    });

    // Finished, so the failed row may be retried once more, and this time it is bought.
    special = 'buy';
    const again = await call(s, u, 'POST', `/api/orders/bulk/retry-failed/${orderId}`);
    expect(again.statusCode, again.body).toBe(200);
    expect(await waitForStatus(s, orderId, ['completed'])).toMatchObject({
      processed_count: 1,
      failed_count: 0,
      refunded_count: 1,
    });
    expect(await mergedPages(u, orderId)).toBe(1);
    expect((await results(u, orderId)).map((r) => r.status)).toEqual(['refunded', 'success']);
    // Row 1 came back from the admin; row 2 is paid once, for the label finally bought.
    await expectLedgerSums(u.id, 10_000 - PRIORITY_CENTS);
  }, 60_000);

  test('while the order is still buying: it completes, the refunded row counted and left out of its files', async () => {
    hold();
    const u = await funded(10_000);
    const orderId = await submit(u, items(3, [2]));
    // The worker tells of a row once its transaction is in, and holds what comes within its window: the two rows are
    // told of before the refund, so no word of them can come after it.
    await until('rows 1 and 2 bought and told of, row 3 at the carrier', async () => {
      const rows = await rowsOf(orderId);
      if (!(held > 0 && rows[0].status === 'completed' && rows[1].status === 'completed')) return false;
      await s.progress.flush();
      return (await lastProgress(orderId))?.processedCount === 2;
    });
    const refunded = await refundRow(orderId, 0);
    expect(await s.db('bulk_orders').where({ id: orderId }).first()).toMatchObject({
      status: 'processing',
      processed_count: 1,
      failed_count: 0,
      refunded_count: 1,
    });
    expect(await lastProgress(orderId)).toMatchObject({ status: 'processing', processedCount: 1, refundedCount: 1 });

    release('buy');
    expect(await waitForStatus(s, orderId)).toMatchObject({
      status: 'completed',
      processed_count: 2,
      failed_count: 0,
      refunded_count: 1,
    });
    expect(await mergedPages(u, orderId)).toBe(2);
    const lines = await results(u, orderId);
    expect(lines.map((l) => l.status)).toEqual(['refunded', 'success', 'success']);
    expect(lines[0]).toEqual({ status: 'refunded', tracking: refunded.tracking_number, error: REFUNDED_NOTE });
    expect(await listed(u, orderId)).toMatchObject({
      status: 'completed',
      processedCount: 2,
      failedCount: 0,
      refundedCount: 1,
      totalCount: 3,
    });
    expect(await lastProgress(orderId)).toMatchObject({ status: 'completed', processedCount: 2, refundedCount: 1 });
    await expectLedgerSums(u.id, 10_000 - 2 * PRIORITY_CENTS);
  }, 60_000);

  test('after the order finished: its files are written again without the label, and its status stays', async () => {
    special = 'fail';
    const u = await funded(10_000);
    const orderId = await submit(u, items(3, [2]));
    await waitForStatus(s, orderId);
    expect(await mergedPages(u, orderId)).toBe(2);

    await refundRow(orderId, 1);
    const order = await s.db('bulk_orders').where({ id: orderId }).first();
    expect(order).toMatchObject({
      status: 'completed_with_errors',
      processed_count: 1,
      failed_count: 1,
      refunded_count: 1,
      pdf_name: expect.stringMatching(/^Labels_/),
    });
    expect(await mergedPages(u, orderId)).toBe(1);
    expect((await results(u, orderId)).map((l) => l.status)).toEqual(['success', 'refunded', 'failed']);
    expect(await lastProgress(orderId)).toMatchObject({
      status: 'completed_with_errors',
      processedCount: 1,
      failedCount: 1,
      refundedCount: 1,
      fileData: { pdfName: expect.stringMatching(/^Labels_/) },
    });
    // Refunded again: no more money, nothing else changes.
    const again = await refund((await rowsOf(orderId))[1].id);
    expect(again.statusCode).toBe(409);
    await expectLedgerSums(u.id, 10_000 - PRIORITY_CENTS);

    // The refunded label's own PDF is refused too; the one still valid downloads.
    const [kept, voided] = await rowsOf(orderId);
    const label = (r: { pdf_name: string }) =>
      s.app.inject({ url: `/api/orders/download/v2/${r.pdf_name}`, headers: { token: u.token } });
    const refused = await label(voided);
    expect(refused.statusCode).toBe(410);
    expect(refused.json().code).toBe('ORDERS_LABEL_VOID');
    expect((await label(kept)).statusCode).toBe(200);
  }, 60_000);

  test('while an order is writing its files again, the earlier ones are not handed out', async () => {
    special = 'buy';
    const u = await funded(10_000);
    const orderId = await submit(u, items(2));
    await waitForStatus(s, orderId);
    expect((await download(u, 'pdf', orderId)).statusCode).toBe(200);
    // As a refund leaves it until its files are written again.
    await s.db('bulk_orders').where({ id: orderId }).update({ status: 'generating_files' });
    for (const type of ['pdf', 'result-csv']) {
      const res = await download(u, type, orderId);
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ message: 'File is still being processed. Please try again in a few moments.' });
    }
  }, 60_000);

  test('during a retry: the retry ends, counting the refund, and recovers the row it retried', async () => {
    special = 'fail';
    const u = await funded(10_000);
    const orderId = await submit(u, items(2, [1]));
    await waitForStatus(s, orderId);

    hold();
    const retry = call(s, u, 'POST', `/api/orders/bulk/retry-failed/${orderId}`);
    await until('the retried row at the carrier', () => held > 0);
    await refundRow(orderId, 0);
    release('buy');
    const res = await retry;
    expect(res.statusCode, res.body).toBe(200);
    expect(await waitForStatus(s, orderId)).toMatchObject({
      status: 'completed',
      processed_count: 1,
      failed_count: 0,
      refunded_count: 1,
    });
    expect(res.json()).toMatchObject({ newlySuccessfulCount: 1, finalRefundedCount: 1, status: 'completed' });
    expect(await mergedPages(u, orderId)).toBe(1);
    expect((await results(u, orderId)).map((l) => l.status)).toEqual(['refunded', 'success']);
    await expectLedgerSums(u.id, 10_000 - PRIORITY_CENTS);
  }, 60_000);

  test('every row refunded, two admins at once: completed with nothing bought, no labels file, nothing to retry', async () => {
    special = 'buy';
    const u = await funded(10_000);
    const orderId = await submit(u, items(2));
    await waitForStatus(s, orderId);
    const rows = await rowsOf(orderId);
    const answers = await Promise.all(rows.map((r) => refund(r.id)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);

    expect(await s.db('bulk_orders').where({ id: orderId }).first()).toMatchObject({
      status: 'completed',
      processed_count: 0,
      failed_count: 0,
      refunded_count: 2,
      pdf_name: null,
      result_csv_name: expect.stringMatching(/^Order_Results_/),
    });
    const pdf = await download(u, 'pdf', orderId);
    expect(pdf.statusCode).toBe(404);
    expect((await results(u, orderId)).map((l) => l.status)).toEqual(['refunded', 'refunded']);
    const retry = await call(s, u, 'POST', `/api/orders/bulk/retry-failed/${orderId}`);
    expect(retry.statusCode).toBe(400);
    expect(retry.json().message).toBe('No failed labels found');
    await expectLedgerSums(u.id, 10_000);
  }, 60_000);

  test('an order a refund left unfinished before refunds were counted is finished by the sweeper', async () => {
    special = 'fail';
    const u = await funded(10_000);
    const orderId = await submit(u, items(2, [1]));
    await waitForStatus(s, orderId);
    const [first] = await rowsOf(orderId);
    // As a refund used to leave it: the row void, nothing recounted, then a retry that ended short of the total.
    await s.db('labels').where({ id: first.id }).update({
      status: 'void',
      refunded: true,
      voided_at: new Date(),
      voided_by: first.user_id,
      refund_status: 'refunded',
      refund_requested_at: new Date(),
      refund_requested_by: first.user_id,
    });
    await s
      .db('bulk_orders')
      .where({ id: orderId })
      .update({
        status: 'retrying_failed',
        processed_count: 0,
        failed_count: 1,
        refunded_count: 0,
        retry_count: 1,
        last_progress_at: new Date(Date.now() - 10 * 60_000),
      });
    await s
      .db('labels')
      .where({ bulk_order_id: orderId, row_index: 1 })
      .update({ charge_key: `bulk-retry:${orderId}:1` });

    await sweepStalledBulkOrders({ ...s.workerDeps, now: () => new Date() }, { stallMs: 60_000 });
    expect(await s.db('bulk_orders').where({ id: orderId }).first()).toMatchObject({
      status: 'completed_with_errors',
      processed_count: 0,
      failed_count: 1,
      refunded_count: 1,
    });
  }, 60_000);
});

describe('a customer refunding unused labels of a batch', () => {
  const batchRefund = (u: TestUser, orderId: string, labelIds?: string[]) =>
    s.app.inject({
      method: 'POST',
      url: `/api/orders/bulk/refund/${orderId}`,
      headers: { token: u.token },
      payload: labelIds ? { labelIds } : {},
    });
  const batchLabels = async (u: TestUser, orderId: string) => {
    const res = await call(s, u, 'GET', `/api/orders/bulk/labels/${orderId}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().labels as { _id: string; row: number; refundStatus: string | null; refundable: boolean }[];
  };

  test('one label, then every unused one: credited once each, counted as refunded, files written without them', async () => {
    special = 'fail';
    const u = await funded(10_000);
    const orderId = await submit(u, items(4, [3]));
    await waitForStatus(s, orderId);
    const before = await s.balanceCents(u.id);

    const shown = await batchLabels(u, orderId);
    expect(shown.map((l) => [l.row, l.refundable])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, false],
    ]);

    // One label, from its row.
    const one = await batchRefund(u, orderId, [shown[1]?._id as string]);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual({
      message: '1 refunded ($8.95 back on the balance)',
      asked: 1,
      refunded: 1,
      pending: 0,
      rejected: 0,
      skipped: 0,
      credited: 8.95,
    });
    expect(await s.balanceCents(u.id)).toBe(before + PRIORITY_CENTS);
    expect((await listed(u, orderId)) as unknown).toMatchObject({ refundedCount: 1 });

    // Every unused one: the two left; the failed row has nothing to refund.
    const all = await batchRefund(u, orderId);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toMatchObject({ asked: 2, refunded: 2, skipped: 0, credited: 17.9 });
    // Again: nothing left.
    expect((await batchRefund(u, orderId)).json()).toMatchObject({
      asked: 0,
      refunded: 0,
      message: 'No unused labels to refund.',
    });
    await expectLedgerSums(u.id, before + 3 * PRIORITY_CENTS);

    const order = await s.db('bulk_orders').where({ id: orderId }).first();
    expect(order).toMatchObject({ processed_count: 0, failed_count: 1, refunded_count: 3, total_count: 4 });
    expect((await batchLabels(u, orderId)).map((l) => l.refundStatus)).toEqual([
      'refunded',
      'refunded',
      'refunded',
      null,
    ]);
    expect((await results(u, orderId)).map((r) => r.status)).toEqual(['refunded', 'refunded', 'refunded', 'failed']);
  }, 60_000);

  test('someone else’s batch is not found, and their labels cannot be named in mine', async () => {
    special = 'buy';
    const owner = await funded(10_000);
    const other = await funded(10_000);
    const orderId = await submit(owner, items(1));
    const otherOrder = await submit(other, items(1));
    await waitForStatus(s, orderId);
    await waitForStatus(s, otherOrder);
    expect((await batchRefund(other, orderId)).statusCode).toBe(404);
    expect((await call(s, other, 'GET', `/api/orders/bulk/labels/${orderId}`)).statusCode).toBe(404);
    const theirs = (await rowsOf(otherOrder))[0].id;
    const named = await batchRefund(owner, orderId, [theirs]);
    expect(named.json()).toMatchObject({ asked: 1, refunded: 0, skipped: 1 });
    expect((await rowsOf(otherOrder))[0].refund_status).toBeNull();
  }, 60_000);
});
