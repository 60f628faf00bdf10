import { randomUUID } from 'node:crypto';
import { createSandboxCarrier } from '@flatship/carriers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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

// A single-label purchase and the reconciler (or a retry with its Idempotency-Key) at the same
// time: a purchase still at work is never settled under it, however slow, and one whose
// process died is settled, or carried on, at once. Real pricing and payments, sandbox carrier.
const PRIORITY_CENTS = 895;
const NOTHING = { completed: 0, cancelled: 0, stillPending: 0 };

const ledger = createCuttableLedger();
const carrier = createCuttableCarrier(createSandboxCarrier());

let s: Stack;
beforeAll(async () => {
  s = await startStack({ ledger: ledger.wrap, carrier: carrier.carrier });
});
afterAll(() => s.close());

const dead = deadRequestsReleasedAfterEach();

const funded = (cents: number) => fundedUser(s, cents);

const send = (u: TestUser, key?: string) => postOrder(s, u, orderBody(u.id), key ? { 'idempotency-key': key } : {});

/** Sends a purchase and returns once it hangs where `cut` says, with the id of its row. */
async function inFlight(cut: Promise<Hang>, u: TestUser, key?: string) {
  const request = send(u, key);
  const hang = await cut;
  const [row] = await labelRows(s, u.id);
  if (!row) throw new Error('the purchase has no row yet');
  return { request, hang, labelId: row.id };
}

/** Makes the user's rows look untouched for minutes, as a purchase held up that long would be. */
async function pastCutOff(userId: string) {
  await s
    .db('labels')
    .where({ user_id: userId })
    .update({ updated_at: s.db.raw("now() - interval '10 minutes'") });
}

const ledgerOf = async (userId: string) =>
  (await s.ledgerEntries(userId)).map((e) => [e.kind, Number(e.amount_cents)] as const);

/** The balance, and the ledger summing to it. */
async function expectMoney(userId: string, balanceCents: number) {
  expect(await s.balanceCents(userId)).toBe(balanceCents);
  const sum = (await ledgerOf(userId)).reduce((acc, [, cents]) => acc + cents, 0);
  expect(sum).toBe(balanceCents);
}

const statuses = async (userId: string) => (await labelRows(s, userId)).map((r) => [r.status, r.refunded]);

describe('a purchase still at work when the reconciler runs', () => {
  test('the carrier answers only after a reconciler run: the row is left alone, the label completes, charged once', async () => {
    const u = await funded(2000);
    const { request, hang } = await inFlight(carrier.cut(), u);
    await pastCutOff(u.id);

    expect(await reconcilePendingLabels(s.domain)).toEqual(NOTHING);
    expect(await statuses(u.id)).toEqual([['pending', false]]);

    await hang.release('pass');
    const res = await request;
    expect(res.statusCode).toBe(201);
    expect(await statuses(u.id)).toEqual([['completed', false]]);
    expect(await ledgerOf(u.id)).toEqual([
      ['admin_adjustment', 2000],
      ['label_charge', -PRIORITY_CENTS],
    ]);
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
  });

  test('payments answers only after a reconciler run: the charge that lands pays for the label', async () => {
    const u = await funded(2000);
    const { request, hang } = await inFlight(ledger.cut('before-charge'), u);
    await pastCutOff(u.id);

    expect(await reconcilePendingLabels(s.domain)).toEqual(NOTHING);
    expect(await statuses(u.id)).toEqual([['pending', false]]);

    await hang.release('pass');
    const res = await request;
    expect(res.statusCode).toBe(201);
    expect(await statuses(u.id)).toEqual([['completed', false]]);
    expect(await ledgerOf(u.id)).toEqual([
      ['admin_adjustment', 2000],
      ['label_charge', -PRIORITY_CENTS],
    ]);
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
  });

  test('a retry with its key while it is at work is told to wait, and takes nothing', async () => {
    const u = await funded(2000);
    const key = randomUUID();
    const { request, hang } = await inFlight(carrier.cut(), u, key);
    await pastCutOff(u.id);

    const retry = await send(u, key);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().code).toBe('ORDERS_IN_PROGRESS');

    await hang.release('pass');
    const res = await request;
    expect(res.statusCode).toBe(201);
    expect((await send(u, key)).json()).toEqual(res.json());
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
  });

  test('one that lost its hold on the row while its charge was on the way gives that charge back', async () => {
    const u = await funded(2000);
    const { request, hang, labelId } = await inFlight(ledger.cut('before-charge'), u);
    // Its connection to the database drops (the process lives on); the reconciler takes the row.
    await crashLabelLockHolder(s.db, labelId);
    expect(await reconcilePendingLabels(s.domain)).toMatchObject({ cancelled: 1 });

    // The charge reaches payments after all.
    await hang.release('pass');
    const res = await request;
    expect(res.statusCode).toBe(503);
    expect(await statuses(u.id)).toEqual([['cancelled', true]]);
    expect(await ledgerOf(u.id)).toEqual([
      ['admin_adjustment', 2000],
      ['label_charge', -PRIORITY_CENTS],
      ['label_refund', PRIORITY_CENTS],
    ]);
    await expectMoney(u.id, 2000);
  });
});

describe('a purchase whose process died', () => {
  test('before its charge: the next reconciler run cancels it, however recent', async () => {
    const u = await funded(2000);
    const { request, hang, labelId } = await inFlight(ledger.cut('before-charge'), u);
    dead.push({ hang, how: 'fail', request });
    await crashLabelLockHolder(s.db, labelId);

    expect(await reconcilePendingLabels(s.domain)).toEqual({ ...NOTHING, cancelled: 1 });
    expect(await statuses(u.id)).toEqual([['cancelled', false]]);
    await expectMoney(u.id, 2000);
  });

  test('after payments took the money: the next reconciler run refunds and cancels it', async () => {
    const u = await funded(2000);
    const { request, hang, labelId } = await inFlight(ledger.cut('after-charge'), u);
    dead.push({ hang, how: 'fail', request });
    await crashLabelLockHolder(s.db, labelId);

    expect(await reconcilePendingLabels(s.domain)).toEqual({ ...NOTHING, cancelled: 1 });
    expect(await statuses(u.id)).toEqual([['cancelled', true]]);
    await expectMoney(u.id, 2000);
  });

  test('after payments took the money: a retry with its key at once finishes that purchase, charged once', async () => {
    const u = await funded(2000);
    const key = randomUUID();
    const { request, hang, labelId } = await inFlight(ledger.cut('after-charge'), u, key);
    dead.push({ hang, how: 'fail', request });
    await crashLabelLockHolder(s.db, labelId);

    const retry = await send(u, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().data.orderId).toBe(labelId);
    expect((await send(u, key)).json()).toEqual(retry.json());
    expect(await statuses(u.id)).toEqual([['completed', false]]);
    expect(await ledgerOf(u.id)).toEqual([
      ['admin_adjustment', 2000],
      ['label_charge', -PRIORITY_CENTS],
    ]);
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
  });

  test('before its charge: a retry with its key at once buys the label, charged once', async () => {
    const u = await funded(2000);
    const key = randomUUID();
    const { request, hang, labelId } = await inFlight(ledger.cut('before-charge'), u, key);
    dead.push({ hang, how: 'fail', request });
    await crashLabelLockHolder(s.db, labelId);

    const retry = await send(u, key);
    expect(retry.statusCode).toBe(201);
    expect(await statuses(u.id)).toEqual([['completed', false]]);
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
    expect(await ledgerOf(u.id)).toHaveLength(2);
  });

  test('while buying from the carrier: a retry with its key at once gets that same label', async () => {
    const u = await funded(2000);
    const key = randomUUID();
    const { request, hang, labelId } = await inFlight(carrier.cut(), u, key);
    // Let go by calling the carrier (same key, same label), as a request that got that far would.
    dead.push({ hang, how: 'pass', request });
    await crashLabelLockHolder(s.db, labelId);

    const retry = await send(u, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().data.orderId).toBe(labelId);
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
  });
});
