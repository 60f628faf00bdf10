import { createCarrierSet, easyPostSettings, noPurchasesMemory } from '@flatship/carriers';
import { easyPostErrorBody, type FakeEasyPost, startFakeEasyPost } from '@flatship/carriers/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Registered, register, registerAdmin, type Stack, startStack } from './support';

// Admin starts the enabled carriers only to read their accounts: EasyPost with a production key (its fake, on
// loopback) starts there with a memory that buys nothing, and its wallet shows beside the sandbox's account.
let fake: FakeEasyPost;
let s: Stack;
let admin: Registered;
let carriers: ReturnType<typeof createCarrierSet>;

beforeAll(async () => {
  fake = await startFakeEasyPost({ balance: '1234.56000' });
  carriers = createCarrierSet('sandbox-usps,easypost', {
    renderThreads: 0,
    sandboxBalanceCents: 500_00,
    easypost: easyPostSettings({ EASYPOST_API_KEY: fake.productionKey, EASYPOST_API_BASE_URL: fake.url }),
    memory: noPurchasesMemory('admin'),
  });
  s = await startStack({ carriers, carrierBalanceWarnCents: 1000_00 });
  admin = await registerAdmin(s);
});
afterAll(async () => {
  await s?.close();
  await carriers?.close();
  await fake?.close();
});

test('the balance covers each enabled carrier account, EasyPost’s wallet included', async () => {
  const res = await s.admin.inject({ url: '/api/auth/api/balance', headers: { token: admin.token } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({
    balance: 1734.56,
    warnBelow: 1000,
    isLow: true,
    carriers: [
      { id: 'sandbox-usps', name: 'USPS', balance: 500, isLow: true },
      { id: 'easypost', name: 'USPS via EasyPost', balance: 1234.56, isLow: false },
    ],
  });
});

test('a purchase through admin’s carriers is refused before anything reaches the carrier', async () => {
  await expect(
    carriers.purchaseLabel({
      idempotencyKey: crypto.randomUUID(),
      serviceUid: 'usps_priority_mail',
      from: { name: 'A', street1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
      to: { name: 'B', street1: '2 Elm St', city: 'Denver', state: 'CO', zip: '80202', country: 'US' },
      parcel: { length: 10, width: 8, height: 4, weightLb: 1 },
    }),
  ).rejects.toThrow('admin buys no labels');
  expect(fake.shipmentsCreated).toBe(0);
});

describe('POST /api/admin/carriers/check', () => {
  const check = (token?: string) =>
    s.admin.inject({ method: 'POST', url: '/api/admin/carriers/check', headers: token ? { token } : {}, payload: {} });

  test('calls each enabled carrier with its account and says what each confirmed, never a credential', async () => {
    const res = await check(admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const { carriers: answers } = res.json() as { carriers: { id: string; ok: boolean; message: string }[] };
    expect(answers.map((c) => [c.id, c.ok])).toEqual([
      ['sandbox-usps', true],
      ['easypost', true],
    ]);
    expect(answers[1]?.message).toMatch(/production/i);
    expect(res.body).not.toContain(fake.productionKey);
    expect(fake.requests.some((r) => r.path === '/v2/users' && r.mode === 'production')).toBe(true);
  });

  test('a refused key is reported in our words, the carrier answering the rest', async () => {
    fake.fail(
      { method: 'GET', path: '/v2/users' },
      { status: 401, body: easyPostErrorBody('APIKEY.INACTIVE', 'x') },
      5,
    );
    const res = await check(admin.token);
    expect(res.statusCode).toBe(200);
    const [sandbox, easypost] = (res.json() as { carriers: { ok: boolean; message: string }[] }).carriers;
    expect(sandbox?.ok).toBe(true);
    expect(easypost?.ok).toBe(false);
    expect(easypost?.message).not.toContain('APIKEY.INACTIVE');
    expect(easypost?.message.length).toBeGreaterThan(10);
  });

  test('is for admins only', async () => {
    expect((await check()).statusCode).toBe(401);
    const customer = await register(s);
    expect((await check(customer.token)).statusCode).toBe(403);
  });
});

test('the carrier routes are kept by orders: while orders is away, reading or switching them says so, and a route the enabled carriers cannot follow is refused here first', async () => {
  // This stack's orders client points at a closed port (the routes and their switch through a running orders are
  // in infra/e2e/real-postage.test.ts).
  const read = await s.admin.inject({ url: '/api/admin/carriers/routes', headers: { token: admin.token } });
  expect(read.statusCode, read.body).toBe(503);
  expect(read.json().message).toMatch(/^A required service is unavailable/);

  const put = (body: unknown, token: string | null = admin.token) =>
    s.admin.inject({
      method: 'PUT',
      url: '/api/admin/carriers/routes',
      headers: token ? { token } : {},
      payload: body as object,
    });
  const refused = await put({ services: [{ uid: 'usps_priority_mail', carriers: ['usps'] }] });
  expect(refused.statusCode).toBe(400);
  expect(refused.json()).toEqual({
    code: 'VALIDATION_FAILED',
    message: 'The route cannot be used: carrier usps is not enabled (CARRIERS=sandbox-usps,easypost).',
  });
  const twice = await put({
    services: [
      { uid: 'usps_priority_mail', carriers: ['easypost'] },
      { uid: 'usps_priority_mail', carriers: ['sandbox-usps'] },
    ],
  });
  expect(twice.json().message).toBe('The service usps_priority_mail is named twice.');
  expect((await put({ services: [{ uid: 'usps_priority_mail', carriers: [] }] })).statusCode).toBe(400);
  expect((await put({ services: [] })).statusCode).toBe(400);
  // A good route goes to orders, which is away.
  expect((await put({ services: [{ uid: 'usps_priority_mail', carriers: ['easypost'] }] })).statusCode).toBe(503);
  expect((await put({ services: [{ uid: 'usps_priority_mail', carriers: ['easypost'] }] }, null)).statusCode).toBe(401);
  const customer = await register(s);
  const forbidden = await put({ services: [{ uid: 'usps_priority_mail', carriers: ['easypost'] }] }, customer.token);
  expect(forbidden.statusCode).toBe(403);
});
