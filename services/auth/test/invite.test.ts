import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { internal, makeAdmin, makeFriend, register, startTestAuth, type TestAuth, uniqueEmail } from './support';

let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

const apply = (token: string, referralCode: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/invite/referral/apply', headers: { token }, payload: { referralCode } });
const get = (url: string, token: string) => t.app.inject({ url, headers: { token } });

describe('POST /api/invite/referral/apply', () => {
  test('links the user to the code owner, in any case, and answers with a working token', async () => {
    const friend = await register(t.app);
    const me = await register(t.app);
    const res = await apply(me.token, `  ${friend.user.referralCode.toLowerCase()} `);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      message: 'Referral code applied successfully!',
      user: { _id: me.user._id, referredBy: friend.user._id },
    });
    expect((await get('/api/auth/verify', body.token)).statusCode).toBe(200);
  });

  test('an empty code is refused', async () => {
    const me = await register(t.app);
    const res = await apply(me.token, '   ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'Please enter a referral code' });
  });

  test('an unknown code is refused', async () => {
    const me = await register(t.app);
    const res = await apply(me.token, 'ZZZZ9999');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'REFERRAL_INVALID_CODE', message: 'Invalid referral code' });
  });

  test('your own code is refused', async () => {
    const me = await register(t.app);
    const res = await apply(me.token, me.user.referralCode.toLowerCase());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'REFERRAL_OWN_CODE', message: 'You cannot use your own referral code' });
  });

  test('a second code is refused and the first referrer stays', async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const me = await register(t.app, { referralCode: a.user.referralCode });
    const res = await apply(me.token, b.user.referralCode);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'REFERRAL_ALREADY_APPLIED',
      message: 'A referral code has already been applied to your account',
    });
    expect((await get('/api/auth/verify', me.token)).json().user.referredBy).toBe(a.user._id);
  });

  test('two codes applied at once: exactly one wins', async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const me = await register(t.app);
    const [ra, rb] = await Promise.all([apply(me.token, a.user.referralCode), apply(me.token, b.user.referralCode)]);
    expect([ra?.statusCode, rb?.statusCode].sort()).toEqual([200, 409]);
  });

  test('a missing field or no token is refused', async () => {
    const me = await register(t.app);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/invite/referral/apply',
      headers: { token: me.token },
      payload: {},
    });
    expect(missing.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'referralCode is required' });
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/invite/referral/apply',
      payload: { referralCode: 'X' },
    });
    expect(anon.statusCode).toBe(401);
  });
});

describe('the code of a blocked referrer', () => {
  const block = (id: string, activation: 'block' | 'allow' = 'block') =>
    internal(t.app, 'POST', `/internal/users/${id}/activation`, { activation });
  const INACTIVE = { code: 'REFERRAL_CODE_INACTIVE', message: 'This referral code is no longer active' };

  test('is refused when applied, saying why, and links nobody', async () => {
    const referrer = await register(t.app);
    const me = await register(t.app);
    expect((await block(referrer.user._id)).statusCode).toBe(200);
    const res = await apply(me.token, referrer.user.referralCode);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(INACTIVE);
    expect((await get('/api/auth/verify', me.token)).json().user.referredBy ?? null).toBeNull();

    // Allowed again, the same code works: the refusal was about the block.
    await block(referrer.user._id, 'allow');
    expect((await apply(me.token, referrer.user.referralCode)).statusCode).toBe(200);
  });

  test('is refused at registration, and no account is created', async () => {
    const referrer = await register(t.app);
    await block(referrer.user._id);
    const email = uniqueEmail('blocked-ref');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'Newcomer',
        email,
        password: 'correct horse battery',
        confirmPassword: 'correct horse battery',
        referralCode: referrer.user.referralCode,
      },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(INACTIVE);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'correct horse battery' },
    });
    expect(login.statusCode).toBe(401);
  });
});

describe('GET /api/invite/referral/{userId}', () => {
  test('gives the caller their own code', async () => {
    const me = await register(t.app);
    const res = await get(`/api/invite/referral/${me.user._id}`, me.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ referralCode: me.user.referralCode });
  });

  test("another user's code is forbidden", async () => {
    const me = await register(t.app);
    const other = await register(t.app);
    const res = await get(`/api/invite/referral/${other.user._id}`, me.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'You do not have permission to do this.' });
  });

  test('an admin may read anyone; an unknown id is a 404, never a 500', async () => {
    const admin = await makeAdmin(t.app);
    const other = await register(t.app);
    expect((await get(`/api/invite/referral/${other.user._id}`, admin.token)).json()).toEqual({
      referralCode: other.user.referralCode,
    });
    const res = await get('/api/invite/referral/00000000-0000-4000-8000-000000000000', admin.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found' });
    for (const id of ['not-a-uuid', "1'%20or%20'1'='1"]) {
      const malformed = await get(`/api/invite/referral/${id}`, admin.token);
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'userId is not a valid id' });
    }
  });
});

describe('GET /api/invite/{userId}', () => {
  test('lists invited users newest first with their total deposit', async () => {
    const me = await makeFriend(t.app);
    const first = await register(t.app, { name: 'First', referralCode: me.user.referralCode });
    const second = await register(t.app, { name: 'Second' });
    await apply(second.token, me.user.referralCode);
    await register(t.app, { name: 'Not mine' });
    t.money.set(first.user._id, { balance: 1, totalDeposit: 25.5, totalSpent: 0 });

    const res = await get(`/api/invite/${me.user._id}`, me.token);
    expect(res.statusCode).toBe(200);
    const { invitedUsers } = res.json();
    expect(invitedUsers).toEqual([
      { name: 'Second', registeredDate: second.user.createdAt, totalDeposit: 0 },
      { name: 'First', registeredDate: first.user.createdAt, totalDeposit: 25.5 },
    ]);
    expect(Date.parse(invitedUsers[0].registeredDate)).toBeGreaterThanOrEqual(
      Date.parse(invitedUsers[1].registeredDate),
    );
  });

  test('nobody invited is an empty list', async () => {
    const me = await makeFriend(t.app);
    expect((await get(`/api/invite/${me.user._id}`, me.token)).json()).toEqual({ invitedUsers: [] });
  });

  test("another user's list is forbidden, an admin may see it", async () => {
    const owner = await makeFriend(t.app);
    await register(t.app, { name: 'Invitee', referralCode: owner.user.referralCode });
    const stranger = await makeFriend(t.app);
    const res = await get(`/api/invite/${owner.user._id}`, stranger.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    const admin = await makeAdmin(t.app);
    const asAdmin = await get(`/api/invite/${owner.user._id}`, admin.token);
    expect(asAdmin.json().invitedUsers.map((u: { name: string }) => u.name)).toEqual(['Invitee']);
  });

  test('is for friends and admins, as the Invites page is: a plain user is refused their own list', async () => {
    const me = await register(t.app);
    await register(t.app, { name: 'Invitee', referralCode: me.user.referralCode });
    const res = await get(`/api/invite/${me.user._id}`, me.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'Invites are available to friends and admins' });
  });

  test('needs a token', async () => {
    const me = await register(t.app);
    expect((await t.app.inject({ url: `/api/invite/${me.user._id}` })).statusCode).toBe(401);
  });
});
