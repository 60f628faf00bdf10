import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resumeBulkOrder, sweepStalledBulkOrders } from '../src/domain/bulk/resume-bulk-order';
import { bulkItems, call, newOrderId, processBulk } from './bulk-support';
import { crashHolderOf, createCuttableLedger, deadRequestsReleasedAfterEach } from './crash';
import { fundedUser, type Stack, startStack } from './stack';
import { outboxRows, type TestUser } from './support';

// A bulk submit cut off part-way by a crash of orders: what a resubmit, fix and the sweeper make
// of it. Real pricing and payments; no label worker, so accepted rows stay queued.
const PRIORITY_CENTS = 895;
const SUBMITTING = {
  code: 'ORDERS_IN_PROGRESS',
  message: 'This order is already being processed. Please try again in a moment.',
};

const ledger = createCuttableLedger();
let s: Stack;
beforeAll(async () => {
  s = await startStack({ ledger: ledger.wrap });
});
afterAll(() => s.close());

const dead = deadRequestsReleasedAfterEach();

const funded = (cents: number) => fundedUser(s, cents);

type Body = Parameters<typeof processBulk>[2];

/** Starts a submit that hangs at its charge, as one whose process is about to die. */
async function cutOff(u: TestUser, body: Body, when: 'before-charge' | 'after-charge') {
  const cut = ledger.cut(when);
  const request = processBulk(s, u, body);
  const hang = await cut;
  dead.push({ hang, how: 'fail', request });
  return { hang, request };
}

/** The process submitting the order dies: its transaction rolls back, its locks go. */
const crash = (orderId: string) => crashHolderOf(s.db, 'bulk_orders', orderId);

/** The label worker's sweeper, run as if the order had made no progress for longer than it waits. */
async function sweep(orderId: string) {
  await sweepStalledBulkOrders({ ...s.domain, now: () => new Date(Date.now() + 10 * 60_000) }, { stallMs: 60_000 });
  return s.db('bulk_orders').where({ id: orderId }).first();
}

const charges = async (userId: string) =>
  (await s.ledgerEntries(userId))
    .filter((e) => e.kind !== 'admin_adjustment')
    .map((e) => [e.kind, Number(e.amount_cents), e.idempotency_key]);

async function expectQueued(orderId: string, n: number) {
  const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  expect(rows.map((r) => [r.status, r.charge_key])).toEqual(
    Array.from({ length: n }, () => ['pending', `bulk:${orderId}`]),
  );
  const requested = (await outboxRows(s)).filter(
    (e) => e.topic === 'label.requested' && e.value.bulkOrderId === orderId,
  );
  expect(requested.map((e) => e.key).sort()).toEqual(rows.map((r) => r.id).sort());
}

describe('a bulk submit cut off by a crash', () => {
  test('before its charge: the same submit goes through at once and is charged once', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    const body = { orderId, orderData: bulkItems(3) };
    await cutOff(u, body, 'before-charge');
    await crash(orderId);

    const again = await processBulk(s, u, body);
    expect(again.statusCode).toBe(202);
    expect(again.json().data).toEqual({ orderId, totalCount: 3, price: (3 * PRIORITY_CENTS) / 100 });
    expect(await charges(u.id)).toEqual([['label_charge', -3 * PRIORITY_CENTS, `bulk:${orderId}`]]);
    await expectQueued(orderId, 3);
  });

  test('after payments took the money: the same submit queues its rows without charging again', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    const body = { orderId, orderData: bulkItems(2), fileName: 'two.csv' };
    await cutOff(u, body, 'after-charge');
    await crash(orderId);
    expect(await s.balanceCents(u.id)).toBe(10_000 - 2 * PRIORITY_CENTS);

    const again = await processBulk(s, u, body);
    expect(again.statusCode).toBe(202);
    expect(await s.balanceCents(u.id)).toBe(10_000 - 2 * PRIORITY_CENTS);
    expect(await charges(u.id)).toEqual([['label_charge', -2 * PRIORITY_CENTS, `bulk:${orderId}`]]);
    await expectQueued(orderId, 2);
    // The order is submitted now; fix leaves its charge alone.
    expect((await call(s, u, 'POST', `/api/orders/bulk/fix/${orderId}`)).json()).toMatchObject({
      status: 'processing',
      totalCount: 2,
    });
    expect(await charges(u.id)).toHaveLength(1);
  });

  test('before its charge, then sent with other rows: once the sweeper found nothing charged, the new rows are charged once', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    await cutOff(u, { orderId, orderData: bulkItems(3) }, 'before-charge');
    await crash(orderId);

    const other = { orderId, orderData: bulkItems(1) };
    // Which rows the cut-off submit was charging for is not known, so it is settled first.
    expect((await processBulk(s, u, other)).json()).toEqual(SUBMITTING);
    expect(await sweep(orderId)).toMatchObject({ status: 'processing', charge_key: null, submitted_at: null });
    expect(await charges(u.id)).toEqual([]);

    const res = await processBulk(s, u, other);
    expect(res.statusCode).toBe(202);
    expect(await charges(u.id)).toEqual([['label_charge', -PRIORITY_CENTS, `bulk:${orderId}`]]);
    await expectQueued(orderId, 1);
  });

  test('after its charge, and never sent again: the sweeper refunds it whole, and a resubmit is told so', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    await cutOff(u, { orderId, orderData: bulkItems(2) }, 'after-charge');
    await crash(orderId);

    expect(await sweep(orderId)).toMatchObject({ status: 'failed' });
    expect(await s.balanceCents(u.id)).toBe(10_000);
    expect(await charges(u.id)).toEqual([
      ['label_charge', -2 * PRIORITY_CENTS, `bulk:${orderId}`],
      ['label_refund', 2 * PRIORITY_CENTS, `bulk-abandon:${orderId}`],
    ]);
    const again = await processBulk(s, u, { orderId, orderData: bulkItems(2) });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'ORDERS_IN_PROGRESS',
      message: 'This bulk order was cancelled and its charge refunded. Please start a new order.',
    });
    expect(await s.balanceCents(u.id)).toBe(10_000);
  });
});

describe('a bulk submit still running', () => {
  test('a resubmit is told to try again in a moment, and the sweeper leaves it alone; it then finishes, charged once', async () => {
    const u = await funded(10_000);
    const orderId = await newOrderId(s, u);
    const body = { orderId, orderData: bulkItems(2) };
    const { hang, request } = await cutOff(u, body, 'before-charge');
    dead.pop();

    expect((await processBulk(s, u, body)).json()).toEqual(SUBMITTING);
    expect(await sweep(orderId)).toMatchObject({ status: 'processing', charge_key: `bulk:${orderId}` });
    // Even handed the order directly (a sweeper that leased it just before the submit took it).
    await resumeBulkOrder(s.domain, orderId);
    expect(await s.db('bulk_orders').where({ id: orderId }).first()).toMatchObject({ status: 'processing' });

    await hang.release('pass');
    const first = await request;
    expect(first.statusCode).toBe(202);
    expect(await charges(u.id)).toEqual([['label_charge', -2 * PRIORITY_CENTS, `bulk:${orderId}`]]);
    await expectQueued(orderId, 2);
  });
});
