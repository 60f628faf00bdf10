import type { ServiceApp } from '@flatship/kit';
import { AUTH_MESSAGES } from '@flatship/kit';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { buildGateway } from '../src/app';
import { GATEWAY_MESSAGES } from '../src/messages';
import {
  createUserDirectory,
  deadAddress,
  gatewayDeps,
  otherKeys,
  type StandInService,
  signToken,
  startStandInService,
} from './helpers';

let auth: StandInService;
let admin: StandInService;
let orders: StandInService;
let pricing: StandInService;
let app: ServiceApp;
const users = createUserDirectory();
let token: string;

const UNAVAILABLE = { code: 'SERVICE_UNAVAILABLE', message: GATEWAY_MESSAGES.unavailable };

beforeAll(async () => {
  [auth, admin, orders, pricing] = await Promise.all([
    startStandInService('auth'),
    startStandInService('admin'),
    startStandInService('orders'),
    startStandInService('services-pricing'),
  ]);
  app = await buildGateway(
    gatewayDeps({
      upstreams: {
        auth: auth.url,
        admin: admin.url,
        orders: orders.url,
        'services-pricing': pricing.url,
        payments: await deadAddress(),
      },
      tokenState: users.tokenState,
    }),
  );
  await app.ready();
  token = users.add({ id: 'u1' });
});
afterAll(async () => {
  await app.close();
  await Promise.all([auth, admin, orders, pricing].map((s) => s.close()));
});
beforeEach(() => {
  for (const s of [auth, admin, orders, pricing]) s.seen.length = 0;
});

const seenAnywhere = () => auth.seen.length + admin.seen.length + orders.seen.length + pricing.seen.length;

describe('proxying', () => {
  test('forwards method, path, query, body and token, and adds the request id and client address', async () => {
    const body = JSON.stringify({ shipments: [{ service_name: 'Priority', package: { package_weight: 2 } }] });
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders/price/v2/bulk?dry=1&x=%20y',
      headers: { token, 'content-type': 'application/json', 'x-request-id': 'req-123' },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('req-123');
    expect(pricing.seen).toHaveLength(1);
    const seen = pricing.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/api/orders/price/v2/bulk?dry=1&x=%20y');
    expect(seen.body).toBe(body);
    expect(seen.headers.token).toBe(token);
    expect(seen.headers['x-request-id']).toBe('req-123');
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(orders.seen).toHaveLength(0);
  });

  test('generates a request id when the client sends none, and the service sees the same one', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/orders/u1', headers: { token } });
    expect(res.statusCode).toBe(200);
    const id = res.headers['x-request-id'];
    expect(typeof id).toBe('string');
    expect(orders.seen[0]?.headers['x-request-id']).toBe(id);
  });

  test('passes an empty body declared JSON (the default-services sync) on as exactly that', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/defaultServices/sync',
      headers: { token, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    const seen = pricing.seen[0]!;
    expect(seen.body).toBe('');
    expect(seen.headers['content-type']).toBe('application/json');
    // No chunked framing: the service can tell there is no body before reading any.
    expect(seen.headers['transfer-encoding']).toBeUndefined();
    expect(seen.headers['content-length'] ?? '0').toBe('0');
  });

  test('passes non-JSON bodies through byte for byte', async () => {
    const raw = 'a,b\n"x, y",2\n';
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/add-sku/u1',
      headers: { token, 'content-type': 'text/csv' },
      payload: raw,
    });
    expect(res.statusCode).toBe(200);
    expect(auth.seen[0]?.body).toBe(raw);
    expect(auth.seen[0]?.headers['content-type']).toBe('text/csv');
  });

  test('passes an empty body declared as JSON through unchanged (default services sync, spec doc 3 §7)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/defaultServices/sync',
      headers: { token, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    expect(pricing.seen).toHaveLength(1);
    expect(pricing.seen[0]?.method).toBe('POST');
    expect(pricing.seen[0]?.body).toBe('');
    expect(pricing.seen[0]?.headers['content-type']).toBe('application/json');
  });

  test('routes by the most specific prefix', async () => {
    await app.inject({ method: 'GET', url: '/api/auth/users', headers: { token } });
    await app.inject({ method: 'DELETE', url: '/api/auth/users/u2', headers: { token } });
    await app.inject({ method: 'GET', url: '/api/auth/verify', headers: { token } });
    expect(admin.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /api/auth/users', 'DELETE /api/auth/users/u2']);
    expect(auth.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /api/auth/verify']);
  });

  test('never forwards the internal secret a client sends', async () => {
    await app.inject({ method: 'GET', url: '/api/auth/verify', headers: { token, 'x-internal-secret': 'guess' } });
    expect(auth.seen[0]?.headers['x-internal-secret']).toBeUndefined();
  });

  test('a client cannot choose the address services see', async () => {
    await app.inject({ method: 'GET', url: '/api/auth/verify', headers: { token, 'x-forwarded-for': '10.9.9.9' } });
    expect(auth.seen[0]?.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  test('a service that is not configured answers 503 with a clear message', async () => {
    const gw = await buildGateway(gatewayDeps({ upstreams: { auth: auth.url }, tokenState: users.tokenState }));
    try {
      const res = await gw.inject({ method: 'GET', url: '/api/orders/u1', headers: { token } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual(UNAVAILABLE);
    } finally {
      await gw.close();
    }
  });

  test('a configured service that is down answers 503 with the same message', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/payment/deposits/u1', headers: { token } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual(UNAVAILABLE);
  });

  test('an unknown /api path is a 404 in the usual format', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nothing/here', headers: { token } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: GATEWAY_MESSAGES.notFound });
    expect(seenAnywhere()).toBe(0);
  });

  test('a path with dot segments is refused rather than guessed at', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/%2e%2e%2fadmin', headers: { token } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('BAD_REQUEST');
    expect(seenAnywhere()).toBe(0);
  });
});

describe('auth at the edge', () => {
  test.each([
    ['POST', '/api/auth/login', 'auth'],
    ['POST', '/api/auth/register', 'auth'],
    ['GET', '/api/orders/file/template', 'orders'],
  ] as const)('%s %s passes without a token', async (method, url, service) => {
    const res = await app.inject({ method, url, payload: method === 'POST' ? { email: 'a@b.co' } : undefined });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ service, url });
  });

  test('the BTCPay webhook and the guest top-up pass without a token', async () => {
    const payments = await startStandInService('payments');
    const gw = await buildGateway(
      gatewayDeps({ upstreams: { auth: auth.url, payments: payments.url }, tokenState: users.tokenState }),
    );
    try {
      const webhookBody = '{"type":"InvoiceSettled","invoiceId":"i1"}';
      const hook = await gw.inject({
        method: 'POST',
        url: '/api/payment/webhook/btcpay',
        headers: { 'content-type': 'application/json', 'btcpay-sig': 'sha256=abc' },
        payload: webhookBody,
      });
      expect(hook.statusCode).toBe(200);
      const guest = await gw.inject({ method: 'GET', url: '/api/payment/top-up/guest' });
      expect(guest.statusCode).toBe(200);
      expect(payments.seen.map((s) => s.url)).toEqual(['/api/payment/webhook/btcpay', '/api/payment/top-up/guest']);
      // The signature is over these exact bytes.
      expect(payments.seen[0]?.body).toBe(webhookBody);
      expect(payments.seen[0]?.headers['btcpay-sig']).toBe('sha256=abc');

      const notGuest = await gw.inject({ method: 'GET', url: '/api/payment/top-up/u1' });
      expect(notGuest.statusCode).toBe(401);
    } finally {
      await gw.close();
      await payments.close();
    }
  });

  test('a missing token is refused before any service sees the call', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/orders/recent/u1' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'AUTH_MISSING_TOKEN', message: AUTH_MESSAGES.missing });
    expect(seenAnywhere()).toBe(0);
  });

  test('a token signed with another key is refused', async () => {
    const forged = signToken({ sub: 'u1', role: 'admin', ver: 1 }, otherKeys.privateKey);
    const res = await app.inject({ method: 'GET', url: '/api/auth/users', headers: { token: forged } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'AUTH_INVALID_TOKEN', message: AUTH_MESSAGES.invalid });
    expect(seenAnywhere()).toBe(0);
  });

  test('garbage in the token header is refused', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/verify', headers: { token: 'not-a-jwt' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('AUTH_INVALID_TOKEN');
    expect(seenAnywhere()).toBe(0);
  });

  test('an expired token is refused', async () => {
    const past = Math.floor(Date.now() / 1000) - 120;
    const expired = signToken({ sub: 'u1', role: 'user', ver: 1, iat: past - 3600, exp: past });
    const res = await app.inject({ method: 'GET', url: '/api/auth/verify', headers: { token: expired } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'AUTH_TOKEN_EXPIRED', message: AUTH_MESSAGES.expired });
    expect(seenAnywhere()).toBe(0);
  });

  test('a token whose version is no longer current is refused', async () => {
    const old = users.add({ id: 'u-rev', tokenVersion: 1 });
    users.states.set('u-rev', { id: 'u-rev', role: 'user', activation: 'allow', tokenVersion: 2 });
    const res = await app.inject({ method: 'GET', url: '/api/auth/verify', headers: { token: old } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'AUTH_TOKEN_REVOKED', message: AUTH_MESSAGES.revoked });
    expect(seenAnywhere()).toBe(0);
  });

  test("a deleted user's token is refused", async () => {
    const gone = signToken({ sub: 'nobody', role: 'user', ver: 1 });
    const res = await app.inject({ method: 'GET', url: '/api/auth/verify', headers: { token: gone } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('AUTH_TOKEN_REVOKED');
  });

  test("a blocked user's token is refused with 403", async () => {
    const blocked = users.add({ id: 'u-blocked', activation: 'block' });
    const res = await app.inject({ method: 'GET', url: '/api/orders/u-blocked', headers: { token: blocked } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'AUTH_ACCOUNT_BLOCKED', message: AUTH_MESSAGES.blocked });
    expect(seenAnywhere()).toBe(0);
  });

  test('when token states cannot be read, the answer is 503, not a refusal', async () => {
    const gw = await buildGateway(
      gatewayDeps({
        upstreams: { auth: auth.url },
        tokenState: {
          get: async () => {
            throw new (await import('@flatship/kit')).AppError('SERVICE_UNAVAILABLE', GATEWAY_MESSAGES.unavailable);
          },
          apply: () => {},
        },
      }),
    );
    try {
      const res = await gw.inject({ method: 'GET', url: '/api/auth/verify', headers: { token } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual(UNAVAILABLE);
      expect(auth.seen).toHaveLength(0);
    } finally {
      await gw.close();
    }
  });
});

describe('security headers', () => {
  test('API answers and pages carry the CSP, nosniff and a referrer policy', async () => {
    for (const url of ['/api/auth/verify', '/main/dashboard']) {
      const res = await app.inject({ method: 'GET', url, headers: { token } });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toContain("img-src 'self' data: blob:");
      expect(csp).toContain("connect-src 'self';");
      expect(csp).toContain("font-src 'self' data:");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  test('connect-src is the app itself: no ws: or wss: to anywhere (the socket is same-origin)', async () => {
    const res = await app.inject({ method: 'GET', url: '/main/dashboard' });
    const connect = String(res.headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('connect-src'));
    expect(connect).toBe("connect-src 'self'");
  });

  test('Strict-Transport-Security only on a request that came over HTTPS', async () => {
    // Plain HTTP: a browser ignores it there, and it says nothing true about this connection.
    for (const url of ['/main/dashboard', '/api/auth/verify']) {
      const res = await app.inject({ method: 'GET', url, headers: { token } });
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    // Without a trusted proxy, a client's own X-Forwarded-Proto proves nothing.
    const claimed = await app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();

    const deps = gatewayDeps({ upstreams: { auth: auth.url }, tokenState: users.tokenState });
    const behindProxy = await buildGateway({ ...deps, config: { ...deps.config, trustProxy: true } });
    try {
      const https = await behindProxy.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const api = await behindProxy.inject({
        method: 'GET',
        url: '/api/auth/verify',
        headers: { 'x-forwarded-proto': 'https', token },
      });
      expect(api.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const http = await behindProxy.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'http' } });
      expect(http.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await behindProxy.close();
    }
  });

  test('a configured live chat origin may serve scripts, frames and API calls', async () => {
    const deps = gatewayDeps({ upstreams: { auth: auth.url }, tokenState: users.tokenState });
    const gw = await buildGateway({
      ...deps,
      config: { ...deps.config, cspExtraOrigins: ['https://chat.example.com'] },
    });
    try {
      const res = await gw.inject({ method: 'GET', url: '/api/auth/client-config' });
      const directives = Object.fromEntries(
        String(res.headers['content-security-policy'])
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([name, ...values]) => [name, values]),
      );
      for (const name of ['script-src', 'frame-src', 'connect-src']) {
        expect(directives[name]).toContain('https://chat.example.com');
      }
      // The chat's own socket, and no other.
      expect(directives['connect-src']).toEqual(["'self'", 'https://chat.example.com', 'wss://chat.example.com']);
      expect(directives['default-src']).toEqual(["'self'"]);
      // Public: the chat settings are read before anyone signs in.
      expect(res.statusCode).toBe(200);
      expect(auth.seen.at(-1)?.url).toBe('/api/auth/client-config');
    } finally {
      await gw.close();
    }
  });
});
