import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { internal, outboxEvents, PASSWORD, register, startTestAuth, type TestAuth } from './support';

let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

const GHOST = '00000000-0000-4000-8000-000000000000';
const verify = (token: string) => t.app.inject({ url: '/api/auth/verify', headers: { token } });
const eventsFor = async (id: string) => (await outboxEvents(t.db)).filter((e) => e.key === id).map((e) => e.value);

describe('internal routes are for services holding the secret', () => {
  test.each([
    ['GET', `/internal/users/${GHOST}/token-state`],
    ['GET', `/internal/users/${GHOST}`],
    ['POST', `/internal/users/${GHOST}/activation`],
    ['POST', `/internal/users/${GHOST}/role`],
  ] as const)('%s %s without or with a wrong secret is forbidden', async (method, url) => {
    const r = await register(t.app);
    const payload = method === 'POST' ? { activation: 'block', user_role: 'admin' } : undefined;
    const realUrl = url.replace(GHOST, r.user._id);
    for (const headers of [{}, { 'x-internal-secret': 'wrong-secret-wrong-secret' }, { token: r.token }]) {
      const res = await t.app.inject({ method, url: realUrl, headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    expect((await internal(t.app, 'GET', `/internal/users/${r.user._id}`)).json().user_role).toBe('user');
  });
});

describe('GET /internal/users/:id/token-state', () => {
  test("gives the user's role, activation and token version", async () => {
    const r = await register(t.app);
    const res = await internal(t.app, 'GET', `/internal/users/${r.user._id}/token-state`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: r.user._id, role: 'user', activation: 'allow', tokenVersion: 1 });
  });

  test('an unknown or malformed id is USER_NOT_FOUND', async () => {
    for (const id of [GHOST, 'nope']) {
      const res = await internal(t.app, 'GET', `/internal/users/${id}/token-state`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found' });
    }
  });
});

describe('GET /internal/users/:id', () => {
  test('gives the user without money or secrets', async () => {
    const r = await register(t.app, { name: 'Plain' });
    const res = await internal(t.app, 'GET', `/internal/users/${r.user._id}`);
    const { balance: _b, totalDeposit: _d, totalSpent: _s, ...withoutMoney } = r.user;
    expect(res.json()).toEqual(withoutMoney);
    expect(res.body).not.toMatch(/argon2|password/i);
  });

  test('an unknown id is a 404', async () => {
    expect((await internal(t.app, 'GET', `/internal/users/${GHOST}`)).statusCode).toBe(404);
  });
});

describe('POST /internal/users/:id/activation', () => {
  test('blocking bumps the token version, revokes tokens and records user.changed', async () => {
    const r = await register(t.app);
    const res = await internal(t.app, 'POST', `/internal/users/${r.user._id}/activation`, { activation: 'block' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: r.user._id, activation: 'block' });
    expect((await internal(t.app, 'GET', `/internal/users/${r.user._id}/token-state`)).json()).toEqual({
      id: r.user._id,
      role: 'user',
      activation: 'block',
      tokenVersion: 2,
    });
    expect((await verify(r.token)).statusCode).toBe(401);
    expect(await eventsFor(r.user._id)).toEqual([
      { id: r.user._id, role: 'user', activation: 'block', tokenVersion: 2 },
    ]);
  });

  test('asking for the current activation changes nothing and announces nothing', async () => {
    const r = await register(t.app);
    const res = await internal(t.app, 'POST', `/internal/users/${r.user._id}/activation`, { activation: 'allow' });
    expect(res.statusCode).toBe(200);
    expect((await verify(r.token)).statusCode).toBe(200);
    expect(await eventsFor(r.user._id)).toEqual([]);
  });

  test('an invalid activation or an unknown user is refused', async () => {
    const r = await register(t.app);
    const bad = await internal(t.app, 'POST', `/internal/users/${r.user._id}/activation`, { activation: 'banned' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'activation has an invalid value' });
    const ghost = await internal(t.app, 'POST', `/internal/users/${GHOST}/activation`, { activation: 'block' });
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json().code).toBe('USER_NOT_FOUND');
  });
});

describe('POST /internal/users/:id/role', () => {
  test('a role change bumps the version, revokes tokens and records user.changed', async () => {
    const r = await register(t.app);
    const res = await internal(t.app, 'POST', `/internal/users/${r.user._id}/role`, { user_role: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user_role).toBe('admin');
    expect((await verify(r.token)).json().code).toBe('AUTH_TOKEN_REVOKED');
    expect(await eventsFor(r.user._id)).toEqual([
      { id: r.user._id, role: 'admin', activation: 'allow', tokenVersion: 2 },
    ]);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: r.email, password: PASSWORD },
    });
    expect(login.json().user.user_role).toBe('admin');
  });

  test('an invalid role is refused and changes nothing', async () => {
    const r = await register(t.app);
    const res = await internal(t.app, 'POST', `/internal/users/${r.user._id}/role`, { user_role: 'root' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect((await verify(r.token)).statusCode).toBe(200);
  });

  test('a rejected event write rolls the role change back: no change without its event', async () => {
    const r = await register(t.app);
    await t.db.raw('alter table outbox add constraint outbox_reject check (false) not valid');
    try {
      const res = await internal(t.app, 'POST', `/internal/users/${r.user._id}/role`, { user_role: 'friend' });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.db.raw('alter table outbox drop constraint outbox_reject');
    }
    expect((await internal(t.app, 'GET', `/internal/users/${r.user._id}/token-state`)).json()).toMatchObject({
      role: 'user',
      tokenVersion: 1,
    });
    expect((await verify(r.token)).statusCode).toBe(200);
  });
});

describe('the relay carries user.changed to the bus', () => {
  test('after a block, flushing the outbox puts the event on the user.changed topic keyed by user id', async () => {
    const r = await register(t.app);
    await internal(t.app, 'POST', `/internal/users/${r.user._id}/activation`, { activation: 'block' });
    await t.outbox.flush();
    expect(await t.db('outbox').count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);
    const messages = await t.db('bus.messages').where({ topic: 'user.changed', key: r.user._id }).select('value');
    expect(messages).toEqual([{ value: { id: r.user._id, role: 'user', activation: 'block', tokenVersion: 2 } }]);
  });
});
