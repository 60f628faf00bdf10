import { createTransactor } from '@flatship/kit';
import type { DepositSettledEvent, InvitedUser, ReferralBonusState, SessionUser } from '@flatship/proto';
import { TOPICS } from '@flatship/proto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createAuthReferralDirectory } from '../../payments/src/adapters/auth-referrals';
import { createLedgerRepo } from '../../payments/src/db/ledger-repo';
import { createReferralBonusRepo } from '../../payments/src/db/referral-bonus-repo';
import { type CreditReferralBonusDeps, creditReferralBonus } from '../../payments/src/domain/credit-referral-bonus';
import type { LedgerRepo } from '../../payments/src/domain/ports';
import { REFERRAL_BONUS_GROUP } from '../../payments/src/jobs/referral-bonus-consumer';
import {
  createFakeBtcpay,
  createTestBtcpayClient,
  type FakeBtcpay,
  signBody,
  WEBHOOK_SECRET,
  webhookEvent,
} from '../../payments/test/fake-btcpay';
import { eventually, PASSWORD, type Registered, registerAdmin, type Stack, startStack } from './support';

/**
 * The referral bonus end to end on the real services: admin sets it, auth links referrals, a BTCPay webhook settles
 * a deposit in payments, whose outbox announces `deposit.settled` on the bus, and payments' consumer credits the
 * bonus. BTCPay alone is faked, at the network edge.
 */

const fake: FakeBtcpay = createFakeBtcpay();
let s: Stack;
let admin: Registered;

beforeAll(async () => {
  fake.listen();
  s = await startStack({ btcpay: { provider: createTestBtcpayClient(), webhookSecret: WEBHOOK_SECRET } });
  admin = await registerAdmin(s);
});
afterAll(async () => {
  await s.close();
  fake.close();
});

let seq = 0;
async function signUp(name: string, referralCode?: string): Promise<Registered> {
  const email = `ref.${Date.now().toString(36)}.${++seq}@example.com`;
  const res = await s.auth.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name, email, password: PASSWORD, confirmPassword: PASSWORD, ...(referralCode ? { referralCode } : {}) },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { token: string; user: SessionUser };
  return { token: body.token, user: body.user, email };
}

/** A friend (the role that sees the Invites page) and someone who joined with their code. */
async function referral(): Promise<{ referrer: Registered; newcomer: Registered }> {
  const registered = await signUp('Referrer');
  await s.authClient.request('POST', `/internal/users/${registered.user._id}/role`, { body: { user_role: 'friend' } });
  const login = await s.auth.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: registered.email, password: PASSWORD },
  });
  const referrer = { ...registered, token: (login.json() as { token: string }).token };
  const newcomer = await signUp('Newcomer', referrer.user.referralCode);
  return { referrer, newcomer };
}

const settings = (body: unknown, token = admin.token) =>
  s.admin.inject({ method: 'PUT', url: '/api/admin/referral-bonus', headers: { token }, payload: body as object });

async function setBonus(referrerBonus: number, referredBonus: number, minimumDeposit: number) {
  const res = await settings({ referrerBonus, referredBonus, minimumDeposit });
  expect(res.statusCode).toBe(200);
}

async function openInvoice(user: Registered): Promise<string> {
  const res = await s.payments.inject({
    url: `/api/payment/top-up/${user.user._id}`,
    headers: { token: user.token },
  });
  expect(res.statusCode).toBe(200);
  return res.json().id as string;
}

function deliverSettled(invoiceId: string) {
  const raw = JSON.stringify(webhookEvent('InvoiceSettled', invoiceId));
  return s.payments.inject({
    method: 'POST',
    url: '/api/payment/webhook/btcpay',
    headers: { 'content-type': 'application/json', 'btcpay-sig': signBody(raw) },
    payload: raw,
  });
}

/** The user pays `amount` dollars into a fresh invoice and BTCPay's webhook says so. */
async function deposit(user: Registered, amount: string): Promise<string> {
  const invoiceId = await openInvoice(user);
  fake.set(invoiceId, { status: 'Settled', amount });
  expect((await deliverSettled(invoiceId)).statusCode).toBe(200);
  return invoiceId;
}

/** Every `deposit.settled` recorded so far has been handled by the bonus consumer (its offsets are past them). */
async function bonusesSettled(): Promise<void> {
  await s.flush();
  await eventually(async () => {
    const pending = await s.paymentsDb('outbox').count<{ count: string }[]>('* as count').first();
    expect(Number(pending?.count)).toBe(0);
    const row = (await s.adminDb.raw(
      `select coalesce(sum(p.next_offset), 0) as produced, coalesce(sum(o.next_offset), 0) as handled
         from bus.partitions p
         left join bus.offsets o on o.group_id = ? and o.topic = p.topic and o.partition = p.partition
        where p.topic = ?`,
      [REFERRAL_BONUS_GROUP, TOPICS.depositSettled],
    )) as { rows: { produced: string; handled: string }[] };
    const { produced, handled } = row.rows[0] ?? { produced: '0', handled: '0' };
    expect(Number(handled)).toBe(Number(produced));
  }, 15_000);
}

const bonusEntries = (userId: string) =>
  s.paymentsDb('ledger_entries').where({ user_id: userId, kind: 'referral_bonus' }).orderBy('seq');
const balanceOf = async (userId: string) =>
  Number((await s.paymentsDb('accounts').where({ user_id: userId }).first('balance_cents'))?.balance_cents ?? 0);

async function invitedOf(referrer: Registered, token = referrer.token): Promise<InvitedUser[]> {
  const res = await s.auth.inject({ url: `/api/invite/${referrer.user._id}`, headers: { token } });
  expect(res.statusCode).toBe(200);
  return res.json().invitedUsers as InvitedUser[];
}

/** The settings of a fresh install, put back before each test so tests do not depend on each other. */
beforeEach(async () => {
  await setBonus(0, 0, 10);
});

describe('settings', () => {
  test('both bonuses 0 is the program off, and onboarding hears so', async () => {
    const res = await s.payments.inject({ url: '/api/payment/referral-bonus', headers: { token: admin.token } });
    expect(res.json()).toEqual({ isEnabled: false, referrerBonus: 0, referredBonus: 0, minimumDeposit: 10 });
    const saved = await settings({ referrerBonus: 0, referredBonus: '0.00', minimumDeposit: 10 });
    expect(saved.json().message).toBe('Referral bonus saved: the program is off');
  });

  test('an admin sets them; the change is recorded with the admin, and onboarding states the new terms', async () => {
    const before = Number((await s.paymentsDb('referral_bonus_settings_changes').count('* as c').first())?.c);
    const res = await settings({ referrerBonus: '5', referredBonus: 2.5, minimumDeposit: '20.00' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Referral bonus saved',
      referrerBonus: 5,
      referredBonus: 2.5,
      minimumDeposit: 20,
      updatedBy: { _id: admin.user._id, name: admin.user.name, email: admin.email },
    });
    const changes = await s.paymentsDb('referral_bonus_settings_changes').orderBy('id', 'desc');
    expect(changes).toHaveLength(before + 1);
    expect(changes[0]).toMatchObject({
      admin_id: admin.user._id,
      referrer_bonus_cents: 500,
      referred_bonus_cents: 250,
      minimum_deposit_cents: 2000,
    });
    const get = await s.admin.inject({ url: '/api/admin/referral-bonus', headers: { token: admin.token } });
    expect(get.json()).toMatchObject({ referrerBonus: 5, referredBonus: 2.5, minimumDeposit: 20 });
    const newcomer = await signUp('Reader');
    const terms = await s.payments.inject({ url: '/api/payment/referral-bonus', headers: { token: newcomer.token } });
    expect(terms.json()).toEqual({ isEnabled: true, referrerBonus: 5, referredBonus: 2.5, minimumDeposit: 20 });
  });

  test.each([
    [{ referrerBonus: -1, referredBonus: 5, minimumDeposit: 10 }, 'Referrer bonus must be 0 or more'],
    [
      { referrerBonus: 5, referredBonus: '1.234', minimumDeposit: 10 },
      'New user bonus can have at most 2 decimal places',
    ],
    [
      { referrerBonus: 5, referredBonus: 5, minimumDeposit: 'ten' },
      'Minimum first deposit must be a number like 12 or 2.5',
    ],
    [{ referrerBonus: 100.01, referredBonus: 5, minimumDeposit: 10 }, 'Referrer bonus must be at most $100.00'],
    [
      { referrerBonus: 5, referredBonus: 5, minimumDeposit: 10_000.01 },
      'Minimum first deposit must be at most $10,000.00',
    ],
    [{ referrerBonus: '', referredBonus: 5, minimumDeposit: 10 }, 'Referrer bonus is required'],
    [{ referrerBonus: 5, referredBonus: null, minimumDeposit: 10 }, 'New user bonus is required'],
    [{ referrerBonus: '1e2', referredBonus: 5, minimumDeposit: 10 }, 'Referrer bonus must be a number like 12 or 2.5'],
  ])('%j is refused with 400 naming the field, and nothing changes', async (body, message) => {
    await setBonus(3, 4, 15);
    const res = await settings(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message });
    const get = await s.admin.inject({ url: '/api/admin/referral-bonus', headers: { token: admin.token } });
    expect(get.json()).toMatchObject({ referrerBonus: 3, referredBonus: 4, minimumDeposit: 15 });
  });

  test('a missing field is refused naming it; only admins may read or change the settings', async () => {
    const missing = await settings({ referrerBonus: 5, referredBonus: 5 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('minimumDeposit');
    const user = await signUp('Not an admin');
    expect((await settings({ referrerBonus: 50, referredBonus: 50, minimumDeposit: 0 }, user.token)).statusCode).toBe(
      403,
    );
    const read = await s.admin.inject({ url: '/api/admin/referral-bonus', headers: { token: user.token } });
    expect(read.statusCode).toBe(403);
    expect((await s.admin.inject({ url: '/api/admin/referral-bonus' })).statusCode).toBe(401);
  });
});

describe('crediting', () => {
  test('$5 to each side once the new user’s first deposit of at least $10 settles, shown in Invites and history', async () => {
    await setBonus(5, 5, 10);
    const { referrer, newcomer } = await referral();
    const waiting: ReferralBonusState = {
      referrer: { status: 'waiting', amount: 5 },
      referred: { status: 'waiting', amount: 5 },
    };
    expect((await invitedOf(referrer))[0]?.bonus).toEqual(waiting);

    await deposit(newcomer, '20.00');
    await bonusesSettled();

    const [mine] = await bonusEntries(referrer.user._id);
    const [theirs] = await bonusEntries(newcomer.user._id);
    expect(mine).toMatchObject({
      amount_cents: '500',
      idempotency_key: `referral-bonus:${newcomer.user._id}:referrer`,
      reference: newcomer.user._id,
    });
    expect(theirs).toMatchObject({
      amount_cents: '500',
      idempotency_key: `referral-bonus:${newcomer.user._id}:referred`,
    });
    expect(await balanceOf(referrer.user._id)).toBe(500);
    expect(await balanceOf(newcomer.user._id)).toBe(2500);

    const [invited] = await invitedOf(referrer);
    expect(invited).toMatchObject({
      name: 'Newcomer',
      totalDeposit: 20,
      bonus: { referrer: { status: 'credited', amount: 5 }, referred: { status: 'credited', amount: 5 } },
    });
    expect(invited?.bonus?.referrer.creditedAt).toEqual(expect.any(String));

    // The bonus is a line of its own in the new user's deposit history, never counted as a deposit.
    const history = await s.payments.inject({
      url: `/api/payment/deposits/${newcomer.user._id}`,
      headers: { token: newcomer.token },
    });
    const lines = history.json().deposits as { amount: number; status: string; kind?: string; description?: string }[];
    expect(lines).toHaveLength(2);
    expect(lines).toContainEqual(expect.objectContaining({ amount: 20, status: 'Settled' }));
    expect(lines).toContainEqual(
      expect.objectContaining({
        amount: 5,
        status: 'Settled',
        kind: 'referral_bonus',
        description: 'Referral bonus: you joined with a referral code',
      }),
    );
    const referrerHistory = await s.payments.inject({
      url: `/api/payment/recent-deposits/${referrer.user._id}`,
      headers: { token: referrer.token },
    });
    expect(referrerHistory.json()).toEqual([
      expect.objectContaining({
        amount: 5,
        kind: 'referral_bonus',
        description: 'Referral bonus: someone you invited made their first deposit',
      }),
    ]);
    const summaries = await s.paymentsClient.request<{ summaries: { totalDeposit: number; balance: number }[] }>(
      'POST',
      '/internal/accounts/summaries',
      { body: { userIds: [newcomer.user._id] } },
    );
    expect(summaries.summaries[0]).toMatchObject({ balance: 25, totalDeposit: 20 });
  });

  test('redelivered webhooks, a replayed event and concurrent handling credit each side exactly once', async () => {
    await setBonus(5, 3, 10);
    const { referrer, newcomer } = await referral();
    const invoiceId = await openInvoice(newcomer);
    fake.set(invoiceId, { status: 'Settled', amount: '50' });
    // BTCPay delivering the same settlement several times at once.
    const deliveries = await Promise.all([1, 2, 3, 4].map(() => deliverSettled(invoiceId)));
    expect(deliveries.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    await bonusesSettled();

    // The bus delivering the event again, and several consumers handling it at the same moment.
    const event: DepositSettledEvent = {
      userId: newcomer.user._id,
      invoiceId,
      amountCents: 5000,
      settledAt: new Date().toISOString(),
    };
    await s.bus.publish(TOPICS.depositSettled, [{ key: event.userId, value: event }]);
    const deps = creditDeps();
    const outcomes = await Promise.all([1, 2, 3, 4, 5].map(() => creditReferralBonus(deps, event)));
    await bonusesSettled();
    for (const o of outcomes) expect(o.sides).toEqual({ referrer: 'already_decided', referred: 'already_decided' });

    expect(await bonusEntries(referrer.user._id)).toHaveLength(1);
    expect(await bonusEntries(newcomer.user._id)).toHaveLength(1);
    expect(await balanceOf(referrer.user._id)).toBe(500);
    expect(await balanceOf(newcomer.user._id)).toBe(5000 + 300);
    const decisions = await s.paymentsDb('referral_bonuses').where({ referred_user_id: newcomer.user._id });
    expect(decisions).toHaveLength(2);
  });

  test('two first-time handlings racing each other, before anything was decided, pay once', async () => {
    await setBonus(7, 7, 10);
    const { referrer, newcomer } = await referral();
    // Credited straight through the ledger, as the webhook would, but unannounced: the test hands the event over.
    const invoiceId = `race-${Date.now()}`;
    await creditStraight(newcomer.user._id, invoiceId, 1000);
    const event = { userId: newcomer.user._id, invoiceId, amountCents: 1000, settledAt: new Date().toISOString() };
    const deps = creditDeps();
    const outcomes = await Promise.all([1, 2, 3, 4, 5, 6].map(() => creditReferralBonus(deps, event)));
    const referrerSides = outcomes.map((o) => o.sides.referrer).sort();
    expect(referrerSides).toEqual([
      'already_decided',
      'already_decided',
      'already_decided',
      'already_decided',
      'already_decided',
      'credited',
    ]);
    expect(outcomes.filter((o) => o.sides.referred === 'credited')).toHaveLength(1);
    expect(await bonusEntries(referrer.user._id)).toHaveLength(1);
    expect(await bonusEntries(newcomer.user._id)).toHaveLength(1);
    expect(await balanceOf(newcomer.user._id)).toBe(1700);
  });

  test('a crash after one side was paid: handling the event again pays the other side, and the first not twice', async () => {
    await setBonus(4, 6, 0);
    const second = await referral();
    const secondInvoice = `crash-${Date.now()}`;
    await creditStraight(second.newcomer.user._id, secondInvoice, 500);
    const event = {
      userId: second.newcomer.user._id,
      invoiceId: secondInvoice,
      amountCents: 500,
      settledAt: new Date().toISOString(),
    };
    const base = creditDeps();
    let failed = false;
    const crashing: LedgerRepo = {
      ...base.ledger,
      async append(entry, tx) {
        if (entry.userId === second.newcomer.user._id && !failed) {
          failed = true;
          throw new Error('the process died here');
        }
        return base.ledger.append(entry, tx);
      },
    };
    await expect(creditReferralBonus({ ...base, ledger: crashing }, event)).rejects.toThrow('the process died here');
    expect(await bonusEntries(second.referrer.user._id)).toHaveLength(1);
    expect(await bonusEntries(second.newcomer.user._id)).toHaveLength(0);
    // Nothing of the failed side was kept: no decision without its money.
    expect(
      await s.paymentsDb('referral_bonuses').where({ referred_user_id: second.newcomer.user._id, side: 'referred' }),
    ).toHaveLength(0);

    const again = await creditReferralBonus(base, event);
    expect(again.sides).toEqual({ referrer: 'already_decided', referred: 'credited' });
    expect(await bonusEntries(second.referrer.user._id)).toHaveLength(1);
    expect(await bonusEntries(second.newcomer.user._id)).toHaveLength(1);
  });

  test('a code applied after the first deposit settled brings nothing, even when the bonus is decided after it', async () => {
    await setBonus(5, 5, 10);
    const { referrer } = await referral();
    const late = await signUp('Late');
    // The deposit settles (credited, its event not yet handled)...
    const invoiceId = `late-${Date.now()}`;
    await creditStraight(late.user._id, invoiceId, 5000);
    const event = { userId: late.user._id, invoiceId, amountCents: 5000, settledAt: new Date().toISOString() };
    // ...then the code is applied, and only then does the bonus consumer get to the event.
    const applied = await applyCode(late, referrer.user.referralCode);
    expect(applied.statusCode, applied.body).toBe(200);
    const outcome = await creditReferralBonus(creditDeps(), event);
    expect(outcome).toEqual({ outcome: 'referred_after_deposit', sides: {} });
    expect(await bonusEntries(referrer.user._id)).toHaveLength(0);
    expect(await bonusEntries(late.user._id)).toHaveLength(0);
    expect(await s.paymentsDb('referral_bonuses').where({ referred_user_id: late.user._id })).toEqual([]);
  });

  test('a code applied after joining but before the first deposit settles pays both sides', async () => {
    await setBonus(5, 5, 10);
    const { referrer } = await referral();
    const later = await signUp('Later');
    const applied = await applyCode(later, referrer.user.referralCode);
    expect(applied.statusCode, applied.body).toBe(200);
    await deposit(later, '20');
    await bonusesSettled();
    expect(await bonusEntries(referrer.user._id)).toHaveLength(1);
    expect(await bonusEntries(later.user._id)).toHaveLength(1);
    expect(await balanceOf(later.user._id)).toBe(2000 + 500);
  });

  test('a first deposit under the minimum brings nothing, and neither does any later deposit', async () => {
    await setBonus(5, 5, 10);
    const { referrer, newcomer } = await referral();
    await deposit(newcomer, '9.99');
    await deposit(newcomer, '100');
    await bonusesSettled();
    expect(await bonusEntries(referrer.user._id)).toHaveLength(0);
    expect(await bonusEntries(newcomer.user._id)).toHaveLength(0);
    expect((await invitedOf(referrer))[0]?.bonus).toEqual({
      referrer: { status: 'none', amount: 0 },
      referred: { status: 'none', amount: 0 },
    });
  });

  test('a first deposit made while the program is off brings nothing later either', async () => {
    const { referrer, newcomer } = await referral();
    expect((await invitedOf(referrer))[0]?.bonus).toEqual({
      referrer: { status: 'none', amount: 0 },
      referred: { status: 'none', amount: 0 },
    });
    await deposit(newcomer, '50');
    await bonusesSettled();
    await setBonus(5, 5, 10);
    await deposit(newcomer, '50');
    await bonusesSettled();
    expect(await bonusEntries(referrer.user._id)).toHaveLength(0);
    expect(await bonusEntries(newcomer.user._id)).toHaveLength(0);
  });

  test('someone who joined without a code gets no bonus', async () => {
    await setBonus(5, 5, 0);
    const loner = await signUp('Loner');
    await deposit(loner, '30');
    await bonusesSettled();
    expect(await bonusEntries(loner.user._id)).toHaveLength(0);
  });

  test('only the side with a bonus set is paid', async () => {
    await setBonus(0, 2, 10);
    const { referrer, newcomer } = await referral();
    await deposit(newcomer, '10');
    await bonusesSettled();
    expect(await bonusEntries(referrer.user._id)).toHaveLength(0);
    expect(await bonusEntries(newcomer.user._id)).toHaveLength(1);
    expect((await invitedOf(referrer))[0]?.bonus).toEqual({
      referrer: { status: 'none', amount: 0 },
      referred: { status: 'credited', amount: 2, creditedAt: expect.any(String) },
    });
  });
});

describe('a blocked or deleted referrer', () => {
  const setAccess = (userId: string, activation: 'allow' | 'block') =>
    s.admin.inject({
      method: 'POST',
      url: `/api/auth/users/activation/${userId}`,
      headers: { token: admin.token },
      payload: { activation },
    });

  test('blocked when the first deposit settles: the referrer’s side is withheld for good, the new user is paid', async () => {
    await setBonus(5, 5, 10);
    const { referrer, newcomer } = await referral();
    expect((await setAccess(referrer.user._id, 'block')).statusCode).toBe(200);
    await deposit(newcomer, '25');
    await bonusesSettled();
    expect(await bonusEntries(referrer.user._id)).toHaveLength(0);
    expect(await bonusEntries(newcomer.user._id)).toHaveLength(1);
    // Allowed again, a later deposit does not pay the withheld side after all.
    await setAccess(referrer.user._id, 'allow');
    await deposit(newcomer, '25');
    await bonusesSettled();
    expect(await bonusEntries(referrer.user._id)).toHaveLength(0);
    // The admin sees why in the referrer's invited users.
    expect((await invitedOf(referrer, admin.token))[0]?.bonus).toEqual({
      referrer: { status: 'withheld', amount: 5, reason: 'blocked' },
      referred: { status: 'credited', amount: 5, creditedAt: expect.any(String) },
    });
  });

  test('deleted: the referrer’s side is withheld, the new user is paid', async () => {
    await setBonus(5, 5, 10);
    const { referrer, newcomer } = await referral();
    const del = await s.admin.inject({
      method: 'DELETE',
      url: `/api/auth/users/${referrer.user._id}`,
      headers: { token: admin.token },
    });
    expect(del.statusCode).toBe(200);
    await deposit(newcomer, '25');
    await bonusesSettled();
    expect(await bonusEntries(referrer.user._id)).toHaveLength(0);
    expect(await bonusEntries(newcomer.user._id)).toHaveLength(1);
    const [decision] = await s.paymentsDb('referral_bonuses').where({
      referred_user_id: newcomer.user._id,
      side: 'referrer',
    });
    expect(decision).toMatchObject({ status: 'withheld', reason: 'deleted', ledger_entry_id: null });
  });
});

/** What the consumer runs with, built over the same database and auth, for driving the use case directly. */
function creditDeps(): CreditReferralBonusDeps {
  return {
    ledger: createLedgerRepo(s.paymentsDb),
    transactor: createTransactor(s.paymentsDb),
    bonuses: createReferralBonusRepo(s.paymentsDb),
    referrals: createAuthReferralDirectory(s.authClient),
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    clock: { now: () => new Date() },
  };
}

/** The user applies a friend's code after joining (onboarding, Invites). */
const applyCode = (user: Registered, referralCode: string) =>
  s.auth.inject({
    method: 'POST',
    url: '/api/invite/referral/apply',
    headers: { token: user.token },
    payload: { referralCode },
  });

/** A deposit entry straight in the ledger, unannounced (the test hands its event to the use case itself). */
async function creditStraight(userId: string, invoiceId: string, cents: number): Promise<void> {
  const ledger = createLedgerRepo(s.paymentsDb);
  await createTransactor(s.paymentsDb).run(async (tx) => {
    const balance = await ledger.lockAccount(userId, tx);
    await ledger.append(
      { userId, kind: 'deposit', amountCents: cents, balanceAfterCents: balance + cents, key: `deposit:${invoiceId}` },
      tx,
    );
  });
}
