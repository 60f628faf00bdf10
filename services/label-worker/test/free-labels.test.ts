import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bulkItems, call, newOrderId, processBulk } from '../../orders/test/bulk-support';
import { orderBody, postOrder, type TestUser, user } from '../../orders/test/support';
import { startWorkerStack, type WorkerStack, waitForStatus } from './harness';

// A price of $0 (the spec's minimum) set for one customer: their labels are bought for nothing, one at a
// time and in bulk, and refunds of them give back nothing, with the ledger still summing to the balance.
let s: WorkerStack;
let admin: TestUser;
beforeAll(async () => {
  s = await startWorkerStack();
  admin = user(s, 'admin');
});
afterAll(() => s.close());

/** A customer whose Priority Mail costs $0 at every weight, funded with `cents`. */
async function freeCustomer(cents: number): Promise<TestUser> {
  const u = user(s);
  if (cents > 0) await s.setBalance(u.id, cents);
  const res = await s.pricing.inject({
    method: 'PUT',
    url: `/api/userServices/${u.id}/usps_priority_mail/prices`,
    headers: { token: s.adminToken },
    payload: { prices: [{ fromWeight: 1, toWeight: 70, price: 0 }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return u;
}

async function expectMoney(userId: string, balanceCents: number) {
  expect(await s.balanceCents(userId)).toBe(balanceCents);
  const sum = (await s.ledgerEntries(userId)).reduce((acc, e) => acc + Number(e.amount_cents), 0);
  expect(sum).toBe(balanceCents);
}

async function submit(u: TestUser, items: unknown[]): Promise<{ orderId: string; price: number }> {
  const orderId = await newOrderId(s, u);
  const res = await processBulk(s, u, { orderId, orderData: items });
  expect(res.statusCode, res.body).toBe(202);
  return { orderId, price: res.json().data.price };
}

describe('a $0 price', () => {
  test('is quoted as 0', async () => {
    const u = await freeCustomer(0);
    const res = await s.pricing.inject({
      method: 'POST',
      url: '/api/orders/price/v2/bulk',
      headers: { token: u.token },
      payload: { userId: u.id, shipments: [{ service_name: 'USPS Priority Mail', package: { package_weight: 2 } }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ totalPrice: 0 });
  });

  test('buys a single label with an empty balance, and an admin refund of it gives back nothing', async () => {
    const u = await freeCustomer(0);
    const res = await postOrder(s, u, orderBody(u.id));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ price: 0, tracking_number: expect.any(String) });
    const labelId = res.json().data.orderId as string;
    await expectMoney(u.id, 0);
    // The ledger still records the label's charge, of $0, under its key.
    expect((await s.ledgerEntries(u.id)).map((e) => [e.kind, Number(e.amount_cents), e.idempotency_key])).toEqual([
      ['label_charge', 0, `label:${labelId}`],
    ]);

    const refund = await s.app.inject({
      method: 'POST',
      url: `/api/orders/admin/labels/${labelId}/refund`,
      headers: { token: admin.token },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json().label).toMatchObject({ status: 'void', price: 0 });
    await expectMoney(u.id, 0);
    // Twice moves nothing either.
    const again = await s.app.inject({
      method: 'POST',
      url: `/api/orders/admin/labels/${labelId}/refund`,
      headers: { token: admin.token },
    });
    expect(again.statusCode).toBe(409);
    await expectMoney(u.id, 0);
  });

  test('a refused single label is cancelled without failing and credits nothing', async () => {
    const u = await freeCustomer(0);
    const res = await postOrder(s, u, orderBody(u.id, { receiver: { receiver_name: 'FAIL' } as never }));
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('ORDERS_CARRIER_FAILED');
    expect(await s.db('labels').where({ user_id: u.id }).first()).toMatchObject({
      status: 'cancelled',
      refunded: true,
    });
    await expectMoney(u.id, 0);
  });

  test('a bulk order of free rows is bought whole with an empty balance; failed rows refund nothing', async () => {
    const u = await freeCustomer(0);
    const { orderId, price } = await submit(
      u,
      bulkItems(4, (i) => (i === 3 ? { receiver: { receiver_name: 'FAIL' } } : {})),
    );
    expect(price).toBe(0);
    expect(await waitForStatus(s, orderId)).toMatchObject({
      status: 'completed_with_errors',
      processed_count: 3,
      failed_count: 1,
    });
    await expectMoney(u.id, 0);

    const retry = await call(s, u, 'POST', `/api/orders/bulk/retry-failed/${orderId}`);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ finalProcessedCount: 3, finalFailedCount: 1 });
    await expectMoney(u.id, 0);
  });

  test('free and priced rows in one bulk order: only the priced ones are charged', async () => {
    const u = await freeCustomer(10_000);
    const { orderId, price } = await submit(
      u,
      bulkItems(3, (i) => (i === 0 ? { service_name: 'USPS Ground Advantage' } : {})),
    );
    expect(price).toBe(6.5);
    expect(await waitForStatus(s, orderId)).toMatchObject({ status: 'completed', processed_count: 3 });
    await expectMoney(u.id, 10_000 - 650);
  });
});
