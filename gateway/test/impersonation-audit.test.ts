import type { ServiceApp } from '@flatship/kit';
import type { ImpersonationActionEvent } from '@flatship/proto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { buildGateway } from '../src/app';
import { createUserDirectory, gatewayDeps, type StandInService, signToken, startStandInService } from './helpers';

const ADMIN = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';

let auth: StandInService;
let orders: StandInService;
let app: ServiceApp;
const users = createUserDirectory();
const published: ImpersonationActionEvent[] = [];
let failing = false;

beforeAll(async () => {
  [auth, orders] = await Promise.all([startStandInService('auth'), startStandInService('orders')]);
  app = await buildGateway({
    ...gatewayDeps({ upstreams: { auth: auth.url, orders: orders.url }, tokenState: users.tokenState }),
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
});
beforeEach(() => {
  published.length = 0;
  failing = false;
});

const plain = () => users.add({ id: USER });
const loginAs = () => {
  users.add({ id: USER });
  return signToken({ sub: USER, role: 'user', ver: 1, imp: ADMIN });
};
/** onResponse runs after the answer is out: give it its turn. */
const settle = () => new Promise((r) => setTimeout(r, 20));

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
    await settle();
    expect(published).toEqual([
      { userId: USER, adminId: ADMIN, method: 'POST', path: '/api/orders/create', status: 200, at: expect.any(String) },
      {
        userId: USER,
        adminId: ADMIN,
        method: 'PUT',
        path: '/api/auth/address/a1',
        status: 200,
        at: expect.any(String),
      },
      { userId: USER, adminId: ADMIN, method: 'PATCH', path: '/api/auth/account', status: 200, at: expect.any(String) },
      {
        userId: USER,
        adminId: ADMIN,
        method: 'DELETE',
        path: '/api/auth/address/a1',
        status: 200,
        at: expect.any(String),
      },
    ]);
    expect(Number.isNaN(Date.parse(published[0]?.at ?? ''))).toBe(false);
  });

  test('reads are not recorded', async () => {
    const token = loginAs();
    await app.inject({ url: '/api/orders/recent', headers: { token } });
    await settle();
    expect(published).toEqual([]);
  });

  test("a user's own changes (no login-as) are not recorded", async () => {
    await app.inject({ method: 'POST', url: '/api/orders/create', headers: { token: plain() }, payload: {} });
    await settle();
    expect(published).toEqual([]);
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
