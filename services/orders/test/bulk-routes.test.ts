import { randomUUID } from 'node:crypto';
import { BULK_MAX_ROWS } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bulkItems, call, initBulk, newOrderId, processBulk } from './bulk-support';
import { fundedUser, type Stack, startStack } from './stack';
import { INTERNAL_SECRET, outboxRows, user } from './support';

// The bulk routes of orders with the real pricing and payments services, and no label worker:
// what happens up to the queue, and every refusal.
const PRIORITY_CENTS = 895;
let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(() => s.close());

const funded = (cents: number) => fundedUser(s, cents);

describe('POST /api/orders/bulk/init', () => {
  test('creates an order for the caller and answers its id', async () => {
    const u = user(s);
    const res = await initBulk(s, u);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Bulk order initialized', data: { orderId: expect.any(String) } });
  });

  test('another user id is refused with 403; no token with 401', async () => {
    const u = user(s);
    expect((await initBulk(s, u, user(s).id)).statusCode).toBe(403);
    const res = await s.app.inject({ method: 'POST', url: '/api/orders/bulk/init', payload: { userId: u.id } });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/orders/bulk/process/{userId}', () => {
  test('charges the server price once, stores every row and queues one label.requested per row', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    const res = await processBulk(s, u, { orderId, orderData: bulkItems(3), fileName: 'orders.csv' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({
      message: 'Bulk order accepted. Labels are being created.',
      data: { orderId, totalCount: 3, price: (3 * PRIORITY_CENTS) / 100 },
    });
    expect(await s.balanceCents(u.id)).toBe(10_000 - 3 * PRIORITY_CENTS);
    const charges = (await s.ledgerEntries(u.id)).filter((e) => e.kind === 'label_charge');
    expect(charges.map((e) => [e.idempotency_key, Number(e.amount_cents)])).toEqual([
      [`bulk:${orderId}`, -3 * PRIORITY_CENTS],
    ]);
    const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
    expect(rows.map((r) => [r.row_index, r.status, r.price_cents, r.charge_key])).toEqual([
      [0, 'pending', PRIORITY_CENTS, `bulk:${orderId}`],
      [1, 'pending', PRIORITY_CENTS, `bulk:${orderId}`],
      [2, 'pending', PRIORITY_CENTS, `bulk:${orderId}`],
    ]);
    const requested = (await outboxRows(s)).filter(
      (e) => e.topic === 'label.requested' && e.value.bulkOrderId === orderId,
    );
    expect(requested.map((e) => e.key).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(requested.every((e) => e.value.attempt === 0 && e.value.userId === u.id)).toBe(true);
  });

  test('rows whose ZIP does not exist or is in another state are bought, and the answer names them', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    const items = bulkItems(3, (i) =>
      i === 1
        ? { receiver: { receiver_zip_postal: '00000' } }
        : i === 2
          ? { receiver: { receiver_zip_postal: '10001' } }
          : {},
    );
    const res = await processBulk(s, u, { orderId, orderData: items });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().addressWarnings).toEqual([
      { rowIndex: 1, message: 'Recipient ZIP 00000 does not exist' },
      { rowIndex: 2, message: `Recipient ZIP 10001 is in NY, not ${items[2]?.receiver.receiver_state_province}` },
    ]);
    expect(res.json().data.totalCount).toBe(3);
  });

  test('rows with problems refuse the whole order, naming each bad row; nothing is charged or stored', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    const items = bulkItems(4, (i) =>
      i === 2 ? { receiver: { receiver_zip_postal: '' } } : i === 3 ? { package: { package_weight: -1 } } : {},
    );
    const res = await processBulk(s, u, { orderId, orderData: items });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'ORDERS_INVALID',
      message: 'Row 3: Recipient zip is required; Row 4: Weight must be a positive number',
    });
    expect(await s.ledgerEntries(u.id)).toHaveLength(1);
    expect(await s.db('labels').where({ bulk_order_id: orderId })).toHaveLength(0);
  });

  test('a row without a service gets the bulk screen wording, and long lists are summed up', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    const res = await processBulk(s, u, { orderId, orderData: bulkItems(8, () => ({ service_name: ' ' })) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      [1, 2, 3, 4, 5].map((n) => `Row ${n}: Service name must be selected from the dropdown`).join('; ') +
        '; and 3 more row(s)',
    );
  });

  test('a short balance refuses the whole order with what it costs and what there is; it can be sent again after a top-up', async () => {
    const u = await funded(2000);
    const orderId = await newOrderId(s, u);
    const res = await processBulk(s, u, { orderId, orderData: bulkItems(3) });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      code: 'PAYMENTS_INSUFFICIENT_BALANCE',
      message: 'Insufficient balance. This order costs $26.85 but your balance is $20.00.',
    });
    expect(await s.balanceCents(u.id)).toBe(2000);
    expect(await s.db('labels').where({ bulk_order_id: orderId })).toHaveLength(0);

    await s.setBalance(u.id, 3000);
    const again = await processBulk(s, u, { orderId, orderData: bulkItems(3) });
    expect(again.statusCode).toBe(202);
    expect(await s.balanceCents(u.id)).toBe(3000 - 3 * PRIORITY_CENTS);
  });

  test('an order is submitted once: a second process is refused with 409 and charges nothing', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    expect((await processBulk(s, u, { orderId, orderData: bulkItems(1) })).statusCode).toBe(202);
    const again = await processBulk(s, u, { orderId, orderData: bulkItems(1) });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This bulk order has already been submitted');
    expect(await s.balanceCents(u.id)).toBe(10_000 - PRIORITY_CENTS);
  });

  test("another user's path is 403, another user's order id is 404, an empty order is 400", async () => {
    const u = await funded(10_000);
    const other = await funded(10_000);
    const theirs = await newOrderId(s, other);
    expect((await processBulk(s, u, { orderId: theirs, orderData: bulkItems(1) }, other.id)).statusCode).toBe(403);
    const mine = await processBulk(s, u, { orderId: theirs, orderData: bulkItems(1) });
    expect(mine.statusCode).toBe(404);
    expect(mine.json()).toEqual({ code: 'NOT_FOUND', message: 'Bulk order not found' });
    const empty = await processBulk(s, u, { orderId: await newOrderId(s, u), orderData: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('The order has no rows');
  });

  test('an order of more rows than one may have is refused naming the list and its maximum, nothing stored', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    const res = await processBulk(s, u, { orderId, orderData: bulkItems(BULK_MAX_ROWS + 1) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: `orderData must have at most ${BULK_MAX_ROWS} items`,
    });
    const ok = await processBulk(s, u, { orderId, orderData: bulkItems(1) });
    expect(ok.statusCode, ok.body).toBe(202);
  });
});

describe('an order whose labels are still being bought', () => {
  test('is listed as processing; its files are not ready (202) and retry is refused with 409', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    await processBulk(s, u, { orderId, orderData: bulkItems(2), source: 'amazon', fileName: 'amz.txt' });

    const list = await call(s, u, 'GET', `/api/orders/bulk/${u.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().bulkOrders).toEqual([
      expect.objectContaining({
        _id: orderId,
        status: 'processing',
        source: 'amazon',
        fileName: 'amz.txt',
        totalCount: 2,
        processedCount: 0,
        failedCount: 0,
        failedLabels: [],
        bulkOrderData: { cost: 17.9 },
        pdfName: null,
        stuckAt: null,
      }),
    ]);

    const download = await call(s, u, 'GET', `/api/orders/download/pdf/${orderId}`);
    expect(download.statusCode).toBe(202);
    expect(download.json()).toEqual({ message: 'File is still being processed. Please try again in a few moments.' });
    const files = await call(s, u, 'GET', `/api/orders/bulk/files/${orderId}`);
    expect(files.json()).toEqual({
      pdf: false,
      resultCSV: false,
      autoConfirm: false,
      fileData: { pdfName: null, resultCSVName: null, autoConfirmCSVName: null },
    });
    const retry = await call(s, u, 'POST', `/api/orders/bulk/retry-failed/${orderId}`);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().message).toBe('This order is already being processed');
  });

  test("another user gets 403 for the list and 404 for the order's files, retry and fix; an admin may see them", async () => {
    const u = await funded(10_000);
    const other = user(s);
    const orderId = await newOrderId(s, u);
    await processBulk(s, u, { orderId, orderData: bulkItems(1) });
    expect((await call(s, other, 'GET', `/api/orders/bulk/${u.id}`)).statusCode).toBe(403);
    for (const url of [`/api/orders/bulk/files/${orderId}`, `/api/orders/download/pdf/${orderId}`]) {
      const res = await call(s, other, 'GET', url);
      expect(res.statusCode).toBe(404);
    }
    expect((await call(s, other, 'GET', `/api/orders/download/pdf/${orderId}`)).json().message).toBe('File not found');
    for (const url of [`/api/orders/bulk/retry-failed/${orderId}`, `/api/orders/bulk/fix/${orderId}`]) {
      expect((await call(s, other, 'POST', url)).statusCode).toBe(404);
    }
    const admin = user(s, 'admin');
    expect((await call(s, admin, 'GET', `/api/orders/bulk/${u.id}`)).json().bulkOrders).toHaveLength(1);
    expect((await call(s, admin, 'GET', `/api/orders/bulk/files/${orderId}`)).statusCode).toBe(200);
  });

  test('an unknown download type or order is 404 File not found', async () => {
    const u = user(s);
    const orderId = await newOrderId(s, u);
    for (const url of [`/api/orders/download/zip/${orderId}`, `/api/orders/download/pdf/${randomUUID()}`]) {
      const res = await call(s, u, 'GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'FILE_NOT_FOUND', message: 'File not found' });
    }
    const malformed = await call(s, u, 'GET', '/api/orders/download/pdf/not-an-id');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'orderId is not a valid id' });
  });
});

describe('download links of bulk order files', () => {
  const linkFor = (u: { token: string }, path: string) =>
    s.app.inject({ method: 'POST', url: '/api/orders/download-token', headers: { token: u.token }, payload: { path } });

  test('a link opens the one file of the one order it was made for', async () => {
    const u = await funded(10_000);
    const [a, b] = [await newOrderId(s, u), await newOrderId(s, u)];
    await processBulk(s, u, { orderId: a, orderData: bulkItems(1) });
    await processBulk(s, u, { orderId: b, orderData: bulkItems(1) });
    const link = await linkFor(u, `/api/orders/download/pdf/${a}`);
    expect(link.statusCode).toBe(200);
    const { url, token } = link.json();
    expect(url).toBe(`/api/orders/download/pdf/${a}?token=${token}`);
    // Still processing: admitted, and told to wait.
    expect((await s.app.inject({ url })).statusCode).toBe(202);
    for (const other of [`/api/orders/download/result-csv/${a}`, `/api/orders/download/pdf/${b}`]) {
      const res = await s.app.inject({ url: `${other}?token=${token}` });
      expect(res.statusCode, other).toBe(401);
      expect(res.json().code).toBe('DOWNLOAD_LINK_INVALID');
    }
    const sessionInQuery = await s.app.inject({ url: `/api/orders/download/pdf/${a}?token=${u.token}` });
    expect(sessionInQuery.statusCode).toBe(401);
  });

  test("another user gets no link to someone's order (404 File not found); an admin does", async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    // From Amazon, which takes a confirmation file (a CSV template order has none, and says so).
    await processBulk(s, u, { orderId, orderData: bulkItems(1), source: 'amazon' });
    for (const path of [`/api/orders/download/auto-csv/${orderId}`, `/api/orders/download/pdf/${randomUUID()}`]) {
      const res = await linkFor(user(s), path);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'FILE_NOT_FOUND', message: 'File not found' });
    }
    const admin = await linkFor(user(s, 'admin'), `/api/orders/download/auto-csv/${orderId}`);
    expect(admin.statusCode).toBe(200);
    expect((await s.app.inject({ url: admin.json().url })).statusCode).toBe(202);
  });
});

describe('GET /internal/bulk-orders/:id', () => {
  test('answers owner and progress to a caller with the internal secret, 404 for an unknown order', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    await processBulk(s, u, { orderId, orderData: bulkItems(2) });
    const get = (id: string, secret?: string) =>
      s.app.inject({ url: `/internal/bulk-orders/${id}`, headers: secret ? { 'x-internal-secret': secret } : {} });
    expect((await get(orderId)).statusCode).toBe(403);
    const res = await get(orderId, INTERNAL_SECRET);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      orderId,
      userId: u.id,
      processedCount: 0,
      failedCount: 0,
      refundedCount: 0,
      totalCount: 2,
      status: 'processing',
      fileData: null,
    });
    expect((await get('00000000-0000-4000-8000-000000000000', INTERNAL_SECRET)).statusCode).toBe(404);
  });
});

describe('GET /api/orders/file/template', () => {
  test('serves the bulk CSV template without a token, as an attachment', async () => {
    const res = await s.app.inject({ url: '/api/orders/file/template' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Bulk_Template.csv"');
    const header = res.body.replace(/^\uFEFF/, '').split('\r\n')[0] ?? '';
    expect(header.split(',').length).toBeGreaterThan(20);
    expect(
      res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(1);
  });
});
