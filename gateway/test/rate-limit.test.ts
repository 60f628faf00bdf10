import type { ServiceApp } from '@flatship/kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildGateway } from '../src/app';
import { GATEWAY_MESSAGES } from '../src/messages';
import { createUserDirectory, gatewayDeps, type StandInService, startStandInService } from './helpers';

const MAX = 3;
const RATE_LIMITED = { code: 'RATE_LIMITED', message: GATEWAY_MESSAGES.rateLimited };
let auth: StandInService;
let admin: StandInService;
const users = createUserDirectory();

beforeAll(async () => {
  [auth, admin] = await Promise.all([startStandInService('auth'), startStandInService('admin')]);
});
afterAll(async () => {
  await Promise.all([auth.close(), admin.close()]);
});

async function freshGateway(): Promise<ServiceApp> {
  const app = await buildGateway(
    gatewayDeps({ upstreams: { auth: auth.url, admin: admin.url }, tokenState: users.tokenState, rateLimitMax: MAX }),
  );
  await app.ready();
  return app;
}

const login = (app: ServiceApp, email: string, ip = '127.0.0.1') =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    payload: { email, password: 'wrong-password' },
  });

describe('rate limits', () => {
  test('login: after the limit from one address, 429 with the message, and auth no longer sees the attempts', async () => {
    const app = await freshGateway();
    try {
      auth.seen.length = 0;
      for (let i = 0; i < MAX; i++) expect((await login(app, `user${i}@example.com`)).statusCode).toBe(200);
      const res = await login(app, 'another@example.com');
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(RATE_LIMITED);
      expect(res.headers['retry-after']).toBeDefined();
      expect(auth.seen).toHaveLength(MAX);
      // The body still reaches auth intact when allowed.
      expect(JSON.parse(auth.seen[0]!.body)).toEqual({ email: 'user0@example.com', password: 'wrong-password' });
    } finally {
      await app.close();
    }
  });

  test('login: guesses against one email from many addresses are limited too, whatever the case of the email', async () => {
    const app = await freshGateway();
    try {
      for (let i = 0; i < MAX; i++) {
        expect(
          (await login(app, i % 2 ? 'Victim@Example.com' : 'victim@example.com ', `10.0.0.${i + 1}`)).statusCode,
        ).toBe(200);
      }
      const res = await login(app, 'VICTIM@example.com', '10.0.0.99');
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(RATE_LIMITED);
      // Another account from a fresh address is unaffected.
      expect((await login(app, 'someone@example.com', '10.0.0.100')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  test('register, referral apply and login-as are limited', async () => {
    const app = await freshGateway();
    const adminToken = users.add({ id: 'admin1', role: 'admin' });
    try {
      const calls = [
        () => app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'n@example.com' } }),
        () =>
          app.inject({
            method: 'POST',
            url: '/api/invite/referral/apply',
            headers: { token: adminToken },
            payload: { referralCode: 'X' },
          }),
        () => app.inject({ method: 'POST', url: '/api/auth/login-as-user/u7', headers: { token: adminToken } }),
      ];
      for (const call of calls) {
        for (let i = 0; i < MAX; i++) expect((await call()).statusCode).toBe(200);
        const res = await call();
        expect(res.statusCode).toBe(429);
        expect(res.json()).toEqual(RATE_LIMITED);
      }
      expect(admin.seen.filter((s) => s.url === '/api/auth/login-as-user/u7')).toHaveLength(MAX);
    } finally {
      await app.close();
    }
  });

  test('ordinary calls are not limited', async () => {
    const app = await freshGateway();
    const t = users.add({ id: 'busy' });
    try {
      for (let i = 0; i < MAX * 3; i++) {
        expect((await app.inject({ method: 'GET', url: '/api/auth/verify', headers: { token: t } })).statusCode).toBe(
          200,
        );
      }
    } finally {
      await app.close();
    }
  });
});
