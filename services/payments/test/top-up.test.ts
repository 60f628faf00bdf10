import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  API_KEY,
  BTCPAY_URL,
  createFakeBtcpay,
  createLogCapture,
  createTestBtcpayClient,
  type FakeBtcpay,
  WEBHOOK_SECRET,
} from './fake-btcpay';
import { startTestPayments, type TestPayments } from './support';

const fake: FakeBtcpay = createFakeBtcpay();
const providerLog = createLogCapture();
let t: TestPayments;
beforeAll(async () => {
  fake.listen();
  t = await startTestPayments({
    btcpay: { provider: createTestBtcpayClient(providerLog, 500), webhookSecret: WEBHOOK_SECRET },
  });
});
afterAll(async () => {
  await t.close();
  fake.close();
});
beforeEach(() => {
  fake.state.mode = 'ok';
});

const topUp = (userId: string, token?: string) =>
  t.app.inject({ url: `/api/payment/top-up/${userId}`, headers: token ? { token } : {} });
const depositRows = (userId: string) => t.db('deposits').where({ user_id: userId });

describe('GET /api/payment/top-up/{userId}', () => {
  test('opens a top-up invoice in USD for the caller, owned by them in its metadata, and records it as a New deposit', async () => {
    const user = t.users.add();
    const before = fake.created.length;
    const res = await topUp(user.id, t.tokenFor(user));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ id: expect.any(String), checkoutLink: `${BTCPAY_URL}/i/${body.id}` });

    expect(fake.created).toHaveLength(before + 1);
    const sent = fake.created.at(-1);
    expect(sent?.authorization).toBe(`token ${API_KEY}`);
    // No amount: the payer chooses what to pay.
    expect(sent?.body).toEqual({ currency: 'USD', metadata: { userId: user.id }, checkout: { expirationMinutes: 60 } });

    const rows = await depositRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ invoice_id: body.id, amount_cents: '0', status: 'New', settled_at: null });

    const recent = await t.app.inject({
      url: `/api/payment/recent-deposits/${user.id}`,
      headers: { token: t.tokenFor(user) },
    });
    expect(recent.json()).toEqual([
      { _id: rows[0].id, amount: 0, createdTime: Math.floor(rows[0].created_at.getTime() / 1000), status: 'New' },
    ]);
  });

  test("another user's id is forbidden and opens no invoice", async () => {
    const owner = t.users.add();
    const stranger = t.users.add();
    const before = fake.created.length;
    const res = await topUp(owner.id, t.tokenFor(stranger));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    expect(fake.created).toHaveLength(before);
    expect(await depositRows(owner.id)).toHaveLength(0);
  });

  test('an admin may open an invoice for a user; it belongs to the user, not the admin', async () => {
    const user = t.users.add();
    const admin = t.users.add('admin');
    const res = await topUp(user.id, t.tokenFor(admin));
    expect(res.statusCode).toBe(200);
    expect(fake.created.at(-1)?.body.metadata).toEqual({ userId: user.id });
    expect(await depositRows(user.id)).toHaveLength(1);
    expect(await depositRows(admin.id)).toHaveLength(0);
  });

  test('without a token it is a 401', async () => {
    const res = await topUp(randomUUID());
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('AUTH_MISSING_TOKEN');
  });

  test('a visitor (the guest path) is asked to sign in', async () => {
    const before = fake.created.length;
    const res = await t.app.inject({ url: '/api/payment/top-up/guest' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'AUTH_MISSING_TOKEN', message: 'Please sign in to add funds.' });
    expect(fake.created).toHaveLength(before);
  });

  test.each([
    ['the network fails', 'network-error'],
    ['BTCPay answers 500', 'server-error'],
    ['BTCPay answers something that is not JSON', 'not-json'],
    ['BTCPay answers JSON that is not an invoice', 'not-an-invoice'],
    ['BTCPay does not answer in time', 'slow'],
  ] as const)('when %s the customer gets a 502 they can read, and nothing is recorded', async (_, mode) => {
    fake.state.mode = mode;
    const user = t.users.add();
    const logged = providerLog.lines.length;
    const res = await topUp(user.id, t.tokenFor(user));
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      code: 'PAYMENTS_PROVIDER_UNAVAILABLE',
      message: 'The payment provider is not answering. Please try again in a moment.',
    });
    expect(await depositRows(user.id)).toHaveLength(0);
    // The details are for the operators, and never carry the API key.
    const line = providerLog.lines.at(-1);
    expect(providerLog.lines.length).toBe(logged + 1);
    expect(line?.level).toBe('error');
    expect(JSON.stringify(line)).not.toContain(API_KEY);
  });
});

describe('with deposits off (no BTCPAY_URL)', () => {
  let off: TestPayments;
  beforeAll(async () => {
    off = await startTestPayments();
  });
  afterAll(() => off.close());

  test('a top-up answers 503 with a message saying deposits are not available', async () => {
    const user = off.users.add();
    const res = await off.app.inject({ url: `/api/payment/top-up/${user.id}`, headers: { token: off.tokenFor(user) } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      code: 'PAYMENTS_PROVIDER_UNAVAILABLE',
      message: 'Deposits are not available right now. Please try again later.',
    });
  });

  test('a webhook delivery answers 503 too, and the deposit lists still work', async () => {
    const res = await off.app.inject({ method: 'POST', url: '/api/payment/webhook/btcpay', payload: {} });
    expect(res.statusCode).toBe(503);
    const user = off.users.add();
    const list = await off.app.inject({
      url: `/api/payment/deposits/${user.id}`,
      headers: { token: off.tokenFor(user) },
    });
    expect(list.json()).toEqual({ deposits: [], totalCount: 0 });
  });
});
