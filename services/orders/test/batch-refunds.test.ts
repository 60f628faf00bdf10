import { createSandboxCarrier } from '@flatship/carriers';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FileStore } from '../src/domain/ports';
import { boughtBulkOrder } from './bulk-support';
import { fundedUser, type Stack, startStack } from './stack';
import { openDownload, type TestUser } from './support';

// "Refund all unused" of a finished batch, through the orders app on the sandbox carrier and the real ledger:
// the order's files written once for the whole request, and two requests at once each refunding its own labels.

const carrier = createSandboxCarrier();
/** Every key written to the file store, in order. */
const written: string[] = [];
const counting = (real: FileStore): FileStore => ({
  ...real,
  async put(key, data) {
    written.push(key);
    return real.put(key, data);
  },
});

let s: Stack;
beforeAll(async () => {
  s = await startStack({ carrier, files: counting });
}, 60_000);
afterAll(() => s?.close());

const refundAll = (u: TestUser, orderId: string) =>
  s.app.inject({
    method: 'POST',
    url: `/api/orders/bulk/refund/${orderId}`,
    headers: { token: u.token },
    payload: {},
  });

const writesOf = (orderId: string, file: string) => written.filter((k) => k.endsWith(`/${orderId}/${file}`)).length;

const download = (u: TestUser, path: string) => openDownload(s.app, u, path);

test("refunding every unused row of an order writes the order's files once, and they show the refunds", async () => {
  const u = await fundedUser(s, 1000_00);
  const { orderId, tracking } = await boughtBulkOrder(s, u, 12, carrier);
  // Two labels were scanned by the carrier: used, so not refunded, and still in the merged PDF.
  const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  await s.db('labels').whereIn('id', [rows[3].id, rows[8].id]).update({ tracking_status: 'in_transit' });
  expect(writesOf(orderId, 'results.csv')).toBe(1);

  const res = await refundAll(u, orderId);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ refunded: 10, pending: 0, rejected: 0, skipped: 0 });

  expect(writesOf(orderId, 'results.csv')).toBe(2);
  expect(writesOf(orderId, 'labels.pdf')).toBe(2);
  const order = await s.db('bulk_orders').where({ id: orderId }).first();
  expect(order.status).toBe('completed');
  const csv = (await download(u, `/api/orders/download/result-csv/${orderId}`)).body.trim().split('\n').slice(1);
  expect(csv).toHaveLength(12);
  csv.forEach((line, i) => {
    expect(line).toContain(tracking[i]);
    if (i === 3 || i === 8) expect(line).toContain(',success,');
    else expect(line).toContain(',refunded,');
  });
  const pdf = await download(u, `/api/orders/download/pdf/${orderId}`);
  expect(pdf.statusCode).toBe(200);
  expect(pdf.rawPayload.toString('latin1').match(/\/Type\s*\/Page[^s]/g)).toHaveLength(2);
});

test('two "refund all" requests at once each refund their own labels: together every label, each credited once', async () => {
  const u = await fundedUser(s, 1000_00);
  const { orderId } = await boughtBulkOrder(s, u, 10, carrier);
  const rows = await s.db('labels').where({ bulk_order_id: orderId });
  const price = rows[0].price_cents as number;

  const [a, b] = await Promise.all([refundAll(u, orderId), refundAll(u, orderId)]);
  expect(a.statusCode, a.body).toBe(200);
  expect(b.statusCode, b.body).toBe(200);
  expect(a.json().refunded + b.json().refunded).toBe(10);
  expect(Math.round((a.json().credited + b.json().credited) * 100)).toBe(10 * price);

  const refunds = (await s.ledgerEntries(u.id)).filter((e) => e.idempotency_key.startsWith('refund:'));
  expect(refunds.map((e) => e.idempotency_key).sort()).toEqual(rows.map((r) => `refund:${r.id}`).sort());
  expect(await s.db('labels').where({ bulk_order_id: orderId, status: 'void' }).count('* as n')).toEqual([{ n: '10' }]);
});
