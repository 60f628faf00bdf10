import { MARKETPLACE_PLUGINS, readOrderFile, toBulkOrderItem, validateBulkRows } from '@flatship/order-files';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mugPreset, savedAddress, utf8 } from '../../order-files/test/helpers';
import { bulkItems, newOrderId, processBulk } from '../../orders/test/bulk-support';
import { user } from '../../orders/test/support';
import { parseDelimited, startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// Two carriers switched on by configuration: the worker buys each row from the carrier that sells its service.
let s: WorkerStack;
beforeAll(async () => {
  s = await startWorkerStack({ carriers: 'sandbox-usps,test-parcel' });
  await s.setServiceEnabled('Test Parcel Standard', true);
});
afterAll(() => s.close());

test('an Amazon order across two carriers: each label from its own, and the confirmation file names each', async () => {
  const u = user(s);
  await s.setBalance(u.id, 100_000);
  // Odd rows ship with Test Parcel; their courier is left to the service.
  const items = bulkItems(4).map((item, i) =>
    i % 2 === 1 ? { ...item, courier: undefined, service_name: 'Test Parcel Standard' } : item,
  );
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, { orderId, orderData: items, source: 'amazon', fileName: 'amazon.txt' });
  expect(res.statusCode).toBe(202);
  expect(await waitForStatus(s, orderId)).toMatchObject({ status: 'completed' });

  const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  expect(rows.map((r) => [r.courier, r.status])).toEqual([
    ['usps', 'completed'],
    ['test-parcel', 'completed'],
    ['usps', 'completed'],
    ['test-parcel', 'completed'],
  ]);
  expect(rows.map((r) => r.tracking_number)).toEqual([
    expect.stringMatching(/^93055\d{17}$/),
    expect.stringMatching(/^TP\d{12}$/),
    expect.stringMatching(/^93055\d{17}$/),
    expect.stringMatching(/^TP\d{12}$/),
  ]);

  const tsv = await s.app.inject({ url: `/api/orders/download/auto-csv/${orderId}`, headers: { token: u.token } });
  expect(tsv.statusCode).toBe(200);
  const [, ...lines] = parseDelimited(tsv.body, '\t');
  expect(lines.map((l) => l.slice(4))).toEqual(
    rows.map((r) =>
      r.courier === 'usps'
        ? ['USPS', 'USPS', r.tracking_number, 'USPS Priority Mail']
        : ['Other', 'Test Parcel', r.tracking_number, 'Test Parcel Standard'],
    ),
  );
});

// The test-only marketplace proves the recipe end to end: recognised by its columns, read with its quirks,
// validated, bought as a bulk order, and confirmed by its own file naming each carrier as the carrier says.
test('a test marketplace file becomes a bulk order and its confirmation file', async () => {
  const u = user(s);
  await s.setBalance(u.id, 100_000);
  const file = [
    'TM Order,TM Line,Buyer,Street,Town,Region,Postcode,Units,Item,Fulfilment',
    "TM-1001,1,Ada Lovelace,12 Elm St,Springfield,Illinois,'62704,1,mug-11oz-wht,Awaiting",
    "TM-1002,7,Bo Diddley,5 Pine Rd,Boston,Massachusetts,'02134,3,mug-11oz-wht,Awaiting",
    'TM-1003,1,Cy Old,9 Oak Ave,Reno,Nevada,89501,1,mug-11oz-wht,Shipped',
  ].join('\n');
  const read = readOrderFile(
    { name: 'tm-export.csv', data: utf8(file) },
    { senderAddress: savedAddress, skus: [mugPreset], marketplaces: MARKETPLACE_PLUGINS },
  );
  expect(read.source).toBe('test-market');
  // A customer's upload of the same file is not taken for the test-only marketplace.
  expect(() =>
    readOrderFile({ name: 'tm-export.csv', data: utf8(file) }, { senderAddress: savedAddress, skus: [mugPreset] }),
  ).toThrow(/not those of any supported order file/);
  expect(read.warnings).toEqual(['1 row(s) already shipped were left out']);
  // Three units of a SKU packed two to a box: TM-1002 ships as two parcels (the table sorts by SKU, fullest first).
  expect(read.rows.map((r) => [r.orderId, r.quantity, r.ToStateProvince, r.ToZipPostal, r.FromCity])).toEqual([
    ['TM-1002', 2, 'MA', '02134', 'Reno'],
    ['TM-1001', 1, 'IL', '62704', 'Reno'],
    ['TM-1002', 1, 'MA', '02134', 'Reno'],
  ]);
  // The first parcel by Test Parcel (which declares a Test Market code), the others by USPS (which does not).
  const services = ['Test Parcel Standard', 'USPS Priority Mail', 'USPS Priority Mail'];
  expect(validateBulkRows(read.rows, services[1] as string)).toEqual([]);
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, {
    orderId,
    orderData: read.rows.map((row, i) => ({
      ...toBulkOrderItem(row, services[i] as string),
      courier: i === 0 ? 'test-parcel' : 'usps',
    })),
    source: read.source,
    fileName: 'tm-export.csv',
  });
  expect(res.statusCode, res.body).toBe(202);
  expect(await waitForStatus(s, orderId)).toMatchObject({ status: 'completed', source: 'test-market' });

  const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  const confirmation = await s.app.inject({
    url: `/api/orders/download/auto-csv/${orderId}`,
    headers: { token: u.token },
  });
  expect(confirmation.statusCode).toBe(200);
  expect(confirmation.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(confirmation.headers['content-disposition']).toMatch(/filename="Auto_Confirm_\d\d-\d\d\.csv"/);
  expect(parseDelimited(confirmation.body, ',').filter((l) => l.some((c) => c !== ''))).toEqual([
    ['TM Order', 'TM Line', 'Carrier', 'Tracking'],
    ['TM-1002', '7', 'Test Parcel Express', rows[0].tracking_number],
    ['TM-1001', '1', 'usps', rows[1].tracking_number],
    ['TM-1002', '7', 'usps', rows[2].tracking_number],
  ]);
});
