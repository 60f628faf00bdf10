import { read as readBook, utils, type WorkBook } from '@e965/xlsx';
import { type BulkRow, readOrderFile, toBulkOrderItem, validateBulkRows } from '@flatship/order-files';
import type { Sku } from '@flatship/proto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mugPreset, readFixture, savedAddress } from '../../order-files/test/helpers';
import { newOrderId, processBulk } from '../../orders/test/bulk-support';
import { user } from '../../orders/test/support';
import { startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// TikTok Shop's and Walmart's exports, read as the bulk screen reads them, bought as a bulk order by the label
// worker, and confirmed by the tracking file each marketplace takes back, parsed here as a spreadsheet would.
let s: WorkerStack;
beforeAll(async () => {
  s = await startWorkerStack();
});
afterAll(() => s.close());

const SERVICE = 'USPS Priority Mail';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const preset = (sku: string, maxQty = 4): Sku => ({ ...mugPreset, _id: sku, sku, maxQty });
const SKUS = ['MUG-11OZ-WHT', 'TEE-BLK-M', 'TEE-BLK-L', 'CANDLE-LAV-8OZ'].map((sku) => preset(sku));

/** Reads a fixture, keeps the given orders' rows, buys them, and gives back the labels and the tracking workbook. */
async function shipAndConfirm(fixture: string, orderIds: string[], source: 'tiktok' | 'walmart') {
  const read = readOrderFile(
    { name: fixture.replace(/^.*\//, ''), data: readFixture(fixture) },
    { senderAddress: savedAddress, skus: SKUS },
  );
  expect(read.source).toBe(source);
  const rows: BulkRow[] = read.rows.filter((r) => orderIds.includes(r.orderId));
  expect(validateBulkRows(rows, SERVICE)).toEqual([]);
  const u = user(s);
  await s.setBalance(u.id, 100_000);
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, {
    orderId,
    orderData: rows.map((row) => toBulkOrderItem(row, SERVICE)),
    source: read.source,
    fileName: fixture,
  });
  expect(res.statusCode, res.body).toBe(202);
  expect(await waitForStatus(s, orderId)).toMatchObject({ status: 'completed', source });
  const labels = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  expect(labels.map((l) => l.status)).toEqual(rows.map(() => 'completed'));

  const file = await s.app.inject({ url: `/api/orders/download/auto-csv/${orderId}`, headers: { token: u.token } });
  expect(file.statusCode).toBe(200);
  expect(file.headers['content-type']).toBe(XLSX);
  expect(file.headers['content-disposition']).toMatch(/filename="Auto_Confirm_\d\d-\d\d\.xlsx"/);
  const book = readBook(file.rawPayload, { type: 'buffer' });
  const tracking = (orderIdOf: string, itemId?: string) =>
    labels
      .filter((_, i) => rows[i]!.orderId === orderIdOf && (itemId === undefined || rows[i]!.orderItemId === itemId))
      .map((l) => l.tracking_number as string);
  return { book, tracking };
}

const sheetRows = (book: WorkBook, name: string): string[][] =>
  utils.sheet_to_json<string[]>(book.Sheets[name]!, { header: 1, raw: false, defval: '' });

test('a TikTok Shop CSV order becomes a bulk order and its tracking upload', async () => {
  const { book, tracking } = await shipAndConfirm('tiktok/tiktok-orders.csv', ['576461413038785752'], 'tiktok');
  expect(book.SheetNames).toEqual(['Shipping info']);
  const [note, header, ...rows] = sheetRows(book, 'Shipping info');
  expect(note?.[0]).toMatch(/^Tracking IDs of orders shipped with Flatship/);
  expect(header).toEqual(['Order ID', 'Tracking ID', 'Shipping Provider Name', 'Auto Combine Group ID']);
  const [trackingId] = tracking('576461413038785752');
  expect(trackingId).toMatch(/^93055\d{17}$/);
  expect(rows).toEqual([['576461413038785752', trackingId, 'USPS', '']]);
});

test('a TikTok Shop xlsx export: a one-package order goes in the upload, a split one on its own sheet', async () => {
  const { book, tracking } = await shipAndConfirm(
    'tiktok/tiktok-orders.xlsx',
    ['576461413038790011', '576461413038795500'],
    'tiktok',
  );
  expect(book.SheetNames).toEqual(['Shipping info', 'Split orders']);
  expect(sheetRows(book, 'Shipping info').slice(2)).toEqual([
    ['576461413038795500', tracking('576461413038795500')[0], 'USPS', ''],
  ]);
  const [, header, ...split] = sheetRows(book, 'Split orders');
  expect(header).toEqual(['Order ID', 'SKU ID', 'Seller SKU', 'Quantity', 'Tracking ID', 'Shipping Provider Name']);
  expect(split).toEqual(
    expect.arrayContaining([
      [
        '576461413038790011',
        '1729384756012345690',
        'TEE-BLK-M',
        '1',
        tracking('576461413038790011', '1729384756012345690')[0],
        'USPS',
      ],
      [
        '576461413038790011',
        '1729384756012345691',
        'TEE-BLK-L',
        '1',
        tracking('576461413038790011', '1729384756012345691')[0],
        'USPS',
      ],
    ]),
  );
  expect(split).toHaveLength(2);
});

test('a Walmart order becomes a bulk order and its tracking file: the export with one row per PO line', async () => {
  const po = '108829140388';
  const { book, tracking } = await shipAndConfirm('walmart-orders-sample.xlsx', [po], 'walmart');
  expect(book.SheetNames).toEqual(['Po Details']);
  const records = utils.sheet_to_json<Record<string, string>>(book.Sheets['Po Details']!, { raw: false, defval: '' });
  const url = 'https://tools.usps.com/go/TrackConfirmAction?tLabels=';
  const pick = (r: Record<string, string>) => [
    r['PO#'],
    r['Order#'],
    r['Line#'],
    r.SKU,
    r['Update Status'],
    r['Update Qty'],
    r.Carrier,
    r['Tracking Number'],
    r['Tracking Url'],
  ];
  expect(records.map(pick).sort((a, b) => String(a[2]).localeCompare(String(b[2])))).toEqual([
    [
      po,
      '200011938479902',
      '1',
      'TEE-BLK-M',
      'Ship',
      '1',
      'USPS',
      tracking(po, '1')[0],
      `${url}${tracking(po, '1')[0]}`,
    ],
    [
      po,
      '200011938479902',
      '2',
      'TEE-BLK-L',
      'Ship',
      '2',
      'USPS',
      tracking(po, '2')[0],
      `${url}${tracking(po, '2')[0]}`,
    ],
  ]);
});
