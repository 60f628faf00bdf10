import { randomUUID } from 'node:crypto';
import { createSandboxCarrier } from '@flatship/carriers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CarrierPort } from '../src/domain/ports';
import { reconcilePendingLabels } from '../src/domain/reconcile-pending-labels';
import {
  crashLabelLockHolder,
  createCuttableCarrier,
  createCuttableLedger,
  deadRequestsReleasedAfterEach,
  type Hang,
} from './crash';
import { fundedUser, type Stack, startStack } from './stack';
import { labelRows, orderBody, postOrder, type TestUser } from './support';

// A purchase cut off part-way (as by a crash of orders), and what its Idempotency-Key answers
// while it hangs and after the reconciler has settled it (a retry that comes first carries it on:
// see live-purchase.test.ts). Real pricing and payments, sandbox carrier.
const PRIORITY_CENTS = 895;
const IN_PROGRESS = {
  code: 'ORDERS_IN_PROGRESS',
  message: 'This order is already being processed. Please try again in a moment.',
};

const ledger = createCuttableLedger();
/** While above 0, purchases fail as an unreachable carrier does (one per call). */
let unreachable = 0;
const sandbox = createSandboxCarrier();
const carrier = createCuttableCarrier({
  purchaseLabel: async (req) => {
    if (unreachable > 0) {
      unreachable--;
      throw new Error('connect ECONNREFUSED');
    }
    return sandbox.purchaseLabel(req);
  },
} satisfies CarrierPort);

let s: Stack;
beforeAll(async () => {
  s = await startStack({ ledger: ledger.wrap, carrier: carrier.carrier });
});
afterAll(() => s.close());

const dead = deadRequestsReleasedAfterEach();

const funded = (cents: number) => fundedUser(s, cents);

const send = (u: TestUser, body: unknown, key: string) => postOrder(s, u, body, { 'idempotency-key': key });

/** Sends a purchase that is cut off where `cut` says, and returns once it got there. */
async function cutOff(cut: Promise<Hang>, u: TestUser, body: unknown, key: string, how: 'fail' | 'pass' = 'fail') {
  const request = send(u, body, key);
  dead.push({ hang: await cut, how, request });
}

/** The process buying the user's labels dies (its purchase locks go with it), and the reconciler runs. */
async function reconcileAfterCrash(userId: string) {
  for (const row of await labelRows(s, userId)) await crashLabelLockHolder(s.db, row.id);
  return reconcilePendingLabels(s.domain);
}

const ledgerOf = async (userId: string) =>
  (await s.ledgerEntries(userId)).map((e) => [e.kind, Number(e.amount_cents)] as const);

async function expectMoney(userId: string, balanceCents: number) {
  expect(await s.balanceCents(userId)).toBe(balanceCents);
  const sum = (await ledgerOf(userId)).reduce((acc, [, cents]) => acc + cents, 0);
  expect(sum).toBe(balanceCents);
}

describe('a purchase cut off by a crash', () => {
  test('before its charge: 409 while pending; once cancelled, the same key buys the label and charges once', async () => {
    const u = await funded(2000);
    const key = randomUUID();
    const body = orderBody(u.id);
    await cutOff(ledger.cut('before-charge'), u, body, key);

    const during = await send(u, body, key);
    expect(during.statusCode).toBe(409);
    expect(during.json()).toEqual(IN_PROGRESS);

    expect(await reconcileAfterCrash(u.id)).toMatchObject({ cancelled: 1 });
    const after = await send(u, body, key);
    expect(after.statusCode).toBe(201);
    const label = after.json().data;
    expect(label).toMatchObject({ price: 8.95, tracking_number: expect.any(String) });

    // Asked again, the key now answers with that label.
    const again = await send(u, body, key);
    expect(again.statusCode).toBe(201);
    expect(again.json().data).toEqual(label);

    const rows = await labelRows(s, u.id);
    expect(rows.map((r) => [r.status, r.refunded])).toEqual([
      ['cancelled', false],
      ['completed', false],
    ]);
    expect(await ledgerOf(u.id)).toEqual([
      ['admin_adjustment', 2000],
      ['label_charge', -PRIORITY_CENTS],
    ]);
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
  });

  test('after payments took the money: once refunded, the same key buys the label, so it is paid for once', async () => {
    const u = await funded(2000);
    const key = randomUUID();
    const body = orderBody(u.id);
    await cutOff(ledger.cut('after-charge'), u, body, key);
    expect(await s.balanceCents(u.id)).toBe(2000 - PRIORITY_CENTS);

    expect((await send(u, body, key)).json()).toEqual(IN_PROGRESS);
    expect(await reconcileAfterCrash(u.id)).toMatchObject({ cancelled: 1 });
    await expectMoney(u.id, 2000);

    const after = await send(u, body, key);
    expect(after.statusCode).toBe(201);
    expect((await send(u, body, key)).json()).toEqual(after.json());
    expect(await ledgerOf(u.id)).toEqual([
      ['admin_adjustment', 2000],
      ['label_charge', -PRIORITY_CENTS],
      ['label_refund', PRIORITY_CENTS],
      ['label_charge', -PRIORITY_CENTS],
    ]);
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
  });

  test('while buying from the carrier: once the reconciler finished it, the same key answers with that label', async () => {
    const u = await funded(2000);
    const key = randomUUID();
    const body = orderBody(u.id);
    // Let go by calling the carrier (same key, same label), so the dead request cannot refund a finished label.
    await cutOff(carrier.cut(), u, body, key, 'pass');

    expect((await send(u, body, key)).json()).toEqual(IN_PROGRESS);
    expect(await reconcileAfterCrash(u.id)).toMatchObject({ completed: 1 });

    const after = await send(u, body, key);
    expect(after.statusCode).toBe(201);
    const [row] = await labelRows(s, u.id);
    expect(after.json().data).toMatchObject({ orderId: row!.id, pdfName: row!.pdf_name });
    expect(await labelRows(s, u.id)).toHaveLength(1);
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
  });
});

describe('a key whose purchase failed', () => {
  test('for a reason that may pass (carrier unreachable): the same key tries again, charged once in all', async () => {
    const u = await funded(2000);
    const key = randomUUID();
    const body = orderBody(u.id);
    unreachable = 3;
    const first = await send(u, body, key);
    expect(first.statusCode).toBe(422);
    expect(first.json().message).toBe('The carrier could not be reached. Please try again.');
    await expectMoney(u.id, 2000);

    const second = await send(u, body, key);
    expect(second.statusCode).toBe(201);
    expect((await send(u, body, key)).json()).toEqual(second.json());
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
  });

  test('for a short balance: after a top-up the same key buys the label', async () => {
    const u = await funded(500);
    const key = randomUUID();
    const body = orderBody(u.id);
    expect((await send(u, body, key)).statusCode).toBe(402);
    await s.setBalance(u.id, 1000);
    const res = await send(u, body, key);
    expect(res.statusCode).toBe(201);
    await expectMoney(u.id, 1000 - PRIORITY_CENTS);
  });

  test('because the carrier refused the shipment: the same refusal again, nothing charged again', async () => {
    const u = await funded(2000);
    const key = randomUUID();
    const body = orderBody(u.id, { receiver: { receiver_name: 'FAIL' } });
    const first = await send(u, body, key);
    expect(first.statusCode).toBe(422);
    expect((await send(u, body, key)).json()).toEqual(first.json());
    expect(await labelRows(s, u.id)).toHaveLength(1);
    expect(await ledgerOf(u.id)).toHaveLength(3);
  });
});

describe('the same key with a different body', () => {
  test('is refused with 422 and charges nothing, whatever became of the first', async () => {
    const u = await funded(5000);
    const key = randomUUID();
    expect((await send(u, orderBody(u.id), key)).statusCode).toBe(201);
    const other = orderBody(u.id, { receiver: { receiver_name: 'Someone Else' } });
    const res = await send(u, other, key);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 'ORDERS_IDEMPOTENCY_KEY_REUSED',
      message: 'This Idempotency-Key was already used for a different order',
    });
    await expectMoney(u.id, 5000 - PRIORITY_CENTS);
    expect(await labelRows(s, u.id)).toHaveLength(1);
  });

  test('is refused while the first is still pending too', async () => {
    const u = await funded(5000);
    const key = randomUUID();
    await cutOff(ledger.cut('before-charge'), u, orderBody(u.id), key);
    const res = await send(u, orderBody(u.id, { package: { package_weight: 3 } }), key);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('ORDERS_IDEMPOTENCY_KEY_REUSED');
  });

  test('the same fields in another order are the same body', async () => {
    const u = await funded(5000);
    const key = randomUUID();
    const body = orderBody(u.id);
    const first = await send(u, body, key);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const second = await send(u, reordered, key);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    await expectMoney(u.id, 5000 - PRIORITY_CENTS);
  });

  test('keys belong to the user who pays: another user may use the same key for their own order', async () => {
    const a = await funded(5000);
    const b = await funded(5000);
    const key = randomUUID();
    expect((await send(a, orderBody(a.id), key)).statusCode).toBe(201);
    const res = await send(b, orderBody(b.id, { receiver: { receiver_name: 'Someone Else' } }), key);
    expect(res.statusCode).toBe(201);
    await expectMoney(b.id, 5000 - PRIORITY_CENTS);
  });
});
