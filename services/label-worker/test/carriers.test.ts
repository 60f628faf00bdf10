import { afterAll, beforeAll, expect, test } from 'vitest';
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
