import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '@flatship/kit';
import type { BulkOrderItem } from '@flatship/proto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { OrdersConfigSchema } from '../src/config';
import { confirmationFile } from '../src/domain/bulk/bulk-files';
import type { BulkRowRecord } from '../src/domain/bulk/ports';
import { type Stack, startStack } from './stack';
import { CONFIG_ENV_REQUIRED, orderBody, postOrder, user } from './support';

// A second carrier, switched on by configuration alone: pricing lists its service, orders buys it from that carrier.
const config = loadConfig(OrdersConfigSchema, { ...CONFIG_ENV_REQUIRED, CARRIERS: 'sandbox-usps,test-parcel' });
let s: Stack;
beforeAll(async () => {
  s = await startStack({ carriers: config.CARRIERS });
});
afterAll(() => s.close());

test('CARRIERS=sandbox-usps,test-parcel sells both carriers, each label bought from and recorded with its own', async () => {
  const raw = await s.pricing.inject({ url: '/api/rawServices', headers: { token: s.adminToken } });
  expect((raw.json() as { uid: string; carrier: string }[]).map((r) => [r.uid, r.carrier])).toEqual([
    ['usps_priority_mail', 'usps'],
    ['usps_ground_advantage', 'usps'],
    ['usps_priority_mail_express', 'usps'],
    ['test_parcel_standard', 'test-parcel'],
  ]);
  // A carrier's new service sells only once an admin has enabled it.
  await s.setServiceEnabled('Test Parcel Standard', true);

  const u = user(s);
  await s.setBalance(u.id, 10_000);
  // The courier is left to the service, which names its carrier.
  const parcel = await postOrder(s, u, {
    ...orderBody(u.id, {}),
    courier: undefined,
    service_name: 'Test Parcel Standard',
  });
  expect(parcel.statusCode).toBe(201);
  const bought = parcel.json().data;
  expect(bought.tracking_number).toMatch(/^TP\d{12}$/);
  const pdf = await readFile(join(s.filesDir, 'labels', u.id, bought.pdfName));
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

  const usps = await postOrder(s, u, orderBody(u.id));
  expect(usps.statusCode).toBe(201);
  expect(usps.json().data.tracking_number).toMatch(/^93055/);

  const rows = await s
    .db('labels')
    .where({ user_id: u.id })
    .orderBy('created_at')
    .select('courier', 'service_uid', 'status');
  expect(rows.map((r) => [r.courier, r.service_uid, r.status])).toEqual([
    ['test-parcel', 'test_parcel_standard', 'completed'],
    ['usps', 'usps_priority_mail', 'completed'],
  ]);
  // Any carrier id will do for the database, but a label still names one.
  for (const courier of ['', 'Not An Id']) {
    await expect(s.db('labels').where({ user_id: u.id }).update({ courier })).rejects.toThrow(/labels_courier_check/);
  }
});

test("the Amazon confirmation file names each label's own carrier", async () => {
  const row = (courier: string, trackingNumber: string) =>
    ({
      status: 'completed',
      courier,
      trackingNumber,
      serviceName: 'Some Service',
      updatedAt: new Date('2026-03-04T10:00:00Z'),
      parcel: {},
      input: {
        sender: { order_id: 'A-1' },
        package: { order_item_id: 'I-1', quantity: 1 },
      } as unknown as BulkOrderItem,
    }) as unknown as BulkRowRecord;
  const rows = [row('usps', '9400'), row('test-parcel', 'TP1'), row('gone-carrier', 'G1')];
  expect(await confirmationFile('csv', rows)).toBeNull();
  const lines = String(await confirmationFile('amazon', rows))
    .trim()
    .split('\n')
    .map((l: string) => l.split('\t').slice(4, 7));
  expect(lines).toEqual([
    ['carrier-code', 'carrier-name', 'tracking-number'],
    ['USPS', 'USPS', '9400'],
    ['Other', 'Test Parcel', 'TP1'],
    ['Other', 'gone-carrier', 'G1'],
  ]);
});

test('a row names its courier: an enabled carrier is accepted, any other refused with the carriers on offer', async () => {
  await s.setServiceEnabled('Test Parcel Standard', true);
  const u = user(s);
  await s.setBalance(u.id, 10_000);
  const named = await postOrder(s, u, {
    ...orderBody(u.id, {}),
    courier: 'test-parcel',
    service_name: 'Test Parcel Standard',
  });
  expect(named.statusCode, named.body).toBe(201);
  const other = await postOrder(s, u, { ...orderBody(u.id, {}), courier: 'fedex' });
  expect(other.statusCode).toBe(400);
  expect(other.json().message).toContain('Only USPS, TEST-PARCEL labels are available');
});
