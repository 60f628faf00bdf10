import { readOrderFile, toBulkOrderItem, validateBulkRows } from '@flatship/order-files';
import type { Sku } from '@flatship/proto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mugPreset, readFixture, savedAddress } from '../../order-files/test/helpers';
import { newOrderId, processBulk } from '../../orders/test/bulk-support';
import { user } from '../../orders/test/support';
import { parseDelimited, startWorkerStack, type WorkerStack, waitForStatus } from './harness';

let s: WorkerStack;
beforeAll(async () => {
  s = await startWorkerStack();
});
afterAll(() => s.close());

// Presets with sizes and weights but no description of their own, so each package keeps the item's eBay title.
const presets: Sku[] = [
  { ...mugPreset, description: '' },
  { ...mugPreset, _id: 'sku-2', sku: 'coaster-4pk', maxQty: 10, weight: 0.5, height: 1, description: '' },
];

// An eBay multi-item order (3 mugs packed two to a box, and a coaster pack) read from the Seller Hub report,
// bought as a bulk order, and confirmed by eBay's tracking upload: one Shipped row per item, carrier USPS.
test('an eBay multi-item order becomes a bulk order and its tracking upload, one row per item', async () => {
  const u = user(s);
  await s.setBalance(u.id, 100_000);
  const read = readOrderFile(
    { name: 'eBay-OrdersReport-Sep-17-2026.csv', data: readFixture('ebay/ebay-orders-82.csv') },
    { senderAddress: savedAddress, skus: presets },
  );
  expect(read.source).toBe('ebay');
  const order = read.rows.filter((r) => r.orderId === '12-10232-40002');
  // Sorted by SKU as the table shows it: the coaster pack, then the mugs in two packages.
  expect(order.map((r) => [r.orderItemId, r.quantity])).toEqual([
    ['335598760002-2894561230023', 1],
    ['335512340001-2894561230022', 2],
    ['335512340001-2894561230022', 1],
  ]);
  const service = 'USPS Priority Mail';
  expect(validateBulkRows(order, service)).toEqual([]);
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, {
    orderId,
    orderData: order.map((row) => toBulkOrderItem(row, service)),
    source: read.source,
    fileName: 'eBay-OrdersReport-Sep-17-2026.csv',
  });
  expect(res.statusCode, res.body).toBe(202);
  expect(await waitForStatus(s, orderId)).toMatchObject({ status: 'completed', source: 'ebay' });

  const labels = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  expect(labels.map((l) => l.status)).toEqual(['completed', 'completed', 'completed']);
  const tracking = labels.map((l) => l.tracking_number as string);
  expect(new Set(tracking).size).toBe(3);

  const upload = await s.app.inject({ url: `/api/orders/download/auto-csv/${orderId}`, headers: { token: u.token } });
  expect(upload.statusCode).toBe(200);
  expect(upload.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(upload.headers['content-disposition']).toMatch(/filename="Auto_Confirm_\d\d-\d\d\.csv"/);
  // Every item has its tracking number; the mugs' item, in two packages, gets its first package's.
  expect(parseDelimited(upload.body, ',').filter((l) => l.some((c) => c !== ''))).toEqual([
    [
      'Shipping Status',
      'Order Number',
      'Item Number',
      'Item Title',
      'Custom Label',
      'Transaction ID',
      'Shipping Carrier Used',
      'Tracking Number',
    ],
    [
      'Shipped',
      '12-10232-40002',
      '335598760002',
      'Cork Coaster 4-pack',
      'coaster-4pk',
      '2894561230023',
      'USPS',
      tracking[0],
    ],
    [
      'Shipped',
      '12-10232-40002',
      '335512340001',
      'Ceramic Mug, 11 oz "Classic" White',
      'mug-11oz-wht',
      '2894561230022',
      'USPS',
      tracking[1],
    ],
  ]);
});
