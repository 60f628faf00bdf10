import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADDRESS_FORM,
  internal,
  makeAdmin,
  outboxEvents,
  type Registered,
  register,
  startTestAuth,
  type TestAuth,
} from './support';

let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
const verify = (token: string) => t.app.inject({ url: '/api/auth/verify', headers: { token } });
/** An effect made as the user: an address saved in their book. */
const saveAddress = (userId: string, token: string, addressId: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/auth/save-address/${userId}`,
    headers: { token },
    payload: { ...ADDRESS_FORM, address_id: addressId },
  });
const endLoginAs = (token?: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login-as/end', headers: token ? { token } : {} });

async function loginAs(admin: Registered, user: Registered): Promise<string> {
  const res = await internal(t.app, 'POST', `/internal/users/${user.user._id}/login-as-token`, {
    adminId: admin.user._id,
  });
  if (res.statusCode !== 200) throw new Error(`login-as failed: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

/** What a request made with `token` answers, as `status code`. */
async function outcome(token: string): Promise<string> {
  const res = await verify(token);
  return res.statusCode === 200 ? '200' : `${res.statusCode} ${res.json().code}`;
}

describe('login-as tokens', () => {
  test("live an hour by default and carry the admin's impersonation version", async () => {
    const [admin, user] = [await makeAdmin(t.app), await register(t.app)];
    const claims = claimsOf(await loginAs(admin, user));
    const state = (await internal(t.app, 'GET', `/internal/users/${admin.user._id}/token-state`)).json();
    expect(state.impersonationVersion).toEqual(expect.any(Number));
    expect(claims).toMatchObject({
      sub: user.user._id,
      role: 'user',
      imp: admin.user._id,
      iv: state.impersonationVersion,
    });
    expect(claims.exp - claims.iat).toBe(3600);
    // The admin's own session keeps the configured lifetime.
    const own = claimsOf(admin.token);
    expect(own.exp - own.iat).toBe(7 * 24 * 3600);
  });

  test('live as long as LOGIN_AS_TTL says', async () => {
    const other = await startTestAuth({ loginAsTtl: '15m' });
    try {
      const [admin, user] = [await makeAdmin(other.app), await register(other.app)];
      const res = await internal(other.app, 'POST', `/internal/users/${user.user._id}/login-as-token`, {
        adminId: admin.user._id,
      });
      const claims = claimsOf(res.json().token);
      expect(claims.exp - claims.iat).toBe(15 * 60);
    } finally {
      await other.close();
    }
  });

  test('are refused as soon as their admin is demoted, blocked or deleted', async () => {
    for (const [change, apply] of [
      ['demoted', (id: string) => internal(t.app, 'POST', `/internal/users/${id}/role`, { user_role: 'user' })],
      ['blocked', (id: string) => internal(t.app, 'POST', `/internal/users/${id}/activation`, { activation: 'block' })],
      ['deleted', (id: string) => internal(t.app, 'DELETE', `/internal/users/${id}`)],
    ] as const) {
      const [admin, user] = [await makeAdmin(t.app), await register(t.app)];
      const token = await loginAs(admin, user);
      expect(await outcome(token), change).toBe('200');
      expect((await saveAddress(user.user._id, token, `Before ${change}`)).statusCode, change).toBe(201);

      expect((await apply(admin.user._id)).statusCode, change).toBeLessThan(300);
      expect(await outcome(token), change).toBe('401 AUTH_TOKEN_REVOKED');
      expect((await saveAddress(user.user._id, token, `After ${change}`)).statusCode, change).toBe(401);
      // The user's own session is not the admin's business.
      expect(await outcome(user.token), change).toBe('200');
    }
  });

  test('stay refused when a demoted admin is made admin again', async () => {
    const [admin, user] = [await makeAdmin(t.app), await register(t.app)];
    const token = await loginAs(admin, user);
    await internal(t.app, 'POST', `/internal/users/${admin.user._id}/role`, { user_role: 'user' });
    await internal(t.app, 'POST', `/internal/users/${admin.user._id}/role`, { user_role: 'admin' });
    expect(await outcome(token)).toBe('401 AUTH_TOKEN_REVOKED');
  });

  test('are not issued for an admin id that is not an active admin', async () => {
    const [notAdmin, user] = [await register(t.app), await register(t.app)];
    const res = await internal(t.app, 'POST', `/internal/users/${user.user._id}/login-as-token`, {
      adminId: notAdmin.user._id,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'You do not have permission to do this.' });
  });
});

describe('POST /api/auth/login-as/end', () => {
  test('with the login-as token: that token, and every other of the admin, stop working; nothing else does', async () => {
    const [admin, otherAdmin] = [await makeAdmin(t.app), await makeAdmin(t.app)];
    const [user, second] = [await register(t.app), await register(t.app)];
    const token = await loginAs(admin, user);
    const elsewhere = await loginAs(admin, second);
    const othersVisit = await loginAs(otherAdmin, user);

    const res = await endLoginAs(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'You are back in your own account.' });

    expect(await outcome(token)).toBe('401 AUTH_TOKEN_REVOKED');
    expect(await outcome(elsewhere)).toBe('401 AUTH_TOKEN_REVOKED');
    expect((await saveAddress(user.user._id, token, 'After the end')).statusCode).toBe(401);
    expect(await outcome(admin.token)).toBe('200');
    expect(await outcome(othersVisit)).toBe('200');
    expect(await outcome(user.token)).toBe('200');
    // Every service hears of it: user.changed for the admin, with the version their tokens no longer match.
    const events = (await outboxEvents(t.db)).filter((e) => e.key === admin.user._id);
    expect(events.at(-1)?.value).toMatchObject({
      id: admin.user._id,
      role: 'admin',
      activation: 'allow',
      impersonationVersion: claimsOf(token).iv + 1,
    });
    // A new visit works again.
    expect(await outcome(await loginAs(admin, user))).toBe('200');
  });

  test("with the admin's own token: the admin's visits end, the admin stays signed in", async () => {
    const [admin, user] = [await makeAdmin(t.app), await register(t.app)];
    const token = await loginAs(admin, user);
    expect((await endLoginAs(admin.token)).statusCode).toBe(200);
    expect(await outcome(token)).toBe('401 AUTH_TOKEN_REVOKED');
    expect(await outcome(admin.token)).toBe('200');
  });

  test("a user's own token has no visit to end; no token is refused", async () => {
    const user = await register(t.app);
    const own = await endLoginAs(user.token);
    expect(own.statusCode).toBe(403);
    expect(own.json()).toEqual({ code: 'FORBIDDEN', message: 'You are not signed in as another user.' });
    expect(await outcome(user.token)).toBe('200');
    expect((await endLoginAs()).statusCode).toBe(401);
  });
});
