import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { internal, makeFriend, outboxEvents, PASSWORD, register, startTestAuth, type TestAuth } from './support';

let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

const GHOST = '00000000-0000-4000-8000-000000000000';
const verify = (token: string) => t.app.inject({ url: '/api/auth/verify', headers: { token } });
// Those after the one that announced the registration.
const eventsFor = async (id: string) =>
  (await outboxEvents(t.db))
    .filter((e) => e.key === id)
    .map((e) => e.value)
    .slice(1);

describe('internal routes are for services holding the secret', () => {
  test.each([
    ['GET', `/internal/users/${GHOST}/token-state`],
    ['GET', `/internal/users/${GHOST}`],
    ['POST', `/internal/users/${GHOST}/activation`],
    ['POST', `/internal/users/${GHOST}/role`],
    ['POST', `/internal/users/${GHOST}/referral-code`],
    ['GET', `/internal/users/${GHOST}/referral`],
  ] as const)('%s %s without or with a wrong secret is forbidden', async (method, url) => {
    const r = await register(t.app);
    const payload =
      method === 'POST' ? { activation: 'block', user_role: 'admin', referralCode: 'SNEAKY1' } : undefined;
    const realUrl = url.replace(GHOST, r.user._id);
    for (const headers of [{}, { 'x-internal-secret': 'wrong-secret-wrong-secret' }, { token: r.token }]) {
      const res = await t.app.inject({ method, url: realUrl, headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    expect((await internal(t.app, 'GET', `/internal/users/${r.user._id}`)).json()).toMatchObject({
      user_role: 'user',
      activation: 'allow',
      referralCode: r.user.referralCode,
    });
  });
});

describe('GET /internal/users/:id/token-state', () => {
  test("gives the user's role, activation, token version and impersonation version", async () => {
    const r = await register(t.app);
    const res = await internal(t.app, 'GET', `/internal/users/${r.user._id}/token-state`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: r.user._id,
      role: 'user',
      activation: 'allow',
      tokenVersion: 1,
      impersonationVersion: 1,
    });
  });

  test('an unknown id is USER_NOT_FOUND; a malformed one is refused naming it', async () => {
    const res = await internal(t.app, 'GET', `/internal/users/${GHOST}/token-state`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found' });
    const malformed = await internal(t.app, 'GET', '/internal/users/nope/token-state');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'id is not a valid id' });
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
      impersonationVersion: 2,
    });
    expect((await verify(r.token)).statusCode).toBe(401);
    expect(await eventsFor(r.user._id)).toMatchObject([
      { id: r.user._id, role: 'user', activation: 'block', tokenVersion: 2, email: r.email },
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
    expect(await eventsFor(r.user._id)).toMatchObject([
      { id: r.user._id, role: 'admin', activation: 'allow', tokenVersion: 2, email: r.email },
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
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({
      value: { id: r.user._id, role: 'user', activation: 'block', tokenVersion: 2 },
    });
  });
});

describe('POST /internal/users/:id/referral-code', () => {
  const setCode = (id: string, referralCode: unknown) =>
    internal(t.app, 'POST', `/internal/users/${id}/referral-code`, { referralCode });
  const login = (r: { email: string }) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: r.email, password: PASSWORD } });

  test('stores the code trimmed and upper-case; login shows it and it works for sign-ups', async () => {
    const r = await register(t.app);
    const res = await setCode(r.user._id, '  spring2025 ');
    expect(res.statusCode).toBe(200);
    const { balance: _b, totalDeposit: _d, totalSpent: _s, ...withoutMoney } = r.user;
    expect(res.json()).toEqual({ ...withoutMoney, referralCode: 'SPRING2025' });
    expect((await login(r)).json().user.referralCode).toBe('SPRING2025');
    const invited = await register(t.app, { referralCode: 'spring2025' });
    expect(invited.user.referredBy).toBe(r.user._id);
  });

  test('people invited under the old code stay linked; the old code stops working', async () => {
    const r = await makeFriend(t.app);
    const old = r.user.referralCode;
    const invited = await register(t.app, { referralCode: old });
    expect((await setCode(r.user._id, 'NEWCODE1')).statusCode).toBe(200);
    const list = await t.app.inject({ url: `/api/invite/${r.user._id}`, headers: { token: r.token } });
    expect(list.json().invitedUsers).toEqual([expect.objectContaining({ name: invited.user.name })]);
    const late = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'Late',
        email: `late.${Date.now()}@example.com`,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        referralCode: old,
      },
    });
    expect(late.json().code).toBe('REFERRAL_INVALID_CODE');
  });

  test('a code another user has, in any case, is refused and nothing changes', async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const res = await setCode(b.user._id, a.user.referralCode.toLowerCase());
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'REFERRAL_CODE_TAKEN', message: 'This referral code is already in use' });
    expect((await login(b)).json().user.referralCode).toBe(b.user.referralCode);
  });

  test('setting the code the user already has is fine', async () => {
    const r = await register(t.app);
    const res = await setCode(r.user._id, r.user.referralCode.toLowerCase());
    expect(res.statusCode).toBe(200);
    expect(res.json().referralCode).toBe(r.user.referralCode);
  });

  test('two users asking for one code at once: exactly one gets it', async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const [ra, rb] = await Promise.all([setCode(a.user._id, 'RACE42'), setCode(b.user._id, 'race42')]);
    expect([ra?.statusCode, rb?.statusCode].sort()).toEqual([200, 409]);
  });

  test.each([
    '',
    '   ',
    '7',
    'AB',
    'A1C',
    'has space',
    'dash-ed',
    'under_score',
    'ünïcode',
    'ß',
    'x'.repeat(33),
    '<b>1</b>',
  ])('the code %j is refused', async (code) => {
    const r = await register(t.app);
    const res = await setCode(r.user._id, code);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Referral code must be 4 to 32 letters or digits',
    });
    expect((await login(r)).json().user.referralCode).toBe(r.user.referralCode);
  });

  test('4 to 32 letters and digits are fine', async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const long = `A${'b1'.repeat(15)}Z`;
    expect((await setCode(a.user._id, long)).json().referralCode).toBe(long.toUpperCase());
    expect((await setCode(b.user._id, ' ab12 ')).json().referralCode).toBe('AB12');
  });

  test('an unknown user or a missing code is refused', async () => {
    const res = await setCode(GHOST, 'GHOSTLY');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found' });
    expect((await setCode('nope', 'GHOSTLY')).json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'id is not a valid id',
    });
    const r = await register(t.app);
    const missing = await internal(t.app, 'POST', `/internal/users/${r.user._id}/referral-code`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'referralCode is required' });
  });
});

describe('GET /internal/users/:id/referral', () => {
  test('names who referred the user and whether each is blocked or deleted; deleted users are still answered', async () => {
    const referrer = await register(t.app);
    const invited = await register(t.app, { referralCode: referrer.user.referralCode });
    const standing = async (id: string) => (await internal(t.app, 'GET', `/internal/users/${id}/referral`)).json();
    expect(await standing(invited.user._id)).toEqual({
      user: { id: invited.user._id, activation: 'allow', deleted: false },
      referrer: { id: referrer.user._id, activation: 'allow', deleted: false },
      // Joined with the code: referred since joining.
      referredAt: expect.any(String),
    });
    await internal(t.app, 'POST', `/internal/users/${referrer.user._id}/activation`, { activation: 'block' });
    expect((await standing(invited.user._id)).referrer).toMatchObject({ activation: 'block', deleted: false });
    await internal(t.app, 'DELETE', `/internal/users/${referrer.user._id}`);
    expect((await standing(invited.user._id)).referrer).toMatchObject({ id: referrer.user._id, deleted: true });
    expect(await standing(referrer.user._id)).toEqual({
      user: { id: referrer.user._id, activation: 'block', deleted: true },
      referrer: null,
      referredAt: null,
    });
  });

  test('an id that never named a user is 404', async () => {
    const res = await internal(t.app, 'GET', `/internal/users/${GHOST}/referral`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found' });
  });
});
