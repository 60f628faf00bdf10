import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuthTokenStateFetcher, createCachedTokenState, type ServiceApp } from '@flatship/kit';
import { deadLetterTopic } from '@flatship/kit/bus';
import { TOPICS } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// The real gateway, wired as its main.ts wires it: it is the one that sees every token and sends the audit events.
import { buildGateway } from '../../../gateway/src/app';
import { ADDRESS_FORM } from '../../auth/test/support';
import { createFakeBtcpay, createTestBtcpayClient, WEBHOOK_SECRET } from '../../payments/test/fake-btcpay';
import { eventually, type Registered, register, registerAdmin, type Stack, startStack } from './support';

const AUDIT_CLOCK = new Date('2026-02-01T12:00:00.000Z');
// BTCPay is not ours: faked at the network edge, so a top-up really opens an invoice.
const btcpay = createFakeBtcpay();
let s: Stack;
let admin: Registered;
let gateway: ServiceApp;
beforeAll(async () => {
  btcpay.listen();
  s = await startStack({ btcpay: { provider: createTestBtcpayClient(), webhookSecret: WEBHOOK_SECRET } });
  admin = await registerAdmin(s);
  const adminUrl = await s.admin.listen({ host: '127.0.0.1', port: 0 });
  const authUrl = `http://127.0.0.1:${(s.auth.server.address() as { port: number }).port}`;
  const paymentsUrl = `http://127.0.0.1:${(s.payments.server.address() as { port: number }).port}`;
  gateway = await buildGateway({
    logger: false,
    // Frozen: a burst of actions lands in one millisecond, as it can under load.
    clock: () => AUDIT_CLOCK,
    // Every request asks auth (nothing cached), and a burst of 50 waits its turn there: seconds, not the product's
    // 3 s, before an answer counts as auth being away, so a busy machine gets every answer.
    tokenState: createCachedTokenState(createAuthTokenStateFetcher(s.authClient, { warn: () => {} }, 20_000), 0),
    impersonationActions: (event) => s.bus.publish(TOPICS.impersonationAction, [{ key: event.userId, value: event }]),
    config: {
      upstreams: { auth: authUrl, admin: adminUrl, payments: paymentsUrl },
      staticDir: mkdtempSync(join(tmpdir(), 'admin-audit-spa-')),
      rateLimit: { max: 1000, timeWindow: '1 minute' },
      trustProxy: false,
      jwtPublicKey: s.keys.publicKey,
      internalSecret: 'admin-audit-internal-secret',
      upstreamReadyTimeoutMs: 500,
      cspExtraOrigins: [],
    },
  });
  await gateway.ready();
});
afterAll(async () => {
  await gateway.close();
  await s.close();
  btcpay.close();
});

const audit = (query = '', token = admin.token) =>
  gateway.inject({ url: `/api/admin/audit${query}`, headers: { token } });

/** A Login As token of `admin` for `user`, asked for through the gateway as the web app does. */
async function loginAs(user: Registered): Promise<string> {
  const res = await gateway.inject({
    method: 'POST',
    url: `/api/auth/login-as-user/${user.user._id}`,
    headers: { token: admin.token },
  });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
}

/** Waits until the audit lists `count` entries for the user, and answers them (newest first). */
async function entriesOf(
  userId: string,
  count: number,
  ms?: number,
): Promise<{ _id: string; method: string; path: string }[]> {
  return eventually(async () => {
    const res = (await audit(`?userId=${userId}&limit=100`)).json();
    expect(res.totalCount).toBe(count);
    return res.entries;
  }, ms);
}

describe('GET /api/admin/audit', () => {
  test("an address saved with a login-as token is listed with both ids; the user's own change is not", async () => {
    const user = await register(s, 'Audited Ann');
    const loginAs = await gateway.inject({
      method: 'POST',
      url: `/api/auth/login-as-user/${user.user._id}`,
      headers: { token: admin.token },
    });
    expect(loginAs.statusCode).toBe(200);
    const asUser = loginAs.json().token as string;

    const saved = await gateway.inject({
      method: 'POST',
      url: `/api/auth/save-address/${user.user._id}`,
      headers: { token: asUser },
      payload: ADDRESS_FORM,
    });
    expect(saved.statusCode).toBeLessThan(300);
    const own = await gateway.inject({
      method: 'POST',
      url: `/api/auth/save-address/${user.user._id}`,
      headers: { token: user.token },
      payload: { ...ADDRESS_FORM, address_id: 'Home' },
    });
    expect(own.statusCode).toBeLessThan(300);
    // A read made as the user is not a change.
    await gateway.inject({ url: `/api/auth/get-address/${user.user._id}`, headers: { token: asUser } });

    // The emails come from admin's copy of the users, which the user's registration reaches on its own way: the
    // entry may be listed a moment before its user's email is.
    await eventually(async () => {
      const res = await audit(`?userId=${user.user._id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().totalCount).toBe(1);
      expect(res.json().entries).toEqual([
        {
          _id: expect.any(String),
          at: expect.any(String),
          adminId: admin.user._id,
          adminEmail: admin.email,
          userId: user.user._id,
          userEmail: user.email,
          method: 'POST',
          path: `/api/auth/save-address/${user.user._id}`,
          status: saved.statusCode,
        },
      ]);
    });
    // Nothing arrives late: a later login-as change goes the same way after the user's own save and the
    // read, so once it is listed, they would be too; the list then holds the two login-as saves only.
    const later = await gateway.inject({
      method: 'POST',
      url: `/api/auth/save-address/${user.user._id}`,
      headers: { token: asUser },
      payload: { ...ADDRESS_FORM, address_id: 'Later' },
    });
    expect(later.statusCode).toBeLessThan(300);
    const both = await eventually(async () => {
      const res = (await audit(`?userId=${user.user._id}`)).json();
      expect(res.totalCount).toBeGreaterThanOrEqual(2);
      return res;
    });
    expect(both.totalCount).toBe(2);
    expect(both.entries.map((e: { adminId: string; path: string }) => [e.adminId, e.path])).toEqual([
      [admin.user._id, `/api/auth/save-address/${user.user._id}`],
      [admin.user._id, `/api/auth/save-address/${user.user._id}`],
    ]);
    expect(
      (await audit(`?adminId=${admin.user._id}`)).json().entries.map((e: { userId: string }) => e.userId),
    ).toContain(user.user._id);
  });

  test('a redelivered event is one entry; newest first; paged', async () => {
    const user = await register(s, 'Paged Pete');
    const base = { userId: user.user._id, adminId: admin.user._id, method: 'POST', status: 200 };
    const events = [1, 2, 3].map((i) => ({
      ...base,
      path: `/api/orders/create/${i}`,
      at: new Date(Date.UTC(2026, 0, i)).toISOString(),
    }));
    await s.bus.publish(
      TOPICS.impersonationAction,
      [...events, events[0]].map((e) => ({ key: e!.userId, value: e })),
    );
    const page = await eventually(async () => {
      const res = (await audit(`?userId=${user.user._id}&limit=2`)).json();
      expect(res.totalCount).toBe(3);
      return res;
    });
    expect(page.entries.map((e: { path: string }) => e.path)).toEqual(['/api/orders/create/3', '/api/orders/create/2']);
    const second = (await audit(`?userId=${user.user._id}&limit=2&page=2`)).json();
    expect(second.entries.map((e: { path: string }) => e.path)).toEqual(['/api/orders/create/1']);
  });

  test('50 changes made at once as the user are 50 entries', { timeout: 30_000 }, async () => {
    const user = await register(s, 'Busy Bea');
    const asUser = await loginAs(user);
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        gateway.inject({
          method: 'POST',
          url: `/api/auth/save-address/${user.user._id}`,
          headers: { token: asUser },
          payload: { ...ADDRESS_FORM, address_id: `Depot ${i}` },
        }),
      ),
    );
    expect(replies.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
    const entries = await entriesOf(user.user._id, 50, 20_000);
    expect(new Set(entries.map((e) => e._id)).size).toBe(50);
  });

  test('actions alike to the millisecond are each recorded; a redelivered one stays one entry', {
    timeout: 30_000,
  }, async () => {
    const user = await register(s, 'Twin Tess');
    const action = {
      userId: user.user._id,
      adminId: admin.user._id,
      method: 'POST',
      path: '/api/orders/bulk/init',
      status: 201,
      at: '2026-03-01T10:00:00.000Z',
    };
    const first = { ...action, id: randomUUID() };
    const second = { ...action, id: randomUUID() };
    // Events sent before they carried ids are still recorded once however often they come.
    const legacy = { ...action, path: '/api/orders/bulk/process' };
    await s.bus.publish(
      TOPICS.impersonationAction,
      [first, second, first, legacy, legacy, second].map((e) => ({ key: e.userId, value: e })),
    );
    const entries = await entriesOf(user.user._id, 3, 20_000);
    expect(entries.map((e) => e.path).sort()).toEqual([
      '/api/orders/bulk/init',
      '/api/orders/bulk/init',
      '/api/orders/bulk/process',
    ]);
    // Redelivery that comes late changes nothing either.
    await s.bus.publish(TOPICS.impersonationAction, [{ key: first.userId, value: first }]);
    const later = await register(s, 'Marker Max');
    await s.bus.publish(TOPICS.impersonationAction, [
      { key: first.userId, value: { ...action, id: randomUUID(), userId: later.user._id } },
    ]);
    await entriesOf(later.user._id, 1);
    expect((await audit(`?userId=${user.user._id}`)).json().totalCount).toBe(3);
  });

  test('a top-up opened as the user (a GET that creates an invoice) is recorded', async () => {
    const user = await register(s, 'Topping Tom');
    const asUser = await loginAs(user);
    const topUp = await gateway.inject({ url: `/api/payment/top-up/${user.user._id}`, headers: { token: asUser } });
    expect(topUp.statusCode).toBe(200);
    expect(btcpay.invoices.has(topUp.json().id)).toBe(true);
    const [entry] = await entriesOf(user.user._id, 1);
    expect(entry).toMatchObject({ method: 'GET', path: `/api/payment/top-up/${user.user._id}`, status: 200 });
  });

  test('an event that fails its schema is not dropped quietly: it goes to the dead-letter topic', async () => {
    const marker = randomUUID();
    const dead: unknown[] = [];
    const watch = await s.bus.subscribe({
      group: `audit-dead-letters-${marker}`,
      topics: [deadLetterTopic(TOPICS.impersonationAction)],
      fromBeginning: true,
      handler: async (msg) => void dead.push(msg.value),
    });
    try {
      await s.bus.publish(TOPICS.impersonationAction, [
        { key: marker, value: { id: marker, userId: marker, method: 'POST' } },
      ]);
      await eventually(async () => expect(dead).toContainEqual({ id: marker, userId: marker, method: 'POST' }));
    } finally {
      await watch.close();
    }
  });

  test('only admins may read it; a malformed filter is refused', async () => {
    const user = await register(s);
    expect((await audit('', user.token)).statusCode).toBe(403);
    expect((await gateway.inject({ url: '/api/admin/audit' })).statusCode).toBe(401);
    expect((await audit('?userId=nope')).statusCode).toBe(400);
    expect((await audit('?limit=500')).statusCode).toBe(400);
  });
});
