import type { AdminBulkOrdersReply, AdminLabelRow, AdminLabelsReply } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bulkItems, newOrderId, processBulk } from './bulk-support';
import { type Stack, startStack } from './stack';
import { orderBody, outboxRows, postOrder, type TestUser, user } from './support';

let s: Stack;
let admin: TestUser;
let ann: TestUser;
let bob: TestUser;
let annTracking: string[];
let bulkOrderId: string;

const get = (url: string, token = admin.token) => s.app.inject({ url, headers: { token } });
async function labels(query = ''): Promise<AdminLabelsReply> {
  const res = await get(`/api/orders/admin/labels${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AdminLabelsReply;
}
const refund = (id: string, token = admin.token) =>
  s.app.inject({ method: 'POST', url: `/api/orders/admin/labels/${id}/refund`, headers: { token } });

beforeAll(async () => {
  s = await startStack();
  admin = user(s, 'admin');
  ann = user(s);
  bob = user(s);
  await s.setBalance(ann.id, 500_00);
  await s.setBalance(bob.id, 500_00);
  annTracking = [];
  for (const name of ['Rita Receiver', 'Sam Shipper']) {
    const res = await postOrder(s, ann, orderBody(ann.id, { receiver: { receiver_name: name } as never }));
    expect(res.statusCode, res.body).toBe(201);
    annTracking.push(res.json().data.tracking_number);
  }
  const res = await postOrder(s, bob, orderBody(bob.id, { service_name: 'USPS Ground Advantage' }));
  expect(res.statusCode, res.body).toBe(201);
  bulkOrderId = await newOrderId(s, bob);
  const submitted = await processBulk(s, bob, { orderId: bulkOrderId, orderData: bulkItems(3), fileName: 'bob.csv' });
  expect(submitted.statusCode, submitted.body).toBe(202);
}, 60_000);
afterAll(() => s?.close());

describe('GET /api/orders/admin/labels', () => {
  test('every user’s labels, newest first, with their owner, price, receiver and file', async () => {
    const body = await labels();
    expect(body.totalCount).toBe(6);
    expect(body.page).toBe(1);
    expect(body.limit).toBe(25);
    const users = new Set(body.labels.map((l) => l.userId));
    expect(users).toEqual(new Set([ann.id, bob.id]));
    const times = body.labels.map((l) => l.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const rita = body.labels.find((l) => l.receiverName === 'Rita Receiver');
    expect(rita).toMatchObject({
      userId: ann.id,
      bulkOrderId: null,
      row: null,
      status: 'completed',
      serviceName: 'USPS Priority Mail',
      receiverPlace: 'Los Angeles, CA 90001',
      trackingNumber: annTracking[0],
      refunded: false,
      voidedAt: null,
    });
    expect(rita?.price).toBeGreaterThan(0);
    expect(rita?.pdfName).toMatch(/\.pdf$/);
  });

  test('filters by user, bulk order, status, service, tracking number and day, and pages', async () => {
    expect((await labels(`?userId=${ann.id}`)).totalCount).toBe(2);
    const rows = await labels(`?bulkOrderId=${bulkOrderId}`);
    expect(rows.labels.map((l) => l.row).sort()).toEqual([1, 2, 3]);
    expect(rows.labels.every((l) => l.status === 'pending' && l.userId === bob.id)).toBe(true);
    expect((await labels('?status=completed')).totalCount).toBe(3);
    const ground = await labels(`?userId=${bob.id}&status=completed`);
    expect((await labels(`?service=${ground.labels[0]?.serviceUid}`)).labels.map((l) => l.userId)).toContain(bob.id);
    // From the tracking number's serial: its first 12 digits (service code and mailer id) are the same on every label.
    const part = annTracking[1]?.slice(12, 21).toLowerCase() ?? '';
    expect((await labels(`?tracking=${part}`)).labels.map((l) => l.trackingNumber)).toEqual([annTracking[1]]);
    expect((await labels('?tracking=%25')).totalCount).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await labels(`?from=${today}&to=${today}`)).totalCount).toBe(6);
    expect((await labels('?from=2001-01-01&to=2001-12-31')).totalCount).toBe(0);
    const page2 = await labels('?limit=4&page=2');
    expect(page2.labels).toHaveLength(2);
    expect(page2.totalCount).toBe(6);
  });

  test('refuses a start after the end, a malformed user id, and anyone but an admin', async () => {
    const reversed = await get('/api/orders/admin/labels?from=2026-02-02&to=2026-02-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toBe('The start date must be on or before the end date');
    for (const [query, field, value] of [
      ['from=9999-12-31&to=9999-12-31', 'from', '9999-12-31'],
      ['from=0000-01-01', 'from', '0000-01-01'],
      ['to=9999-12-31', 'to', '9999-12-31'],
    ]) {
      const res = await get(`/api/orders/admin/labels?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toBe(`${field} must be between 2000-01-01 and 2100-12-31; got '${value}'`);
    }
    const impossible = await get('/api/orders/admin/labels?from=2026-02-30');
    expect(impossible.statusCode).toBe(400);
    expect(impossible.json().message).toBe("from must be a calendar date (YYYY-MM-DD); got '2026-02-30'");
    expect((await get('/api/orders/admin/labels?userId=nope')).statusCode).toBe(400);
    expect((await get('/api/orders/admin/labels', ann.token)).statusCode).toBe(403);
    expect((await s.app.inject({ url: '/api/orders/admin/labels' })).statusCode).toBe(401);
  });
});

describe('GET /api/orders/admin/bulk-orders', () => {
  test('every user’s submitted bulk orders, filtered by user and status', async () => {
    const res = await get('/api/orders/admin/bulk-orders');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as AdminBulkOrdersReply;
    expect(body.totalCount).toBe(1);
    expect(body.bulkOrders[0]).toMatchObject({
      _id: bulkOrderId,
      userId: bob.id,
      fileName: 'bob.csv',
      totalCount: 3,
      hasPdf: false,
      hasResultCsv: false,
    });
    expect(body.bulkOrders[0]?.cost).toBeGreaterThan(0);
    expect((await get(`/api/orders/admin/bulk-orders?userId=${ann.id}`)).json().totalCount).toBe(0);
    expect((await get('/api/orders/admin/bulk-orders?status=completed')).json().totalCount).toBe(0);
    expect((await get('/api/orders/admin/bulk-orders', bob.token)).statusCode).toBe(403);
  });
});

describe('POST /api/orders/admin/labels/{id}/refund', () => {
  test('gives the charge back naming the admin, voids the label and says label.refunded, once', async () => {
    const label = (await labels(`?tracking=${annTracking[0]}`)).labels[0] as AdminLabelRow;
    const before = await s.balanceCents(ann.id);
    const res = await refund(label._id);
    expect(res.statusCode, res.body).toBe(200);
    // The same flow as the owner's: voided at the carrier (the sandbox confirms at once), recorded as the admin's.
    expect(res.json()).toMatchObject({
      message: `Refunded. $${label.price.toFixed(2)} is back on the balance.`,
      label: {
        _id: label._id,
        status: 'void',
        refunded: true,
        voidedBy: admin.id,
        refundStatus: 'refunded',
        refundable: false,
      },
    });
    const row = await s.db('labels').where({ id: label._id }).first();
    expect(row).toMatchObject({ refund_status: 'refunded', refund_requested_by: admin.id, refund_by_admin: true });
    expect(await s.balanceCents(ann.id)).toBe(before + Math.round(label.price * 100));
    const entry = await s.paymentsDb('ledger_entries').where({ user_id: ann.id, kind: 'label_refund' }).first();
    expect(entry).toMatchObject({ admin_id: admin.id, amount_cents: String(Math.round(label.price * 100)) });
    const events = (await outboxRows(s)).filter((e) => e.topic === 'label.refunded');
    expect(events).toEqual([
      {
        topic: 'label.refunded',
        key: ann.id,
        value: expect.objectContaining({
          userId: ann.id,
          labelId: label._id,
          priceCents: Math.round(label.price * 100),
        }),
      },
    ]);

    const again = await refund(label._id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'ORDERS_LABEL_ALREADY_REFUNDED', message: 'Label already refunded' });
    expect(await s.balanceCents(ann.id)).toBe(before + Math.round(label.price * 100));

    // The customer's own list shows it void; it no longer counts as an order.
    const mine = await get(`/api/orders/${ann.id}`, ann.token);
    expect(mine.json().orders.find((o: { _id: string }) => o._id === label._id).status).toBe('void');
    expect((await get(`/api/orders/total/${ann.id}`, ann.token)).json().totalOrders).toBe(1);
    expect((await labels('?status=void')).labels.map((l) => l._id)).toEqual([label._id]);
  });

  test('a refunded label is no longer handed out: its PDF download is refused to its owner and to admins', async () => {
    const label = (await labels(`?tracking=${annTracking[0]}`)).labels[0] as AdminLabelRow;
    expect(label.status).toBe('void');
    for (const token of [ann.token, admin.token]) {
      const res = await get(`/api/orders/download/v2/${label.pdfName}`, token);
      expect(res.statusCode).toBe(410);
      expect(res.json()).toEqual({
        code: 'ORDERS_LABEL_VOID',
        message: 'This label was refunded and is void. It can no longer be downloaded or used for shipping.',
      });
    }
    // Someone else still learns nothing of it.
    expect((await get(`/api/orders/download/v2/${label.pdfName}`, bob.token)).statusCode).toBe(404);
    // A label still valid downloads as before.
    const kept = (await labels(`?tracking=${annTracking[1]}`)).labels[0] as AdminLabelRow;
    const ok = await get(`/api/orders/download/v2/${kept.pdfName}`, ann.token);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/pdf');
  });

  test('two admins at once move the money back once, and both are told it is refunded', async () => {
    const label = (await labels(`?tracking=${annTracking[1]}`)).labels[0] as AdminLabelRow;
    const before = await s.balanceCents(ann.id);
    const results = await Promise.all([refund(label._id), refund(label._id, user(s, 'admin').token)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(results.map((r) => r.json().label.refundStatus)).toEqual(['refunded', 'refunded']);
    expect(await s.balanceCents(ann.id)).toBe(before + Math.round(label.price * 100));
    const events = (await outboxRows(s)).filter((e) => e.topic === 'label.refunded' && e.value.labelId === label._id);
    expect(events).toHaveLength(1);
  });

  test('a label with nothing bought, an unknown label, and non-admins are refused', async () => {
    const pending = (await labels(`?bulkOrderId=${bulkOrderId}`)).labels[0] as AdminLabelRow;
    const res = await refund(pending._id);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ORDERS_LABEL_NOT_REFUNDABLE');
    const unknown = await refund('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'NOT_FOUND', message: 'Label not found' });
    expect((await refund('not-an-id')).statusCode).toBe(400);
    const bobs = (await labels(`?userId=${bob.id}&status=completed`)).labels[0] as AdminLabelRow;
    expect((await refund(bobs._id, bob.token)).statusCode).toBe(403);
  });
});
