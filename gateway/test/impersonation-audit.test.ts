import type { ServiceApp } from '@flatship/kit';
import type { ImpersonationActionEvent } from '@flatship/proto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { buildGateway } from '../src/app';
import { createUserDirectory, gatewayDeps, type StandInService, signToken, startStandInService } from './helpers';

const ADMIN = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';

let auth: StandInService;
let orders: StandInService;
let payments: StandInService;
let app: ServiceApp;
const users = createUserDirectory();
const published: ImpersonationActionEvent[] = [];
let failing = false;

beforeAll(async () => {
  [auth, orders, payments] = await Promise.all([
    startStandInService('auth'),
    startStandInService('orders'),
    startStandInService('payments'),
  ]);
  app = await buildGateway({
    ...gatewayDeps({
      upstreams: { auth: auth.url, orders: orders.url, payments: payments.url },
      tokenState: users.tokenState,
    }),
    impersonationActions: async (event) => {
      if (failing) throw new Error('bus down');
      published.push(event);
    },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await auth.close();
  await orders.close();
  await payments.close();
});
beforeEach(() => {
  published.length = 0;
  failing = false;
});

const plain = () => users.add({ id: USER });
const loginAs = () => {
  users.add({ id: USER });
  users.states.set(ADMIN, { id: ADMIN, role: 'admin', activation: 'allow', tokenVersion: 1, impersonationVersion: 1 });
  return signToken({ sub: USER, role: 'user', ver: 1, imp: ADMIN, iv: 1 });
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/**
 * What has not been sent is shown by what has: a later change made with a login-as token is sent after
 * everything before it, so once it is there, anything earlier that was going to be sent is there too.
 */
async function afterLaterChange(): Promise<typeof published> {
  const before = published.length;
  const token = loginAs();
  await app.inject({ method: 'POST', url: '/api/orders/bulk/init', headers: { token }, payload: {} });
  expect(await publishedCount(before + 1)).toBeGreaterThan(before);
  const last = published.at(-1);
  expect(last).toMatchObject({ method: 'POST', path: '/api/orders/bulk/init' });
  return published.slice(0, -1);
}
/** Waits until `count` events have been published (they are sent after the answers are out). */
async function publishedCount(count: number, ms = 15_000): Promise<number> {
  const until = Date.now() + ms;
  while (published.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  return published.length;
}

describe('changes made with a login-as token are sent to the audit', () => {
  test('a POST, PUT, PATCH or DELETE is recorded with both ids, the path without its query, and the status', async () => {
    const token = loginAs();
    for (const [method, url] of [
      ['POST', '/api/orders/create?x=1'],
      ['PUT', '/api/auth/address/a1'],
      ['PATCH', '/api/auth/account'],
      ['DELETE', '/api/auth/address/a1'],
    ] as const) {
      const res = await app.inject({ method, url, headers: { token }, payload: {} });
      expect(res.statusCode).toBe(200);
    }
    expect(await publishedCount(4)).toBe(4);
    expect(published).toEqual([
      {
        userId: USER,
        adminId: ADMIN,
        method: 'POST',
        path: '/api/orders/create',
        status: 200,
        at: expect.any(String),
        id: expect.stringMatching(UUID),
      },
      {
        userId: USER,
        adminId: ADMIN,
        method: 'PUT',
        path: '/api/auth/address/a1',
        status: 200,
        at: expect.any(String),
        id: expect.stringMatching(UUID),
      },
      {
        userId: USER,
        adminId: ADMIN,
        method: 'PATCH',
        path: '/api/auth/account',
        status: 200,
        at: expect.any(String),
        id: expect.stringMatching(UUID),
      },
      {
        userId: USER,
        adminId: ADMIN,
        method: 'DELETE',
        path: '/api/auth/address/a1',
        status: 200,
        at: expect.any(String),
        id: expect.stringMatching(UUID),
      },
    ]);
    expect(Number.isNaN(Date.parse(published[0]?.at ?? ''))).toBe(false);
  });

  test('reads are not recorded', async () => {
    const token = loginAs();
    await app.inject({ url: '/api/orders/recent', headers: { token } });
    await app.inject({ url: `/api/payment/deposits/${USER}`, headers: { token } });
    expect(await afterLaterChange()).toEqual([]);
  });

  test('a GET that changes something (a top-up opens an invoice) is recorded like any change', async () => {
    const token = loginAs();
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await app.inject({ method, url: `/api/payment/top-up/${USER}?x=1`, headers: { token } });
      expect(res.statusCode).toBe(200);
    }
    expect(await publishedCount(2)).toBe(2);
    expect(published).toEqual(
      ['GET', 'HEAD'].map((method) => ({
        id: expect.stringMatching(UUID),
        userId: USER,
        adminId: ADMIN,
        method,
        path: `/api/payment/top-up/${USER}`,
        status: 200,
        at: expect.any(String),
      })),
    );
  });

  test('each action is its own event, however alike: two at once get two ids', async () => {
    const token = loginAs();
    await Promise.all(
      [1, 2].map(() => app.inject({ method: 'POST', url: '/api/orders/bulk/init', headers: { token }, payload: {} })),
    );
    expect(await publishedCount(2)).toBe(2);
    expect(published[0]?.id).not.toBe(published[1]?.id);
  });

  test("a user's own changes (no login-as) are not recorded", async () => {
    await app.inject({ method: 'POST', url: '/api/orders/create', headers: { token: plain() }, payload: {} });
    expect(await afterLaterChange()).toEqual([]);
  });

  test('a failed send does not change the answer the admin gets', async () => {
    failing = true;
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      headers: { token: loginAs() },
      payload: {},
    });
    expect(res.statusCode).toBe(200);
  });
});
