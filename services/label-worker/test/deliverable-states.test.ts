import { readOrderFile, toBulkOrderItem, validateBulkRows } from '@flatship/order-files';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { amazonOrder, amazonText, mugPreset, savedAddress, utf8 } from '../../order-files/test/helpers';
import { newOrderId, processBulk } from '../../orders/test/bulk-support';
import { type TestUser, user } from '../../orders/test/support';
import { startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// A marketplace file with recipients in DC, a territory and at a military post office: the
// table shows it clean, the server takes it, and the label worker buys every label.
let s: WorkerStack;
beforeAll(async () => {
  s = await startWorkerStack();
});
afterAll(() => s.close());

const SERVICE = 'USPS Priority Mail';

describe('recipients USPS delivers to outside the 50 states', () => {
  let u: TestUser;
  let orderId: string;
  beforeAll(async () => {
    u = user(s);
    await s.setBalance(u.id, 100_000);
    const order = (n: number, over: Record<string, string>) =>
      amazonOrder({
        'order-id': `112-0000001-000000${n}`,
        'order-item-id': `0001234567890${n}`,
        sku: mugPreset.sku,
        ...over,
      });
    const file = amazonText([
      order(1, {
        'recipient-name': 'Dana Capitol',
        'ship-address-1': '1600 Pennsylvania Ave NW',
        'ship-city': 'Washington',
        'ship-state': 'DC',
        'ship-postal-code': '20500',
      }),
      order(2, {
        'recipient-name': 'Rosa Isla',
        'ship-address-1': '50 Calle Fortaleza',
        'ship-city': 'San Juan',
        'ship-state': 'Puerto Rico',
        'ship-postal-code': '00901',
      }),
      order(3, {
        'recipient-name': 'Sgt Miles Post',
        'ship-address-1': 'Unit 2050 Box 4190',
        'ship-city': 'APO',
        'ship-state': 'AE',
        'ship-postal-code': '09096',
      }),
    ]);
    const read = readOrderFile(
      { name: 'unshipped.txt', data: utf8(file) },
      { senderAddress: savedAddress, skus: [mugPreset] },
    );
    expect(read.warnings).toEqual([]);
    expect(validateBulkRows(read.rows, SERVICE)).toEqual([]);
    orderId = await newOrderId(s, u);
    const res = await processBulk(s, u, {
      orderId,
      orderData: read.rows.map((row) => toBulkOrderItem(row, SERVICE)),
      source: 'amazon',
      fileName: 'unshipped.txt',
    });
    expect(res.statusCode, res.body).toBe(202);
    await waitForStatus(s, orderId);
  }, 120_000);

  test('the order completes with a label bought for each recipient', async () => {
    const order = await s.db('bulk_orders').where({ id: orderId }).first();
    expect(order).toMatchObject({ status: 'completed', total_count: 3, processed_count: 3, failed_count: 0 });
    const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
    expect(rows.map((r) => [r.status, r.receiver.state, r.receiver.zip])).toEqual([
      ['completed', 'DC', '20500'],
      ['completed', 'PR', '00901'],
      ['completed', 'AE', '09096'],
    ]);
    expect(rows.every((r) => r.tracking_number && r.pdf_name)).toBe(true);
  });
});
