import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSandboxCarrier } from '@flatship/carriers';
import { type BusMessage, DEAD_LETTER_HEADERS, deadLetterTopic } from '@flatship/kit/bus';
import type { CarrierPort } from '@flatship/orders/worker';
import { TOPICS } from '@flatship/proto';
import { PDFDocument, type PDFPage } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bulkItems, call, newOrderId, processBulk } from '../../orders/test/bulk-support';
import { crashHolderOf, createCuttableLedger } from '../../orders/test/crash';
import { type TestUser, user } from '../../orders/test/support';
import { LABEL_WORKER_GROUP } from '../src/worker';
import { parseDelimited, startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// The whole bulk flow: orders with real pricing and payments, the outbox relayed to the postgres
// bus, and the label worker buying from the sandbox carrier.
const PRIORITY_CENTS = 895;
/** Recipients named like this fail while `flaky` is on, so a retry can recover them. */
const FLAKY = 'Flaky Receiver';
let flaky = true;
const sandbox = createSandboxCarrier();
const carrier: CarrierPort = {
  purchaseLabel: async (req) =>
    flaky && req.to.name === FLAKY
      ? { ok: false, message: 'Address validation failed: try later.', retryable: false }
      : sandbox.purchaseLabel(req),
};

const ledger = createCuttableLedger();

let s: WorkerStack;
beforeAll(async () => {
  s = await startWorkerStack({ carrier, ledger: ledger.wrap });
});
afterAll(() => s.close());

async function funded(cents: number): Promise<TestUser> {
  const u = user(s);
  await s.setBalance(u.id, cents);
  return u;
}

async function submit(u: TestUser, items: unknown[], extra: { source?: string; fileName?: string } = {}) {
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, { orderId, orderData: items, ...extra });
  expect(res.statusCode).toBe(202);
  return orderId;
}

async function expectLedgerSums(userId: string, balanceCents: number) {
  expect(await s.balanceCents(userId)).toBe(balanceCents);
  const sum = (await s.ledgerEntries(userId)).reduce((acc, e) => acc + Number(e.amount_cents), 0);
  expect(sum).toBe(balanceCents);
}

const contentOf = (page: PDFPage) => {
  const contents = page.node.Contents();
  return contents ? Buffer.from(contents.toString()) : Buffer.alloc(0);
};

/** Amazon's shipping-confirmation upload columns. */
const AUTO_CONFIRM_HEADER = [
  'order-id',
  'order-item-id',
  'quantity',
  'ship-date',
  'carrier-code',
  'carrier-name',
  'tracking-number',
  'ship-method',
];

async function download(u: TestUser, type: string, orderId: string) {
  const res = await s.app.inject({ url: `/api/orders/download/${type}/${orderId}`, headers: { token: u.token } });
  return res;
}

test('a malformed label.requested goes to label.requested.dlq, and an order published after it completes', async () => {
  const dead: BusMessage[] = [];
  const dlq = await s.bus.subscribe({
    group: `dlq-reader-${Date.now()}`,
    topics: [deadLetterTopic(TOPICS.labelRequested)],
    handler: async (m) => void dead.push(m),
  });
  try {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    // A bad event already waiting must not hold up the rows published after it.
    await s.bus.publish(TOPICS.labelRequested, [{ key: orderId, value: { bulkOrderId: orderId, labelId: 42 } }]);
    const res = await processBulk(s, u, { orderId, orderData: bulkItems(3) });
    expect(res.statusCode).toBe(202);
    expect(await waitForStatus(s, orderId)).toMatchObject({ status: 'completed' });
    const deadline = Date.now() + 15_000;
    while (dead.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));

    expect(dead.map((m) => m.value)).toEqual([{ bulkOrderId: orderId, labelId: 42 }]);
    expect(dead[0]!.headers).toMatchObject({
      [DEAD_LETTER_HEADERS.reason]: 'schema',
      [DEAD_LETTER_HEADERS.topic]: TOPICS.labelRequested,
      [DEAD_LETTER_HEADERS.group]: LABEL_WORKER_GROUP,
    });
  } finally {
    await dlq.close();
  }
});

describe('a 50-row order', () => {
  let u: TestUser;
  let orderId: string;
  let startedAt: number;
  let finishedAt: number;
  beforeAll(async () => {
    u = await funded(100_000);
    startedAt = Date.now();
    orderId = await submit(u, bulkItems(50), { fileName: 'fifty.csv' });
    await waitForStatus(s, orderId);
    finishedAt = Date.now();
  }, 120_000);

  test('completes: every row bought once, counts match the rows, one charge and no refund', async () => {
    const order = await s.db('bulk_orders').where({ id: orderId }).first();
    expect(order).toMatchObject({ status: 'completed', total_count: 50, processed_count: 50, failed_count: 0 });
    const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
    expect(rows.every((r) => r.status === 'completed' && r.tracking_number && r.pdf_name)).toBe(true);
    expect(new Set(rows.map((r) => r.tracking_number)).size).toBe(50);
    const entries = await s.ledgerEntries(u.id);
    expect(entries.filter((e) => e.kind !== 'admin_adjustment').map((e) => e.idempotency_key)).toEqual([
      `bulk:${orderId}`,
    ]);
    await expectLedgerSums(u.id, 100_000 - 50 * PRIORITY_CENTS);
    const purchased = await s.db
      .withSchema('bus')
      .from('messages')
      .where({ topic: 'label.purchased' })
      .whereRaw(`value->>'bulkOrderId' = ?`, [orderId]);
    expect(purchased).toHaveLength(50);
    expect(new Set(purchased.map((m) => m.value.labelId)).size).toBe(50);
    // What the carrier charged the platform is kept on each row and sent with its label.purchased, as for a single
    // label: the dashboard's cost and margin count bulk labels too.
    const costs = new Map(rows.map((r) => [r.id, r.carrier_cost_cents]));
    expect(rows.every((r) => r.carrier_cost_cents > 0)).toBe(true);
    for (const m of purchased) expect(m.value.carrierCostCents).toBe(costs.get(m.value.labelId));
  });

  test('the merged PDF has 50 pages, each the label of its row, in row order', async () => {
    const res = await download(u, 'pdf', orderId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const day = new Date((await s.db('bulk_orders').where({ id: orderId }).first()).created_at)
      .toISOString()
      .slice(5, 10);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Labels_${day}.pdf"`);
    const merged = await PDFDocument.load(res.rawPayload);
    expect(merged.getPageCount()).toBe(50);
    const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
    for (const [i, r] of rows.entries()) {
      const own = await PDFDocument.load(await readFile(join(s.filesDir, 'labels', u.id, r.pdf_name)));
      expect(contentOf(merged.getPage(i)).equals(contentOf(own.getPage(0)))).toBe(true);
    }
    expect(contentOf(merged.getPage(0)).equals(contentOf(merged.getPage(1)))).toBe(false);
  });

  test('the results CSV has every input column and each row with status, tracking number and error', async () => {
    const res = await download(u, 'result-csv', orderId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Order_Results_\d\d-\d\d\.csv"$/);
    const [header, ...lines] = parseDelimited(res.body);
    for (const column of [
      'order_id',
      'order_item_id',
      'sku_number',
      'quantity',
      'sender_name',
      'sender_address1',
      'receiver_name',
      'receiver_address1',
      'receiver_zip_postal',
      'package_length',
      'package_weight',
      'package_description',
      'status',
      'tracking_number',
      'error',
    ]) {
      expect(header).toContain(column);
    }
    expect(lines).toHaveLength(50);
    const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
    const col = (name: string) => (header as string[]).indexOf(name);
    lines.forEach((line, i) => {
      expect(line[col('receiver_name')]).toBe(`Receiver ${i}`);
      expect(line[col('status')]).toBe('success');
      expect(line[col('tracking_number')]).toBe(rows[i].tracking_number);
      expect(line[col('error')]).toBe('');
    });
  });

  test('is listed with its files, and the file check says all exist (no auto-confirm for a CSV order)', async () => {
    const list = (await call(s, u, 'GET', `/api/orders/bulk/${u.id}`)).json().bulkOrders;
    expect(list[0]).toMatchObject({
      _id: orderId,
      status: 'completed',
      processedCount: 50,
      failedCount: 0,
      totalCount: 50,
      failedLabels: [],
      bulkOrderData: { cost: (50 * PRIORITY_CENTS) / 100 },
      pdfName: expect.stringMatching(/^Labels_\d\d-\d\d\.pdf$/),
      resultCSVName: expect.stringMatching(/^Order_Results_\d\d-\d\d\.csv$/),
      autoConfirmCSVName: null,
    });
    const files = (await call(s, u, 'GET', `/api/orders/bulk/files/${orderId}`)).json();
    expect(files).toMatchObject({ pdf: true, resultCSV: true, autoConfirm: false });
    const auto = await download(u, 'auto-csv', orderId);
    expect(auto.statusCode).toBe(404);
    expect(auto.json().message).toBe(
      'A CSV template order has no tracking file: the Results CSV lists every tracking number.',
    );
  });

  test('progress went out throttled: a few events a second at most, the last one final with its files', async () => {
    const events = await s.db
      .withSchema('bus')
      .from('messages')
      .where({ topic: 'bulk.progress', key: orderId })
      .orderBy('created_at');
    const seconds = (finishedAt - startedAt) / 1000;
    expect(events.length).toBeGreaterThanOrEqual(2);
    // The throttle allows 4 a second; the outbox adds the submitted and final events.
    expect(events.length).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 4);
    const last = events.at(-1)?.value;
    expect(last).toMatchObject({ orderId, status: 'completed', processedCount: 50, totalCount: 50 });
    expect(last.fileData.pdfName).toMatch(/^Labels_/);
  });

  test('retry with nothing failed is refused: No failed labels found', async () => {
    const res = await call(s, u, 'POST', `/api/orders/bulk/retry-failed/${orderId}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: 'No failed labels found' });
  });
});

test('an Amazon order also gets the shipping-confirmation TSV: its columns, one line per label, yyyy-mm-dd dates', async () => {
  const u = await funded(100_000);
  const orderId = await submit(u, bulkItems(4), { source: 'amazon', fileName: 'amazon.txt' });
  await waitForStatus(s, orderId);
  const res = await download(u, 'auto-csv', orderId);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/tab-separated-values; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Auto_Confirm_\d\d-\d\d\.tsv"$/);
  const [header, ...lines] = parseDelimited(res.body, '\t');
  expect(header).toEqual(AUTO_CONFIRM_HEADER);
  const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  expect(lines).toEqual(
    rows.map((r, i) => [
      `112-${1000000 + i}`,
      `item-${i}`,
      String(1 + (i % 3)),
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      'USPS',
      'USPS',
      r.tracking_number,
      'USPS Priority Mail',
    ]),
  );
  const files = (await call(s, u, 'GET', `/api/orders/bulk/files/${orderId}`)).json();
  expect(files).toMatchObject({ pdf: true, resultCSV: true, autoConfirm: true });
});

describe('buyer text a spreadsheet would run as a formula', () => {
  const HYPERLINK = '=HYPERLINK("http://x","y")';
  const SUM = '@SUM(1+1)';
  const CMD = "+cmd|' /C calc'!A0";
  const MINUS = '-2+3';
  /** A cell a spreadsheet would run: `= + @`, tab or CR first, or `-` first without being a plain number. */
  const isLive = (cell: string) => /^[=+@\t\r]/.test(cell) || /^-(?!\d+(\.\d+)?$)/.test(cell);

  let u: TestUser;
  let orderId: string;
  beforeAll(async () => {
    u = await funded(100_000);
    const items = bulkItems(3, (i) =>
      i === 0
        ? {
            receiver: { receiver_name: HYPERLINK, receiver_address1: SUM, receiver_company: MINUS },
            package: { package_reference1: CMD, package_reference2: '-5', package_description: '-0.25' },
          }
        : {},
    );
    // Marketplace ids come from the buyer's file too.
    items[1]!.sender.order_id = MINUS;
    items[1]!.package.order_item_id = SUM;
    items[2]!.sender.order_id = HYPERLINK;
    orderId = await submit(u, items, { source: 'amazon', fileName: 'amazon.txt' });
    await waitForStatus(s, orderId);
  }, 60_000);

  test('is written as text in the results CSV: a quote in front, plain negative numbers left as numbers', async () => {
    const res = await download(u, 'result-csv', orderId);
    expect(res.statusCode).toBe(200);
    const [header, ...lines] = parseDelimited(res.body);
    const col = (name: string) => (header as string[]).indexOf(name);
    expect(lines).toHaveLength(3);
    const first = lines[0] as string[];
    expect(first[col('status')]).toBe('success');
    expect(first[col('receiver_name')]).toBe(`'${HYPERLINK}`);
    expect(first[col('receiver_address1')]).toBe(`'${SUM}`);
    expect(first[col('receiver_company')]).toBe(`'${MINUS}`);
    expect(first[col('package_reference1')]).toBe(`'${CMD}`);
    expect(first[col('package_reference2')]).toBe('-5');
    expect(first[col('package_description')]).toBe('-0.25');
    expect(lines[1]?.[col('order_id')]).toBe(`'${MINUS}`);
    expect(lines[1]?.[col('order_item_id')]).toBe(`'${SUM}`);
    expect(lines[2]?.[col('order_id')]).toBe(`'${HYPERLINK}`);
    expect(lines.flat().filter(isLive)).toEqual([]);
  });

  test('is written as text in the Amazon confirmation TSV, whose ordinary values stay as they were', async () => {
    const res = await download(u, 'auto-csv', orderId);
    expect(res.statusCode).toBe(200);
    const [header, ...lines] = parseDelimited(res.body, '\t');
    expect(header).toEqual(AUTO_CONFIRM_HEADER);
    const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
    expect(lines).toEqual([
      [
        '112-1000000',
        'item-0',
        '1',
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        'USPS',
        'USPS',
        rows[0].tracking_number,
        'USPS Priority Mail',
      ],
      [
        `'${MINUS}`,
        `'${SUM}`,
        '2',
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        'USPS',
        'USPS',
        rows[1].tracking_number,
        'USPS Priority Mail',
      ],
      [
        `'${HYPERLINK}`,
        'item-2',
        '3',
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        'USPS',
        'USPS',
        rows[2].tracking_number,
        'USPS Priority Mail',
      ],
    ]);
    expect(lines.flat().filter(isLive)).toEqual([]);
  });
});

describe('failing rows', () => {
  test('are refunded once each; the order completes with errors and lists them; the results CSV says why', async () => {
    const u = await funded(100_000);
    const failing = new Set([1, 4, 7]);
    const orderId = await submit(
      u,
      bulkItems(10, (i) => (failing.has(i) ? { receiver: { receiver_name: 'FAIL' } } : {})),
    );
    await waitForStatus(s, orderId);
    const order = await s.db('bulk_orders').where({ id: orderId }).first();
    expect(order).toMatchObject({ status: 'completed_with_errors', processed_count: 7, failed_count: 3 });
    const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
    expect(rows.filter((r) => r.status === 'cancelled').map((r) => r.row_index)).toEqual([1, 4, 7]);
    expect(rows.filter((r) => r.status === 'cancelled').every((r) => r.refunded)).toBe(true);

    const refunds = (await s.ledgerEntries(u.id)).filter((e) => e.kind === 'label_refund');
    expect(refunds.map((e) => [e.idempotency_key, Number(e.amount_cents)]).sort()).toEqual(
      rows
        .filter((r) => r.status === 'cancelled')
        .map((r) => [`bulk-refund:${r.id}:0`, PRIORITY_CENTS])
        .sort(),
    );
    await expectLedgerSums(u.id, 100_000 - 7 * PRIORITY_CENTS);

    const listed = (await call(s, u, 'GET', `/api/orders/bulk/${u.id}`)).json().bulkOrders[0];
    expect(listed.failedLabels).toEqual(
      [1, 4, 7].map((rowIndex) => ({
        rowIndex,
        error: 'Address validation failed: the recipient address could not be verified.',
      })),
    );
    const merged = await PDFDocument.load((await download(u, 'pdf', orderId)).rawPayload);
    expect(merged.getPageCount()).toBe(7);
    const [header, ...lines] = parseDelimited((await download(u, 'result-csv', orderId)).body);
    const col = (name: string) => (header as string[]).indexOf(name);
    expect(lines[4]?.[col('status')]).toBe('failed');
    expect(lines[4]?.[col('error')]).toBe('Address validation failed: the recipient address could not be verified.');
    expect(lines[4]?.[col('tracking_number')]).toBe('');
  });

  test('an order where every row fails ends failed, fully refunded, with a results CSV and no PDF', async () => {
    const u = await funded(10_000);
    const orderId = await submit(
      u,
      bulkItems(3, () => ({ receiver: { receiver_name: 'FAIL' } })),
    );
    await waitForStatus(s, orderId);
    const order = await s.db('bulk_orders').where({ id: orderId }).first();
    expect(order).toMatchObject({ status: 'failed', processed_count: 0, failed_count: 3, pdf_name: null });
    await expectLedgerSums(u.id, 10_000);
    expect((await download(u, 'pdf', orderId)).statusCode).toBe(404);
    expect((await download(u, 'result-csv', orderId)).statusCode).toBe(200);
  });

  test('retry-failed charges the failed rows once more, recovers what it can and refunds the rest once', async () => {
    flaky = true;
    const u = await funded(100_000);
    const orderId = await submit(
      u,
      bulkItems(6, (i) =>
        i === 2 || i === 3
          ? { receiver: { receiver_name: FLAKY } }
          : i === 5
            ? { receiver: { receiver_name: 'FAIL' } }
            : {},
      ),
    );
    await waitForStatus(s, orderId);
    expect(await s.db('bulk_orders').where({ id: orderId }).first()).toMatchObject({
      status: 'completed_with_errors',
      processed_count: 3,
      failed_count: 3,
    });

    flaky = false;
    const res = await call(s, u, 'POST', `/api/orders/bulk/retry-failed/${orderId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: '2 labels recovered. 1 still failed.',
      fileData: {
        pdfName: expect.stringMatching(/^Labels_/),
        resultCSVName: expect.stringMatching(/^Order_Results_/),
        autoConfirmCSVName: null,
      },
      finalProcessedCount: 5,
      finalFailedCount: 1,
      finalRefundedCount: 0,
      status: 'completed_with_errors',
      updatedTotalCount: 6,
      newlySuccessfulCount: 2,
    });
    const keys = (await s.ledgerEntries(u.id))
      .filter((e) => e.kind !== 'admin_adjustment')
      .map((e) => e.idempotency_key);
    expect(keys.filter((k) => k.startsWith('bulk:'))).toEqual([`bulk:${orderId}`]);
    expect(keys.filter((k) => k.startsWith('bulk-retry:'))).toEqual([`bulk-retry:${orderId}:1`]);
    expect(keys.filter((k) => k.startsWith('bulk-refund:'))).toHaveLength(3 + 1);
    await expectLedgerSums(u.id, 100_000 - 5 * PRIORITY_CENTS);
    const merged = await PDFDocument.load((await download(u, 'pdf', orderId)).rawPayload);
    expect(merged.getPageCount()).toBe(5);
  });
});

describe('fix and the sweeper', () => {
  test('fix reconciles wrong counts and regenerates missing files', async () => {
    const u = await funded(100_000);
    const orderId = await submit(u, bulkItems(3));
    await waitForStatus(s, orderId);
    await s.db('bulk_orders').where({ id: orderId }).update({ processed_count: 1, status: 'completed_with_errors' });
    const { rm } = await import('node:fs/promises');
    await rm(join(s.filesDir, 'bulk', u.id, orderId), { recursive: true, force: true });
    expect((await download(u, 'pdf', orderId)).statusCode).toBe(404);

    const res = await call(s, u, 'POST', `/api/orders/bulk/fix/${orderId}`);
    expect(res.statusCode).toBe(200);
    const files = (await call(s, u, 'GET', `/api/orders/bulk/files/${orderId}`)).json();
    expect(files).toMatchObject({ pdf: true, resultCSV: true });
    expect(files.fileData.pdfName).toMatch(/\.pdf$/);
    // The reply names the regenerated files, so the progress screen offers them without another call.
    expect(res.json()).toEqual({
      message: 'Batch order fixed',
      status: 'completed',
      processedCount: 3,
      failedCount: 0,
      refundedCount: 0,
      totalCount: 3,
      fileData: files.fileData,
    });
    expect((await download(u, 'pdf', orderId)).statusCode).toBe(200);
  });

  test('fix re-queues rows whose requests were lost, and the order completes without buying anything twice', async () => {
    const u = await funded(100_000);
    await s.stopWorker();
    const orderId = await submit(u, bulkItems(4));
    // The requests vanish before any worker sees them.
    await s.outbox.flush();
    await s.db
      .withSchema('bus')
      .from('messages')
      .where({ topic: 'label.requested' })
      .whereRaw(`value->>'bulkOrderId' = ?`, [orderId])
      .delete();
    await s.startWorker();
    const res = await call(s, u, 'POST', `/api/orders/bulk/fix/${orderId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'processing', processedCount: 0, totalCount: 4 });
    await waitForStatus(s, orderId);
    const order = await s.db('bulk_orders').where({ id: orderId }).first();
    expect(order).toMatchObject({ status: 'completed', processed_count: 4, failed_count: 0 });
    await expectLedgerSums(u.id, 100_000 - 4 * PRIORITY_CENTS);
  });

  test('the sweeper finishes an order stuck generating files', async () => {
    const u = await funded(100_000);
    const orderId = await submit(u, bulkItems(2));
    await waitForStatus(s, orderId);
    await s
      .db('bulk_orders')
      .where({ id: orderId })
      .update({
        status: 'generating_files',
        pdf_name: null,
        result_csv_name: null,
        last_progress_at: new Date(Date.now() - 10 * 60_000),
      });
    const { sweepStalledBulkOrders } = await import('@flatship/orders/worker');
    const swept = await sweepStalledBulkOrders({ ...s.workerDeps, now: () => new Date() }, { stallMs: 60_000 });
    expect(swept).toBeGreaterThanOrEqual(1);
    const order = await s.db('bulk_orders').where({ id: orderId }).first();
    expect(order).toMatchObject({ status: 'completed', pdf_name: expect.stringMatching(/^Labels_/) });
  });

  test('the sweeper refunds an order charged but never given its rows', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    // As if the process request died between the charge and storing the rows.
    await s
      .db('bulk_orders')
      .where({ id: orderId })
      .update({
        charge_key: `bulk:${orderId}`,
        cost_cents: 1790,
        last_progress_at: new Date(Date.now() - 10 * 60_000),
      });
    await s.internalPayments('/internal/ledger/charge', { userId: u.id, amountCents: 1790, key: `bulk:${orderId}` });
    expect(await s.balanceCents(u.id)).toBe(10_000 - 1790);
    const { sweepStalledBulkOrders } = await import('@flatship/orders/worker');
    await sweepStalledBulkOrders({ ...s.workerDeps, now: () => new Date() }, { stallMs: 60_000 });
    expect(await s.db('bulk_orders').where({ id: orderId }).first()).toMatchObject({ status: 'failed' });
    await expectLedgerSums(u.id, 10_000);
  });
});

describe('a submit cut off by a crash after payments took the money', () => {
  test('sent again, it completes the order without charging again', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    const body = { orderId, orderData: bulkItems(3) };
    const cut = ledger.cut('after-charge');
    const cutOff = processBulk(s, u, body);
    const hang = await cut;
    // The process submitting it dies: its transaction rolls back and lets go of the order.
    await crashHolderOf(s.db, 'bulk_orders', orderId);

    expect((await processBulk(s, u, body)).statusCode).toBe(202);
    const order = await waitForStatus(s, orderId);
    expect(order).toMatchObject({ status: 'completed', processed_count: 3, failed_count: 0 });
    const charges = (await s.ledgerEntries(u.id)).filter((e) => e.kind === 'label_charge');
    expect(charges.map((e) => e.idempotency_key)).toEqual([`bulk:${orderId}`]);
    await expectLedgerSums(u.id, 10_000 - 3 * PRIORITY_CENTS);

    await hang.release('fail');
    await cutOff;
    await expectLedgerSums(u.id, 10_000 - 3 * PRIORITY_CENTS);
  });
});
