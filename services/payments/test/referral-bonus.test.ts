import { randomUUID } from 'node:crypto';
import { TOPICS } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createFakeBtcpay,
  createTestBtcpayClient,
  type FakeBtcpay,
  signBody,
  WEBHOOK_SECRET,
  webhookEvent,
} from './fake-btcpay';
import { internal, startTestPayments, type TestPayments } from './support';

/** Payments' own side of the referral bonus; the whole flow across services is in admin's referral-bonus test. */

const fake: FakeBtcpay = createFakeBtcpay();
let t: TestPayments;
beforeAll(async () => {
  fake.listen();
  t = await startTestPayments({ btcpay: { provider: createTestBtcpayClient(), webhookSecret: WEBHOOK_SECRET } });
});
afterAll(async () => {
  await t.close();
  fake.close();
});

const put = (payload: object) =>
  t.app.inject({
    method: 'PUT',
    url: '/internal/referral-bonus/settings',
    headers: { 'x-internal-secret': 'test-internal-secret-0123456789' },
    payload,
  });

describe('settings', () => {
  test('a fresh install has the program off with a $10 minimum, changed by nobody yet', async () => {
    const res = await internal(t.app, 'GET', '/internal/referral-bonus/settings');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      referrerBonusCents: 0,
      referredBonusCents: 0,
      minimumDepositCents: 1000,
      updatedAt: null,
      updatedBy: null,
    });
    const user = t.users.add();
    const terms = await t.app.inject({ url: '/api/payment/referral-bonus', headers: { token: t.tokenFor(user) } });
    expect(terms.json()).toEqual({ isEnabled: false, referrerBonus: 0, referredBonus: 0, minimumDeposit: 10 });
    // A visitor on the register page (an invite link) reads them too, before having an account.
    const visitor = await t.app.inject({ url: '/api/payment/referral-bonus' });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual(terms.json());
  });

  test.each([
    [{ referrerBonusCents: -1 }, 'referrerBonusCents'],
    [{ referredBonusCents: 10_001 }, 'referredBonusCents'],
    [{ referrerBonusCents: 2.5 }, 'referrerBonusCents'],
    [{ minimumDepositCents: 1_000_001 }, 'minimumDepositCents'],
    [{ adminId: 'not-an-id' }, 'adminId'],
  ])('whole cents within the limits only: %j is a 400 naming the field', async (over, field) => {
    const admin = randomUUID();
    const res = await put({
      referrerBonusCents: 500,
      referredBonusCents: 500,
      minimumDepositCents: 1000,
      adminId: admin,
      ...over,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().message).toContain(field);
  });

  test('a change is kept with the admin who made it, and every change is kept', async () => {
    const admin = randomUUID();
    const res = await put({
      referrerBonusCents: 0,
      referredBonusCents: 10_000,
      minimumDepositCents: 0,
      adminId: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ referredBonusCents: 10_000, updatedBy: admin, updatedAt: expect.any(String) });
    const changes = await t.db('referral_bonus_settings_changes').where({ admin_id: admin });
    expect(changes).toEqual([
      expect.objectContaining({ referrer_bonus_cents: 0, referred_bonus_cents: 10_000, minimum_deposit_cents: 0 }),
    ]);
  });
});

describe('deposit.settled', () => {
  async function settle(amount: string) {
    const user = t.users.add();
    const top = await t.app.inject({ url: `/api/payment/top-up/${user.id}`, headers: { token: t.tokenFor(user) } });
    const invoiceId = top.json().id as string;
    fake.set(invoiceId, { status: 'Settled', amount });
    const raw = JSON.stringify(webhookEvent('InvoiceSettled', invoiceId));
    const deliver = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/payment/webhook/btcpay',
        headers: { 'content-type': 'application/json', 'btcpay-sig': signBody(raw) },
        payload: raw,
      });
    return { user, invoiceId, deliver };
  }
  const announced = async (userId: string) =>
    (await t.db('outbox').where({ topic: TOPICS.depositSettled, key: userId })).map((r) => r.value);

  test('is recorded with the credit, once, however often BTCPay delivers the settlement', async () => {
    const { user, invoiceId, deliver } = await settle('12.34');
    await Promise.all([deliver(), deliver(), deliver()]);
    await deliver();
    expect(await announced(user.id)).toEqual([
      { userId: user.id, invoiceId, amountCents: 1234, settledAt: expect.any(String) },
    ]);
  });

  test('is not recorded for an invoice settled with nothing paid', async () => {
    const { user, deliver } = await settle('0');
    expect((await deliver()).statusCode).toBe(200);
    expect(await announced(user.id)).toEqual([]);
  });
});

describe('the ledger', () => {
  test('takes a referral bonus only as a positive amount naming the referral', async () => {
    const user = randomUUID();
    await t.db('accounts').insert({ user_id: user });
    const entry = (amount: number, reference: string | null) =>
      t.db('ledger_entries').insert({
        user_id: user,
        kind: 'referral_bonus',
        amount_cents: amount,
        balance_after_cents: 0,
        idempotency_key: randomUUID(),
        reference,
      });
    await expect(entry(-500, randomUUID())).rejects.toThrow(/ledger_entries_amount_sign_check/);
    await expect(entry(500, null)).rejects.toThrow(/ledger_entries_amount_sign_check/);
  });
});

describe('the deposit history', () => {
  test('lists a referral bonus as a settled line of its own, never among expired or pending deposits', async () => {
    const user = t.users.add();
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
    await t.repos.deposits.insert({
      userId: user.id,
      invoiceId: `i-${randomUUID()}`,
      amountCents: 2000,
      status: 'Settled',
      createdAt: at(0),
    });
    await t.repos.deposits.insert({
      userId: user.id,
      invoiceId: `i-${randomUUID()}`,
      amountCents: 0,
      status: 'Expired',
      createdAt: at(1),
    });
    await t.repos.deposits.insert({
      userId: user.id,
      invoiceId: `i-${randomUUID()}`,
      amountCents: 0,
      status: 'New',
      createdAt: at(2),
    });
    await t.repos.transactor.run(async (tx) => {
      const balance = await t.repos.ledger.lockAccount(user.id, tx);
      await t.repos.ledger.append(
        {
          userId: user.id,
          kind: 'referral_bonus',
          amountCents: 500,
          balanceAfterCents: balance + 500,
          key: `referral-bonus:${randomUUID()}:referred`,
          reference: randomUUID(),
          memo: 'Referral bonus: you joined with a referral code',
        },
        tx,
      );
    });
    const list = async (filter: string) =>
      (
        await t.app.inject({
          url: `/api/payment/deposits/${user.id}?page=1&limit=7&filter=${filter}`,
          headers: { token: t.tokenFor(user) },
        })
      ).json();

    const all = await list('all');
    expect(all.totalCount).toBe(4);
    // The bonus is the newest line (it was credited now; the deposits are from January 2026).
    expect(all.deposits[0]).toEqual({
      _id: expect.any(String),
      amount: 5,
      createdTime: expect.any(Number),
      status: 'Settled',
      kind: 'referral_bonus',
      description: 'Referral bonus: you joined with a referral code',
    });
    expect(all.deposits.slice(1).map((d: { status: string; kind?: string }) => [d.status, d.kind])).toEqual([
      ['New', undefined],
      ['Expired', undefined],
      ['Settled', undefined],
    ]);
    const settled = await list('settled');
    expect(settled.totalCount).toBe(2);
    expect(settled.deposits.map((d: { amount: number }) => d.amount)).toEqual([5, 20]);
    expect((await list('pending')).totalCount).toBe(1);
    expect((await list('expired')).totalCount).toBe(1);
    // A bonus is credit, not money paid in: it moves the balance, not the total deposited.
    const summary = await internal(t.app, 'POST', '/internal/accounts/summaries', { userIds: [user.id] });
    expect(summary.json().summaries[0]).toMatchObject({ balance: 5, totalDeposit: 0 });
  });
});
