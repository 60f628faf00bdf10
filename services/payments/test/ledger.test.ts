import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  balanceOf,
  creditDeposit,
  entriesOf,
  internal,
  ledgerSum,
  startTestPayments,
  type TestPayments,
} from './support';

let t: TestPayments;
beforeAll(async () => {
  t = await startTestPayments();
});
afterAll(() => t.close());

const ADMIN = randomUUID();
const charge = (userId: string, amountCents: number, key: string = randomUUID(), memo?: string) =>
  internal(t.app, 'POST', '/internal/ledger/charge', { userId, amountCents, key, ...(memo ? { memo } : {}) });
const refund = (userId: string, amountCents: number, chargeKey: string, key: string = randomUUID()) =>
  internal(t.app, 'POST', '/internal/ledger/refund', { userId, amountCents, key, chargeKey });
const setBalance = (userId: string, balanceCents: number, key: string = randomUUID(), adminId: string = ADMIN) =>
  internal(t.app, 'POST', '/internal/ledger/set-balance', { userId, balanceCents, adminId, key });

async function funded(cents: number): Promise<string> {
  const userId = randomUUID();
  if (cents > 0) await creditDeposit(t, userId, cents);
  return userId;
}

describe('internal ledger routes', () => {
  test.each([
    ['POST', '/internal/ledger/charge'],
    ['POST', '/internal/ledger/refund'],
    ['POST', '/internal/ledger/set-balance'],
    ['POST', '/internal/accounts/summaries'],
    ['GET', `/internal/ledger/${randomUUID()}`],
  ] as const)('%s %s refuses callers without the internal secret', async (method, url) => {
    for (const headers of [{}, { 'x-internal-secret': 'wrong-secret-wrong-secret' }]) {
      const res = await t.app.inject({ method, url, headers, ...(method === 'POST' ? { payload: {} } : {}) });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('POST /internal/ledger/charge', () => {
  test('takes the amount from the balance and answers the new balance', async () => {
    const userId = await funded(2000);
    const res = await charge(userId, 1250, 'charge-basic-1', 'label 1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ entryId: expect.any(String), balanceCents: 750, replayed: false });
    expect(await balanceOf(t.db, userId)).toBe(750);
    const [, entry] = await entriesOf(t.db, userId);
    expect(entry).toMatchObject({
      kind: 'label_charge',
      amount_cents: '-1250',
      balance_after_cents: '750',
      memo: 'label 1',
      idempotency_key: 'charge-basic-1',
    });
  });

  test('refuses a charge above the balance with the amounts in dollars, and moves nothing', async () => {
    const userId = await funded(300);
    const res = await charge(userId, 1250);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      code: 'PAYMENTS_INSUFFICIENT_BALANCE',
      message: 'Insufficient balance. This order costs $12.50 but your balance is $3.00.',
    });
    expect(await balanceOf(t.db, userId)).toBe(300);
    expect(await entriesOf(t.db, userId)).toHaveLength(1);
  });

  test('a user who never had money is refused with a zero balance', async () => {
    const res = await charge(randomUUID(), 1);
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBe('Insufficient balance. This order costs $0.01 but your balance is $0.00.');
  });

  test('of 50 concurrent charges against a balance that covers exactly 10, exactly 10 succeed', async () => {
    const userId = await funded(10 * 125);
    const results = await Promise.all(Array.from({ length: 50 }, () => charge(userId, 125)));
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode === 402);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.json().message).toBe('Insufficient balance. This order costs $1.25 but your balance is $0.00.');
    }
    expect(ok.map((r) => r.json().balanceCents).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, i) => i * 125),
    );
    expect(await balanceOf(t.db, userId)).toBe(0);
    expect(await ledgerSum(t.db, userId)).toBe(0);
    expect(await entriesOf(t.db, userId)).toHaveLength(11);
  });

  test('the same key sent 20 times at once charges once; the others replay the first result', async () => {
    const userId = await funded(5000);
    const key = `order-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 20 }, () => charge(userId, 999, key)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const bodies = results.map((r) => r.json());
    expect(bodies.filter((b) => !b.replayed)).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.entryId)).size).toBe(1);
    expect(new Set(bodies.map((b) => b.balanceCents))).toEqual(new Set([4001]));
    expect(await balanceOf(t.db, userId)).toBe(4001);
    expect((await entriesOf(t.db, userId)).filter((e) => e.kind === 'label_charge')).toHaveLength(1);
  });

  test('a replay later still answers the first result even after the balance moved on', async () => {
    const userId = await funded(1000);
    const first = (await charge(userId, 100, 'replay-later')).json();
    await charge(userId, 200);
    const again = await charge(userId, 100, 'replay-later');
    expect(again.json()).toEqual({ ...first, replayed: true });
    expect(await balanceOf(t.db, userId)).toBe(700);
  });

  test('a replay of a charge is not refused for lack of money', async () => {
    const userId = await funded(100);
    expect((await charge(userId, 100, 'all-in')).statusCode).toBe(200);
    const again = await charge(userId, 100, 'all-in');
    expect(again.statusCode).toBe(200);
    expect(again.json().replayed).toBe(true);
  });

  test('a key reused for another amount, another user or another kind is a conflict', async () => {
    const userId = await funded(1000);
    const other = await funded(1000);
    await charge(userId, 100, 'used-key');
    for (const res of [
      await charge(userId, 101, 'used-key'),
      await charge(other, 100, 'used-key'),
      await setBalance(userId, 5, 'used-key'),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('PAYMENTS_IDEMPOTENCY_CONFLICT');
    }
    expect(await balanceOf(t.db, userId)).toBe(900);
    expect(await balanceOf(t.db, other)).toBe(1000);
  });

  test('one key raced by two users at once charges only one of them', async () => {
    const a = await funded(1000);
    const b = await funded(1000);
    const key = `shared-${randomUUID()}`;
    const results = await Promise.all([charge(a, 100, key), charge(b, 100, key)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect([await balanceOf(t.db, a), await balanceOf(t.db, b)].sort()).toEqual([1000, 900]);
  });

  test('bad input is refused with a message naming it', async () => {
    const userId = await funded(1000);
    const cases: [object, string][] = [
      [{ userId, amountCents: -1, key: 'k' }, 'amountCents'],
      [{ userId, amountCents: 1.5, key: 'k' }, 'amountCents'],
      [{ userId, amountCents: 10, key: '' }, 'key'],
      [{ userId: 'not-a-user', amountCents: 10, key: 'k' }, 'userId'],
    ];
    for (const [payload, field] of cases) {
      const res = await internal(t.app, 'POST', '/internal/ledger/charge', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(field);
    }
    expect(await balanceOf(t.db, userId)).toBe(1000);
  });
});

describe('a free label ($0)', () => {
  test('is charged $0 under its key, once, and refunded $0 under its charge, once', async () => {
    const userId = await funded(0);
    const first = await charge(userId, 0, 'free-1');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ entryId: expect.any(String), balanceCents: 0, replayed: false });
    expect((await charge(userId, 0, 'free-1')).json()).toEqual({ ...first.json(), replayed: true });
    const back = await refund(userId, 0, 'free-1', 'free-1:refund');
    expect(back.statusCode).toBe(200);
    expect((await refund(userId, 0, 'free-1', 'free-1:refund')).json()).toEqual({ ...back.json(), replayed: true });
    expect((await refund(userId, 1, 'free-1', 'free-1:more')).statusCode).toBe(409);
    expect((await refund(userId, 0, 'never-charged', 'x:refund')).json().code).toBe('PAYMENTS_CHARGE_NOT_FOUND');
    expect(await balanceOf(t.db, userId)).toBe(0);
  });
});

describe('POST /internal/ledger/refund', () => {
  test('gives back part of a charge, once per key, never more than the charge', async () => {
    const userId = await funded(1000);
    await charge(userId, 1000, 'bulk-1');
    const first = await refund(userId, 400, 'bulk-1', 'bulk-1:row-1');
    expect(first.json()).toEqual({ entryId: expect.any(String), balanceCents: 400, replayed: false });
    const again = await refund(userId, 400, 'bulk-1', 'bulk-1:row-1');
    expect(again.json()).toEqual({ ...first.json(), replayed: true });
    expect((await refund(userId, 600, 'bulk-1', 'bulk-1:row-2')).json().balanceCents).toBe(1000);
    const over = await refund(userId, 1, 'bulk-1', 'bulk-1:row-3');
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({
      code: 'PAYMENTS_REFUND_EXCEEDS_CHARGE',
      message: 'Refunds cannot exceed the charge of $10.00 ($10.00 already refunded)',
    });
    expect(await balanceOf(t.db, userId)).toBe(1000);
    const refunds = (await entriesOf(t.db, userId)).filter((e) => e.kind === 'label_refund');
    expect(refunds.map((e) => [e.amount_cents, e.reference])).toEqual([
      ['400', 'bulk-1'],
      ['600', 'bulk-1'],
    ]);
  });

  test('concurrent refunds of one charge together never exceed it', async () => {
    const userId = await funded(1000);
    await charge(userId, 1000, 'race-charge');
    const results = await Promise.all(Array.from({ length: 10 }, () => refund(userId, 300, 'race-charge')));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(7);
    expect(await balanceOf(t.db, userId)).toBe(900);
    expect(await ledgerSum(t.db, userId)).toBe(900);
  });

  test("a refund needs a charge of that user's", async () => {
    const userId = await funded(1000);
    const other = await funded(1000);
    await charge(other, 500, 'others-charge');
    const deposit = await creditDeposit(t, userId, 100, 'a-deposit-key');
    for (const chargeKey of ['never-charged', 'others-charge', deposit.key]) {
      const res = await refund(userId, 100, chargeKey);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'PAYMENTS_CHARGE_NOT_FOUND', message: 'No charge found for this refund' });
    }
    expect(await balanceOf(t.db, userId)).toBe(1100);
  });

  test('a refund key reused for another charge or amount is a conflict', async () => {
    const userId = await funded(1000);
    await charge(userId, 300, 'c-1');
    await charge(userId, 300, 'c-2');
    await refund(userId, 100, 'c-1', 'r-1');
    expect((await refund(userId, 100, 'c-2', 'r-1')).statusCode).toBe(409);
    expect((await refund(userId, 50, 'c-1', 'r-1')).statusCode).toBe(409);
    expect(await balanceOf(t.db, userId)).toBe(500);
  });
});

describe('POST /internal/ledger/set-balance', () => {
  test('records the difference as an adjustment signed by the admin', async () => {
    const userId = await funded(500);
    const up = await setBalance(userId, 1234, 'admin-balance:1');
    expect(up.json()).toEqual({ entryId: expect.any(String), balanceCents: 1234, replayed: false });
    const down = await setBalance(userId, 200, 'admin-balance:2');
    expect(down.json().balanceCents).toBe(200);
    const adjustments = (await entriesOf(t.db, userId)).filter((e) => e.kind === 'admin_adjustment');
    expect(adjustments.map((e) => [e.amount_cents, e.balance_after_cents, e.admin_id])).toEqual([
      ['734', '1234', ADMIN],
      ['-1034', '200', ADMIN],
    ]);
    expect(await balanceOf(t.db, userId)).toBe(200);
    expect(await ledgerSum(t.db, userId)).toBe(200);
  });

  test('setting the current balance records nothing', async () => {
    const userId = await funded(700);
    const res = await setBalance(userId, 700);
    expect(res.json()).toEqual({ entryId: null, balanceCents: 700, replayed: false });
    expect(await entriesOf(t.db, userId)).toHaveLength(1);
  });

  test('a repeated key replays instead of adjusting again', async () => {
    const userId = await funded(0);
    const first = await setBalance(userId, 5000, 'admin-balance:req-9');
    await charge(userId, 1000);
    const again = await setBalance(userId, 5000, 'admin-balance:req-9');
    expect(again.json()).toEqual({ ...first.json(), replayed: true });
    expect(await balanceOf(t.db, userId)).toBe(4000);
  });

  test('a negative balance or a non-user admin id is refused', async () => {
    const userId = await funded(100);
    expect((await setBalance(userId, -1)).statusCode).toBe(400);
    const res = await setBalance(userId, 10, randomUUID(), 'someone');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'adminId is not a valid id' });
    expect(await balanceOf(t.db, userId)).toBe(100);
  });
});

describe('POST /internal/accounts/summaries', () => {
  test('gives balance, total deposit and total spent (charges less refunds) in dollars', async () => {
    const userId = await funded(10_000);
    await creditDeposit(t, userId, 2550);
    await charge(userId, 1999, 'sum-c1');
    await charge(userId, 501, 'sum-c2');
    await refund(userId, 501, 'sum-c2');
    await setBalance(userId, 20_000);
    const nobody = randomUUID();
    const res = await internal(t.app, 'POST', '/internal/accounts/summaries', {
      userIds: [userId, nobody, userId, 'not-a-uuid'],
    });
    expect(res.statusCode).toBe(200);
    const [latest] = await t.db('ledger_entries').where({ user_id: userId }).max<{ max: string }[]>('seq as max');
    expect(res.json()).toEqual({
      summaries: [
        { userId, balance: 200, totalDeposit: 125.5, totalSpent: 19.99, seq: Number(latest?.max) },
        { userId: nobody, balance: 0, totalDeposit: 0, totalSpent: 0, seq: 0 },
        { userId: 'not-a-uuid', balance: 0, totalDeposit: 0, totalSpent: 0, seq: 0 },
      ],
    });
  });

  test('more than 1000 ids at once are refused', async () => {
    const res = await internal(t.app, 'POST', '/internal/accounts/summaries', {
      userIds: Array.from({ length: 1001 }, () => randomUUID()),
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('account.changed', () => {
  const announced = async (userId: string) =>
    (await t.db('outbox').where({ topic: 'account.changed', key: userId }).orderBy('id').select('value')).map(
      (r: { value: unknown }) => r.value,
    );

  test("every movement records the user's money as it now is, with a seq that grows", async () => {
    const userId = await funded(10_000);
    await charge(userId, 1999, 'acct-c1');
    await refund(userId, 500, 'acct-c1');
    await setBalance(userId, 5000);
    const events = (await announced(userId)) as { seq: number }[];
    expect(events).toMatchObject([
      { userId, balanceCents: 10_000, totalDepositCents: 10_000, totalSpentCents: 0 },
      { userId, balanceCents: 8001, totalDepositCents: 10_000, totalSpentCents: 1999 },
      { userId, balanceCents: 8501, totalDepositCents: 10_000, totalSpentCents: 1499 },
      { userId, balanceCents: 5000, totalDepositCents: 10_000, totalSpentCents: 1499 },
    ]);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(4);
  });

  test('a refused or replayed movement records nothing', async () => {
    const userId = await funded(100);
    await charge(userId, 50, 'acct-once');
    await charge(userId, 50, 'acct-once');
    expect((await charge(userId, 10_000)).statusCode).toBe(402);
    expect(await announced(userId)).toHaveLength(2);
  });

  test('the relay carries it to the bus keyed by user id', async () => {
    const userId = await funded(700);
    expect(await t.accountChanges.flush()).toBeGreaterThan(0);
    const messages = await t.db('bus.messages').where({ topic: 'account.changed', key: userId }).select('value');
    expect(messages).toMatchObject([{ value: { userId, balanceCents: 700 } }]);
  });
});

describe('GET /internal/ledger/:userId', () => {
  test('lists the movements newest first', async () => {
    const userId = await funded(1000);
    await charge(userId, 100, 'list-1');
    await setBalance(userId, 50, 'list-2');
    const res = await internal(t.app, 'GET', `/internal/ledger/${userId}`);
    expect(res.statusCode).toBe(200);
    const { entries } = res.json();
    expect(entries.map((e: { kind: string; amountCents: number }) => [e.kind, e.amountCents])).toEqual([
      ['admin_adjustment', -850],
      ['label_charge', -100],
      ['deposit', 1000],
    ]);
    expect(entries[0]).toMatchObject({ userId, key: 'list-2', adminId: ADMIN, balanceAfterCents: 50 });
  });
});

describe('the database keeps money honest on its own', () => {
  test('ledger entries can be neither updated nor deleted nor truncated', async () => {
    const userId = await funded(100);
    await expect(t.db('ledger_entries').where({ user_id: userId }).update({ amount_cents: 1_000_000 })).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db('ledger_entries').where({ user_id: userId }).delete()).rejects.toThrow(/append-only/);
    await expect(t.db.raw('truncate ledger_entries cascade')).rejects.toThrow(/append-only/);
    expect(await ledgerSum(t.db, userId)).toBe(100);
  });

  test('a balance can never go below zero', async () => {
    const userId = await funded(100);
    await expect(t.db('accounts').where({ user_id: userId }).update({ balance_cents: -1 })).rejects.toThrow(
      /accounts_balance_check/,
    );
  });

  test('an entry whose sign contradicts its kind is refused', async () => {
    const userId = await funded(100);
    await expect(
      t.db('ledger_entries').insert({
        user_id: userId,
        kind: 'label_charge',
        amount_cents: 50,
        balance_after_cents: 150,
        idempotency_key: randomUUID(),
      }),
    ).rejects.toThrow(/ledger_entries_amount_sign_check/);
  });
});
