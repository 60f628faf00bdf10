import { sign as cryptoSign } from 'node:crypto';
import net from 'node:net';
import type { TokenState } from '@flatship/proto';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/app';
import { assertSelfOrAdmin, authPlugin, type TokenStateSource } from '../src/auth';
import { AppError } from '../src/errors';
import { generateTokenKeys } from '../src/testing/keys';

const keys = generateTokenKeys();

/** Signs claims exactly as given (no defaults), to build tokens the app would never issue. */
function signRaw(claims: object): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const data = `${b64({ alg: 'EdDSA', typ: 'JWT' })}.${b64(claims)}`;
  return `${data}.${cryptoSign(null, Buffer.from(data), keys.privateKey).toString('base64url')}`;
}
const states = new Map<string, TokenState>();
const tokenState: TokenStateSource = { get: async (id) => states.get(id) ?? null };
let app: ServiceApp;
let ready = true;

beforeAll(async () => {
  app = createServiceApp({
    name: 'demo',
    logger: false,
    readiness: [
      async () => {
        if (!ready) throw new Error('database down');
      },
    ],
  });
  await app.register(authPlugin, { publicKey: keys.publicKey, privateKey: keys.privateKey, tokenState });
  app.post(
    '/echo',
    { schema: { body: Type.Object({ name: Type.String({ maxLength: 5 }), n: Type.Integer() }) } },
    async (req) => req.body,
  );
  app.get('/boom', async () => {
    throw new Error('secret internals');
  });
  app.get('/app-error', async () => {
    throw new AppError('AUTH_EMAIL_TAKEN', 'An account with this email already exists');
  });
  app.get<{ Params: { userId: string } }>('/users/:userId', { onRequest: [app.requireUser] }, async (req) => {
    const auth = assertSelfOrAdmin(req.auth, req.params.userId);
    return { userId: auth.userId };
  });
  app.get('/admin', { onRequest: [app.requireAdmin] }, async () => ({ ok: true }));
  await app.ready();
});
afterAll(() => app.close());

describe('error format', () => {
  test('malformed JSON is a 400 with a clear message', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'BAD_JSON', message: 'The request body is not valid JSON' });
  });
  test('a missing field is named', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'abc' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'n is required' });
  });
  test('an overlong string is named', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'abcdefgh', n: 1 } });
    expect(res.json().message).toBe('name must be at most 5 characters');
  });
  test('5xx hides internals', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('INTERNAL');
    expect(res.body).not.toContain('secret internals');
  });
  test('AppError maps its code to a status', async () => {
    const res = await app.inject({ method: 'GET', url: '/app-error' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'AUTH_EMAIL_TAKEN', message: 'An account with this email already exists' });
  });
  test('unknown routes answer 404 in the same format', async () => {
    const res = await app.inject({ method: 'GET', url: '/nope?x=1' });
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Route GET /nope not found' });
  });
  test('request ids are carried through', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });
});

describe('health', () => {
  test('readyz reflects readiness checks', async () => {
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    ready = false;
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    ready = true;
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toContain('database down');
  });
  test('metrics are exposed', async () => {
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.body).toContain('process_cpu_user_seconds_total');
  });
  test('/routez lists the public routes (under /api) with their methods, and nothing else', async () => {
    const listed = createServiceApp({ name: 'listed', logger: false });
    listed.get('/api/things/:id', async () => ({}));
    listed.route({ method: ['POST', 'PUT'], url: '/api/things', handler: async () => ({}) });
    listed.get('/internal/things', async () => ({}));
    await listed.register(async (child) => {
      child.delete('/api/things/:id', async () => ({}));
    });
    const res = await listed.inject({ method: 'GET', url: '/routez' });
    expect(res.json()).toEqual({
      service: 'listed',
      routes: [
        { method: 'GET', url: '/api/things/:id' },
        { method: 'POST', url: '/api/things' },
        { method: 'PUT', url: '/api/things' },
        { method: 'DELETE', url: '/api/things/:id' },
      ],
    });
    await listed.close();
  });
});

describe('tokens', () => {
  const sign = (claims: object, opts: object = {}) => app.jwt.sign(claims, opts);
  test('own id passes, another id is 403, admin passes', async () => {
    states.set('u1', { id: 'u1', role: 'user', activation: 'allow', tokenVersion: 1 });
    states.set('a1', { id: 'a1', role: 'admin', activation: 'allow', tokenVersion: 3 });
    const t = sign({ sub: 'u1', role: 'user', ver: 1 });
    expect((await app.inject({ url: '/users/u1', headers: { token: t } })).statusCode).toBe(200);
    const other = await app.inject({ url: '/users/u2', headers: { token: t } });
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe('FORBIDDEN');
    const admin = sign({ sub: 'a1', role: 'admin', ver: 3 });
    expect((await app.inject({ url: '/users/u2', headers: { token: admin } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/admin', headers: { token: t } })).statusCode).toBe(403);
    expect((await app.inject({ url: '/admin', headers: { token: admin } })).statusCode).toBe(200);
  });
  test('a session token in the query string is not accepted, however the name is spelled', async () => {
    states.set('u1', { id: 'u1', role: 'user', activation: 'allow', tokenVersion: 1 });
    const t = sign({ sub: 'u1', role: 'user', ver: 1 });
    for (const query of [`token=${t}`, `%74oken=${t}`, `token=x&token=${t}`, `TOKEN=${t}`]) {
      const res = await app.inject({ url: `/users/u1?${query}` });
      expect(res.statusCode, query).toBe(401);
      expect(res.json().code).toBe('AUTH_MISSING_TOKEN');
    }
    expect((await app.inject({ url: `/admin?token=${t}` })).statusCode).toBe(401);
    expect((await app.inject({ url: '/users/u1', headers: { token: t } })).statusCode).toBe(200);
  });
  test('missing, foreign-key, expired, revoked and blocked tokens are refused with clear messages', async () => {
    states.set('u1', { id: 'u1', role: 'user', activation: 'allow', tokenVersion: 1 });
    const missing = await app.inject({ url: '/users/u1' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().code).toBe('AUTH_MISSING_TOKEN');

    const foreign = createServiceApp({ name: 'x', logger: false });
    const other = generateTokenKeys();
    await foreign.register(authPlugin, { publicKey: other.publicKey, privateKey: other.privateKey, tokenState });
    await foreign.ready();
    const forged = foreign.jwt.sign({ sub: 'u1', role: 'admin', ver: 1 });
    await foreign.close();
    const bad = await app.inject({ url: '/users/u1', headers: { token: forged } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('AUTH_INVALID_TOKEN');

    const now = Math.floor(Date.now() / 1000);
    const expired = signRaw({ sub: 'u1', role: 'user', ver: 1, iat: now - 120, exp: now - 60 });
    const exp = await app.inject({ url: '/users/u1', headers: { token: expired } });
    expect(exp.statusCode).toBe(401);
    expect(exp.json()).toEqual({
      code: 'AUTH_TOKEN_EXPIRED',
      message: 'Your session has expired. Please log in again.',
    });

    const old = sign({ sub: 'u1', role: 'user', ver: 1 });
    states.set('u1', { id: 'u1', role: 'user', activation: 'allow', tokenVersion: 2 });
    const revoked = await app.inject({ url: '/users/u1', headers: { token: old } });
    expect(revoked.json().code).toBe('AUTH_TOKEN_REVOKED');

    states.set('u1', { id: 'u1', role: 'user', activation: 'block', tokenVersion: 2 });
    const blocked = await app.inject({
      url: '/users/u1',
      headers: { token: sign({ sub: 'u1', role: 'user', ver: 2 }) },
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toBe('Your account has been blocked. Please contact support.');
  });
  test('a token accepted before is refused once it expires, is revoked or its user is blocked', async () => {
    states.set('u3', { id: 'u3', role: 'user', activation: 'allow', tokenVersion: 1 });
    // Expires within the test: its signature is checked (and remembered) while it is still good. The clock is a
    // fake one, moved past the expiry, so no real time passes.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const now = Math.floor(Date.now() / 1000);
      const brief = signRaw({ sub: 'u3', role: 'user', ver: 1, iat: now, exp: now + 60 });
      expect((await app.inject({ url: '/users/u3', headers: { token: brief } })).statusCode).toBe(200);
      vi.setSystemTime((now + 59) * 1000);
      expect((await app.inject({ url: '/users/u3', headers: { token: brief } })).statusCode).toBe(200);
      vi.setSystemTime((now + 61) * 1000);
      expect((await app.inject({ url: '/users/u3', headers: { token: brief } })).json().code).toBe(
        'AUTH_TOKEN_EXPIRED',
      );
    } finally {
      vi.useRealTimers();
    }

    const t = sign({ sub: 'u3', role: 'user', ver: 1 });
    expect((await app.inject({ url: '/users/u3', headers: { token: t } })).statusCode).toBe(200);
    states.set('u3', { id: 'u3', role: 'user', activation: 'block', tokenVersion: 1 });
    expect((await app.inject({ url: '/users/u3', headers: { token: t } })).json().code).toBe('AUTH_ACCOUNT_BLOCKED');
    states.set('u3', { id: 'u3', role: 'user', activation: 'allow', tokenVersion: 2 });
    expect((await app.inject({ url: '/users/u3', headers: { token: t } })).json().code).toBe('AUTH_TOKEN_REVOKED');
    // A tampered copy of a token accepted before is no token at all.
    const again = sign({ sub: 'u3', role: 'user', ver: 2 });
    expect((await app.inject({ url: '/users/u3', headers: { token: again } })).statusCode).toBe(200);
    const tampered = `${again.slice(0, -2)}${again.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await app.inject({ url: '/users/u3', headers: { token: tampered } })).json().code).toBe(
      'AUTH_INVALID_TOKEN',
    );
  });
  test('a login-as token works only while its admin is an active admin at the impersonation version it names', async () => {
    const activeAdmin: TokenState = {
      id: 'a5',
      role: 'admin',
      activation: 'allow',
      tokenVersion: 4,
      impersonationVersion: 2,
    };
    states.set('u5', { id: 'u5', role: 'user', activation: 'allow', tokenVersion: 1 });
    states.set('a5', activeAdmin);
    const asUser = sign({ sub: 'u5', role: 'user', ver: 1, imp: 'a5', iv: 2 });
    const call = async (token: string) => {
      const res = await app.inject({ url: '/users/u5', headers: { token } });
      return res.statusCode === 200 ? 200 : `${res.statusCode} ${res.json().code}`;
    };
    expect(await call(asUser)).toBe(200);

    states.set('a5', { ...activeAdmin, role: 'user', tokenVersion: 5 });
    expect(await call(asUser)).toBe('401 AUTH_TOKEN_REVOKED');
    states.set('a5', { ...activeAdmin, activation: 'block', tokenVersion: 5 });
    expect(await call(asUser)).toBe('401 AUTH_TOKEN_REVOKED');
    states.delete('a5');
    expect(await call(asUser)).toBe('401 AUTH_TOKEN_REVOKED');
    // The admin went back to their own account.
    states.set('a5', { ...activeAdmin, impersonationVersion: 3 });
    expect(await call(asUser)).toBe('401 AUTH_TOKEN_REVOKED');
    // A state from before impersonation versions existed vouches for no login-as token.
    const { impersonationVersion: _, ...withoutVersion } = activeAdmin;
    states.set('a5', withoutVersion);
    expect(await call(asUser)).toBe('401 AUTH_TOKEN_REVOKED');

    // Neither the user's own token nor the admin's is touched by any of it.
    states.set('a5', { ...activeAdmin, impersonationVersion: 3 });
    expect(await call(sign({ sub: 'u5', role: 'user', ver: 1 }))).toBe(200);
    const adminOwn = await app.inject({
      url: '/admin',
      headers: { token: sign({ sub: 'a5', role: 'admin', ver: 4 }) },
    });
    expect(adminOwn.statusCode).toBe(200);
    // A login-as token without a version was issued before versions existed, for far longer: refused.
    expect(await call(sign({ sub: 'u5', role: 'user', ver: 1, imp: 'a5' }))).toBe('401 AUTH_TOKEN_REVOKED');
    expect(await call(sign({ sub: 'u5', role: 'user', ver: 1, imp: 'a5', iv: 3 }))).toBe(200);
  });

  test('a login-as token never carries an admin’s rights: one naming an admin account is refused everywhere', async () => {
    states.set('a6', { id: 'a6', role: 'admin', activation: 'allow', tokenVersion: 1, impersonationVersion: 1 });
    states.set('a7', { id: 'a7', role: 'admin', activation: 'allow', tokenVersion: 1, impersonationVersion: 1 });
    const asAdmin = sign({ sub: 'a7', role: 'admin', ver: 1, imp: 'a6', iv: 1 });
    for (const url of ['/admin', '/users/a7', '/users/u1']) {
      const res = await app.inject({ url, headers: { token: asAdmin } });
      expect(`${url} ${res.statusCode} ${res.json().code}`).toBe(`${url} 401 AUTH_TOKEN_REVOKED`);
    }
    // The admins' own tokens are untouched.
    const own = await app.inject({ url: '/admin', headers: { token: sign({ sub: 'a7', role: 'admin', ver: 1 }) } });
    expect(own.statusCode).toBe(200);
  });
});

describe('bodies over the limit', () => {
  test('are answered 413 before they are sent whole, and the connection then carries the next request', async () => {
    const small = createServiceApp({ name: 'small', logger: false, bodyLimit: 1024 });
    small.post('/echo', async (req) => req.body);
    const url = new URL(await small.listen({ host: '127.0.0.1', port: 0 }));
    // A raw socket, so the test decides exactly when each byte is sent.
    const socket = net.connect(Number(url.port), url.hostname);
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    /** Waits until what came back so far satisfies `done`, however the answers were cut into chunks. */
    const waitFor = async (what: string, done: () => boolean) => {
      for (const deadline = Date.now() + 15_000; !done(); ) {
        if (Date.now() > deadline) throw new Error(`never received ${what}: ${received}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    try {
      const size = 64 * 1024;
      socket.write(
        `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
      );
      socket.write('{"name":"');
      await waitFor('the 413', () => received.includes('PAYLOAD_TOO_LARGE'));
      expect(received).toMatch(/^HTTP\/1\.1 413 /);
      expect(received.toLowerCase()).not.toContain('connection: close');
      // The sender finishes the body it announced, then asks again on the same connection.
      socket.write('x'.repeat(size - 9));
      const next = '{"n":1}';
      socket.write(
        `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${next.length}\r\n\r\n${next}`,
      );
      await waitFor('the answer to the next request', () => received.endsWith(next));
      expect(received).toContain('HTTP/1.1 200');
    } finally {
      socket.destroy();
      await small.close();
    }
  });
});
