import { readOrderFile, toBulkOrderItem, validateBulkRows } from '@flatship/order-files';
import type { BatchOrdersReply, BulkFilesReply, Sku } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mugPreset, readFixture, savedAddress } from '../../order-files/test/helpers';
import { newOrderId, processBulk } from '../../orders/test/bulk-support';
import { user } from '../../orders/test/support';
import { parseDelimited, startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// Shopify and Etsy take no tracking file: an order from their export is bought like any other, and the API says
// plainly that there is no confirmation file to download, naming what the seller does instead.
let s: WorkerStack;
beforeAll(async () => {
  s = await startWorkerStack();
});
afterAll(() => s.close());

const SERVICE = 'USPS Priority Mail';
const totePreset: Sku = {
  _id: 'sku-2',
  sku: 'tote-canvas',
  maxQty: 4,
  weight: 0.8,
  length: 14,
  width: 12,
  height: 2,
  description: 'Canvas tote',
};

async function buyOneOrder(fixture: string, fileName: string, orderNumber: string) {
  const u = user(s);
  await s.setBalance(u.id, 100_000);
  const read = readOrderFile(
    { name: fileName, data: readFixture(fixture) },
    { senderAddress: savedAddress, skus: [mugPreset, totePreset] },
  );
  const rows = read.rows.filter((r) => r.orderId === orderNumber);
  expect(validateBulkRows(rows, SERVICE)).toEqual([]);
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, {
    orderId,
    orderData: rows.map((row) => toBulkOrderItem(row, SERVICE)),
    source: read.source,
    fileName,
  });
  expect(res.statusCode, res.body).toBe(202);
  const order = await waitForStatus(s, orderId);
  const labels = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  const get = (url: string) => s.app.inject({ url, headers: { token: u.token } });
  return { u, read, rows, orderId, order, labels, get };
}

async function expectNoConfirmationFile(bought: Awaited<ReturnType<typeof buyOneOrder>>, source: string, note: string) {
  const { u, orderId, order, labels, get } = bought;
  expect(order).toMatchObject({ status: 'completed', source, auto_confirm_name: null });
  expect(labels.every((l) => l.status === 'completed' && /^93055\d{17}$/.test(l.tracking_number))).toBe(true);

  const confirmation = await get(`/api/orders/download/auto-csv/${orderId}`);
  expect(confirmation.statusCode).toBe(404);
  expect(confirmation.json()).toMatchObject({ message: note });

  const files = (await get(`/api/orders/bulk/files/${orderId}`)).json() as BulkFilesReply;
  expect(files).toMatchObject({ pdf: true, resultCSV: true, autoConfirm: false });
  expect(files.fileData.autoConfirmCSVName).toBeNull();
  const list = (await get(`/api/orders/bulk/${u.id}`)).json() as BatchOrdersReply;
  expect(list.bulkOrders.find((o) => o._id === orderId)).toMatchObject({ source, autoConfirmCSVName: null });

  // The tracking numbers are in the Results CSV, one line per label.
  const results = await get(`/api/orders/download/result-csv/${orderId}`);
  expect(results.statusCode).toBe(200);
  const tracked = parseDelimited(results.body.replace(/^\uFEFF/, ''), ',').flat();
  for (const l of labels) expect(tracked).toContain(l.tracking_number);
}

describe('marketplaces that take no tracking file, through a real bulk order', () => {
  it('a Shopify order from its export: bought, and no confirmation file, said so', async () => {
    const bought = await buyOneOrder('shopify/orders_export.csv', 'orders_export.csv', '#1001');
    expect(bought.read.source).toBe('shopify');
    // Two mugs (one box at maxQty 2) and the tote carried the first row's address, apostrophe gone from the ZIP.
    expect(bought.rows.map((r) => [r.skuNumber, r.quantity, r.ToStreet1, r.ToZipPostal])).toEqual([
      ['mug-11oz-wht', 2, '42 Beacon St', '02134'],
      ['tote-canvas', 1, '42 Beacon St', '02134'],
    ]);
    expect(bought.labels).toHaveLength(2);
    await expectNoConfirmationFile(
      bought,
      'shopify',
      'Shopify takes no tracking file: mark orders shipped in Shopify (or with a Shopify app).',
    );
  });

  it('an Etsy order from its Excel re-saved export: bought, and no confirmation file, said so', async () => {
    const bought = await buyOneOrder('etsy/EtsySoldOrders-excel.txt', 'EtsySoldOrders.txt', '3301000110');
    expect(bought.read.source).toBe('etsy');
    expect(bought.rows.map((r) => [r.ToRecipientName, r.ToZipPostal, r.ToCountry])).toEqual([
      ['José Muñoz', '04101', 'US'],
    ]);
    expect(bought.labels).toHaveLength(1);
    expect(bought.labels[0].receiver).toMatchObject({ name: 'José Muñoz', zip: '04101', state: 'ME' });
    await expectNoConfirmationFile(bought, 'etsy', 'Etsy takes no tracking file: mark orders shipped in Shop Manager.');
  });
});
