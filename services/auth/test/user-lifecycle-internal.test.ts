import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  internal,
  makeAdmin,
  outboxEvents,
  PASSWORD,
  type Registered,
  register,
  startTestAuth,
  type TestAuth,
  uniqueEmail,
} from './support';

let t: TestAuth;
let admin: Registered;
beforeAll(async () => {
  t = await startTestAuth();
  admin = await makeAdmin(t.app);
});
afterAll(() => t.close());

const GHOST = '00000000-0000-4000-8000-000000000000';
const verify = (token: string) => t.app.inject({ url: '/api/auth/verify', headers: { token } });
const login = (email: string, password = PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const lastEvent = async (id: string) => (await outboxEvents(t.db)).filter((e) => e.key === id).at(-1)?.value;

describe('user.changed carries the profile', () => {
  test('registering announces the new user with name, email, referral code and dates', async () => {
    const r = await register(t.app, { name: 'Newcomer' });
    expect(await lastEvent(r.user._id)).toEqual({
      id: r.user._id,
      role: 'user',
      activation: 'allow',
      tokenVersion: 1,
      impersonationVersion: 1,
      name: 'Newcomer',
      email: r.email,
      avatar: '',
      referralCode: r.user.referralCode,
      referredBy: null,
      createdAt: r.user.createdAt,
      updatedAt: expect.any(String),
    });
  });

  test('a referral code set by an admin is announced', async () => {
    const r = await register(t.app);
    await internal(t.app, 'POST', `/internal/users/${r.user._id}/referral-code`, { referralCode: 'fresh42' });
    expect(await lastEvent(r.user._id)).toMatchObject({ id: r.user._id, referralCode: 'FRESH42' });
  });
});

describe('DELETE /internal/users/:id', () => {
  test('the user can no longer sign in, their tokens stop, and their email registers again', async () => {
    const r = await register(t.app, { name: 'Leaving' });
    const res = await internal(t.app, 'DELETE', `/internal/users/${r.user._id}`);
    expect(res.statusCode).toBe(204);
    expect((await verify(r.token)).statusCode).toBe(401);
    expect((await login(r.email)).json().code).toBe('AUTH_INVALID_CREDENTIALS');
    expect((await internal(t.app, 'GET', `/internal/users/${r.user._id}`)).statusCode).toBe(404);
    expect(await lastEvent(r.user._id)).toMatchObject({ id: r.user._id, deleted: true, tokenVersion: 2 });

    const again = await register(t.app, { name: 'Back again', email: r.email });
    expect(again.user._id).not.toBe(r.user._id);
    expect((await login(r.email)).json().user._id).toBe(again.user._id);
    // The deleted row stays for the books.
    expect(await t.db('users').where({ id: r.user._id }).first('deleted_at')).toEqual({ deleted_at: expect.any(Date) });
  });

  test('an unknown or already deleted user is USER_NOT_FOUND; a malformed id is refused', async () => {
    const r = await register(t.app);
    await internal(t.app, 'DELETE', `/internal/users/${r.user._id}`);
    for (const id of [r.user._id, GHOST]) {
      const res = await internal(t.app, 'DELETE', `/internal/users/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found' });
    }
    expect((await internal(t.app, 'DELETE', '/internal/users/nope')).statusCode).toBe(400);
  });

  test('needs the internal secret', async () => {
    const r = await register(t.app);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/internal/users/${r.user._id}`,
      headers: { token: r.token },
    });
    expect(res.statusCode).toBe(403);
    expect((await verify(r.token)).statusCode).toBe(200);
  });
});

describe('POST /internal/users/:id/login-as-token', () => {
  test("gives a token for the user that names the admin in 'imp' and works as the user's", async () => {
    const r = await register(t.app, { name: 'Customer' });
    const res = await internal(t.app, 'POST', `/internal/users/${r.user._id}/login-as-token`, {
      adminId: admin.user._id,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ _id: r.user._id, name: 'Customer', user_role: 'user' });
    // The signature is checked by verify below; the claims are read here.
    const claims = JSON.parse(Buffer.from(body.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: r.user._id, role: 'user', ver: 1, imp: admin.user._id });
    expect((await verify(body.token)).json().user._id).toBe(r.user._id);
  });

  test('refuses a blocked user, an admin, an unknown user, and a missing admin id', async () => {
    const blocked = await register(t.app);
    await internal(t.app, 'POST', `/internal/users/${blocked.user._id}/activation`, { activation: 'block' });
    const refusedBlocked = await internal(t.app, 'POST', `/internal/users/${blocked.user._id}/login-as-token`, {
      adminId: admin.user._id,
    });
    expect(refusedBlocked.statusCode).toBe(400);
    expect(refusedBlocked.json()).toEqual({
      code: 'LOGIN_AS_NOT_ALLOWED',
      message: 'This user is blocked. Allow their access before logging in as them.',
    });
    const refusedAdmin = await internal(t.app, 'POST', `/internal/users/${admin.user._id}/login-as-token`, {
      adminId: admin.user._id,
    });
    expect(refusedAdmin.json()).toEqual({
      code: 'LOGIN_AS_NOT_ALLOWED',
      message: 'You cannot log in as another admin',
    });
    const ghost = await internal(t.app, 'POST', `/internal/users/${GHOST}/login-as-token`, { adminId: admin.user._id });
    expect(ghost.statusCode).toBe(404);
    const noAdmin = await internal(t.app, 'POST', `/internal/users/${blocked.user._id}/login-as-token`, {});
    expect(noAdmin.statusCode).toBe(400);
  });
});

describe('GET /internal/users/export', () => {
  test('pages through every user in id order, deleted ones marked', async () => {
    const gone = await register(t.app, { email: uniqueEmail('gone') });
    await internal(t.app, 'DELETE', `/internal/users/${gone.user._id}`);
    const seen: { _id: string; deletedAt: string | null }[] = [];
    let after: string | undefined;
    for (;;) {
      const res = await internal(t.app, 'GET', `/internal/users/export?limit=2${after ? `&after=${after}` : ''}`);
      expect(res.statusCode).toBe(200);
      const page = res.json().users as { _id: string; deletedAt: string | null }[];
      expect(page.length).toBeLessThanOrEqual(2);
      if (page.length === 0) break;
      seen.push(...page);
      after = page.at(-1)?._id;
    }
    const ids = seen.map((u) => u._id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(Number((await t.db('users').count('* as c'))[0]?.c));
    expect(seen.find((u) => u._id === gone.user._id)?.deletedAt).toEqual(expect.any(String));
    expect(seen.find((u) => u._id === admin.user._id)).toMatchObject({ user_role: 'admin', deletedAt: null });
  });

  test('a limit over 1000 is refused', async () => {
    expect((await internal(t.app, 'GET', '/internal/users/export?limit=1001')).statusCode).toBe(400);
  });
});
