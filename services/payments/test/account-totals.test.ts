import { randomUUID } from 'node:crypto';
import { createDb, migrate } from '@flatship/kit';
import { createTestDatabase } from '@flatship/kit/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrations, PAYMENTS_SCHEMA } from '../src/db/migrations';
import { creditDeposit, internal, startTestPayments, type TestPayments } from './support';

let t: TestPayments;
beforeAll(async () => {
  t = await startTestPayments();
});
afterAll(() => t.close());

const ADMIN = randomUUID();
const charge = (userId: string, amountCents: number, key: string) =>
  internal(t.app, 'POST', '/internal/ledger/charge', { userId, amountCents, key });
const refund = (userId: string, amountCents: number, chargeKey: string, key: string) =>
  internal(t.app, 'POST', '/internal/ledger/refund', { userId, amountCents, key, chargeKey });
const setBalance = (userId: string, balanceCents: number, key: string) =>
  internal(t.app, 'POST', '/internal/ledger/set-balance', { userId, balanceCents, adminId: ADMIN, key });

/** What the ledger itself says: deposits, charges and refunds summed by kind, and the latest seq. */
async function ledgerTotals(userId: string) {
  const { rows } = await t.db.raw(
    `select coalesce(sum(amount_cents), 0)::bigint as balance,
            coalesce(sum(amount_cents) filter (where kind = 'deposit'), 0) as deposit,
            coalesce(-sum(amount_cents) filter (where kind = 'label_charge'), 0) as charged,
            coalesce(sum(amount_cents) filter (where kind = 'label_refund'), 0) as refunded,
            coalesce(max(seq), 0) as seq
       from ledger_entries where user_id = ?`,
    [userId],
  );
  const r = rows[0];
  return {
    balance_cents: String(r.balance),
    total_deposit_cents: String(r.deposit),
    total_charged_cents: String(r.charged),
    total_refunded_cents: String(r.refunded),
    last_entry_seq: String(r.seq),
  };
}

const accountTotals = (userId: string) =>
  t
    .db('accounts')
    .where({ user_id: userId })
    .first('balance_cents', 'total_deposit_cents', 'total_charged_cents', 'total_refunded_cents', 'last_entry_seq');

describe('running totals on the account row', () => {
  test('equal the ledger after deposits, charges, refunds, adjustments, replays and refusals', async () => {
    const userId = randomUUID();
    await creditDeposit(t, userId, 10_000, `tot-d1-${userId}`);
    await expect(creditDeposit(t, userId, 10_000, `tot-d1-${userId}`)).rejects.toThrow(/key taken/);
    await creditDeposit(t, userId, 2550);
    expect((await charge(userId, 1999, `tot-c1-${userId}`)).statusCode).toBe(200);
    expect((await charge(userId, 1999, `tot-c1-${userId}`)).json()).toMatchObject({ replayed: true });
    expect((await charge(userId, 501, `tot-c2-${userId}`)).statusCode).toBe(200);
    expect((await refund(userId, 501, `tot-c2-${userId}`, `tot-r1-${userId}`)).statusCode).toBe(200);
    expect((await refund(userId, 501, `tot-c2-${userId}`, `tot-r1-${userId}`)).json()).toMatchObject({
      replayed: true,
    });
    expect((await charge(userId, 300, `tot-c3-${userId}`)).statusCode).toBe(200);
    expect((await refund(userId, 100, `tot-c3-${userId}`, `tot-r2-${userId}`)).statusCode).toBe(200);
    expect((await setBalance(userId, 20_000, `tot-a1-${userId}`)).statusCode).toBe(200);
    expect((await setBalance(userId, 20_000, `tot-a1-${userId}`)).json()).toMatchObject({ replayed: true });
    expect((await setBalance(userId, 5_000, `tot-a2-${userId}`)).statusCode).toBe(200);
    // Refused movements write nothing.
    expect((await charge(userId, 1_000_000, `tot-c4-${userId}`)).statusCode).toBe(402);
    expect((await refund(userId, 2000, `tot-c1-${userId}`, `tot-r3-${userId}`)).statusCode).toBe(409);

    const totals = await accountTotals(userId);
    expect(totals).toEqual(await ledgerTotals(userId));
    expect(totals).toMatchObject({
      balance_cents: '5000',
      total_deposit_cents: '12550',
      total_charged_cents: '2800',
      total_refunded_cents: '601',
    });
    const res = await internal(t.app, 'POST', '/internal/accounts/summaries', { userIds: [userId] });
    expect(res.json().summaries).toEqual([
      { userId, balance: 50, totalDeposit: 125.5, totalSpent: 21.99, seq: Number(totals?.last_entry_seq) },
    ]);
  });

  test('stay equal to the ledger when the same movements race', async () => {
    const userId = randomUUID();
    await creditDeposit(t, userId, 5_000);
    const keys = Array.from({ length: 6 }, (_, i) => `tot-race-${i}-${userId}`);
    // Every key sent three times at once: one entry each, whoever wins.
    await Promise.all(
      keys.flatMap((key) => [charge(userId, 250, key), charge(userId, 250, key), charge(userId, 250, key)]),
    );
    await Promise.all(
      keys.slice(0, 3).flatMap((key) => [refund(userId, 250, key, `r-${key}`), refund(userId, 250, key, `r-${key}`)]),
    );
    const totals = await accountTotals(userId);
    expect(totals).toEqual(await ledgerTotals(userId));
    expect(totals).toMatchObject({ balance_cents: '4250', total_charged_cents: '1500', total_refunded_cents: '750' });
  });
});

describe('the 0004 migration', () => {
  test('backfills the totals of existing accounts from their ledger', async () => {
    const tdb = await createTestDatabase('payments_totals');
    const db = createDb(tdb.url, PAYMENTS_SCHEMA);
    try {
      const before = migrations.findIndex((m) => m.name === '0004_account_totals');
      expect(before).toBeGreaterThan(0);
      await migrate(db, PAYMENTS_SCHEMA, migrations.slice(0, before));
      const [ann, bob, idle] = [randomUUID(), randomUUID(), randomUUID()];
      await db('accounts').insert([
        { user_id: ann, balance_cents: 1300 },
        { user_id: bob, balance_cents: 40 },
        { user_id: idle, balance_cents: 0 },
      ]);
      const entry = (user_id: string, kind: string, amount_cents: number, balance_after_cents: number, extra = {}) => ({
        user_id,
        kind,
        amount_cents,
        balance_after_cents,
        idempotency_key: randomUUID(),
        ...extra,
      });
      await db('ledger_entries').insert([
        entry(ann, 'deposit', 2000, 2000),
        entry(ann, 'label_charge', -800, 1200),
        entry(ann, 'label_refund', 300, 1500, { reference: 'c' }),
        entry(ann, 'admin_adjustment', -200, 1300, { admin_id: ADMIN }),
        entry(bob, 'admin_adjustment', 40, 40, { admin_id: ADMIN }),
      ]);
      await migrate(db, PAYMENTS_SCHEMA, migrations);
      const rows = await db('accounts')
        .whereIn('user_id', [ann, bob, idle])
        .select('user_id', 'total_deposit_cents', 'total_charged_cents', 'total_refunded_cents', 'last_entry_seq');
      const byUser = new Map(rows.map((r) => [r.user_id, r]));
      const maxSeq = async (u: string) =>
        String((await db('ledger_entries').where({ user_id: u }).max<{ max: string }[]>('seq as max'))[0]?.max);
      expect(byUser.get(ann)).toMatchObject({
        total_deposit_cents: '2000',
        total_charged_cents: '800',
        total_refunded_cents: '300',
        last_entry_seq: await maxSeq(ann),
      });
      expect(byUser.get(bob)).toMatchObject({
        total_deposit_cents: '0',
        total_charged_cents: '0',
        total_refunded_cents: '0',
        last_entry_seq: await maxSeq(bob),
      });
      expect(byUser.get(idle)).toMatchObject({ total_deposit_cents: '0', last_entry_seq: '0' });
    } finally {
      await db.destroy();
      await tdb.drop();
    }
  });
});
