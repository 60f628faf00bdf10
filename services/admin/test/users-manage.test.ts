import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PASSWORD, type Registered, register, registerAdmin, type Stack, startStack, verify } from './support';

let s: Stack;
let admin: Registered;
beforeAll(async () => {
  s = await startStack();
  admin = await registerAdmin(s);
});
afterAll(() => s.close());

const GHOST = '00000000-0000-4000-8000-000000000000';

function call(method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) {
  return s.admin.inject({ method, url, headers: token ? { token } : {}, ...(payload ? { payload } : {}) });
}
const login = (email: string) =>
  s.auth.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: PASSWORD } });

describe('POST /api/auth/users/role/{id}', () => {
  test("an admin changes a user's role: the reply has the user as they now are, and their old token stops", async () => {
    const user = await register(s, 'Future Friend');
    const res = await call('POST', `/api/auth/users/role/${user.user._id}`, admin.token, { user_role: 'friend' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'User role updated successfully',
      user: { ...user.user, user_role: 'friend' },
    });
    const old = await s.auth.inject({ url: '/api/auth/verify', headers: { token: user.token } });
    expect(old.statusCode).toBe(401);
    expect((await login(user.email)).json().user.user_role).toBe('friend');
  });

  test('an admin cannot remove their own admin role; keeping it is fine', async () => {
    const res = await call('POST', `/api/auth/users/role/${admin.user._id}`, admin.token, { user_role: 'user' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'ADMIN_SELF_CHANGE', message: 'You cannot remove your own admin role' });
    expect((await verify(s, admin.token)).user_role).toBe('admin');
    const same = await call('POST', `/api/auth/users/role/${admin.user._id}`, admin.token, { user_role: 'admin' });
    expect(same.statusCode).toBe(200);
  });

  test('an unknown role, an unknown user and a malformed id are refused', async () => {
    const user = await register(s);
    const bad = await call('POST', `/api/auth/users/role/${user.user._id}`, admin.token, { user_role: 'root' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_FAILED');
    const ghost = await call('POST', `/api/auth/users/role/${GHOST}`, admin.token, { user_role: 'friend' });
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found' });
    const malformed = await call('POST', '/api/auth/users/role/nope', admin.token, { user_role: 'friend' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'id is not a valid id' });
  });
});

describe('POST /api/auth/users/activation/{id}', () => {
  test("blocking ends the user's sessions at once and they cannot sign in; allowing lets them back", async () => {
    const user = await register(s, 'Soon Blocked');
    const res = await call('POST', `/api/auth/users/activation/${user.user._id}`, admin.token, { activation: 'block' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'User access updated successfully',
      user: { ...user.user, activation: 'block' },
    });
    expect((await s.auth.inject({ url: '/api/auth/verify', headers: { token: user.token } })).statusCode).toBe(401);
    expect((await login(user.email)).statusCode).toBe(403);
    const allow = await call('POST', `/api/auth/users/activation/${user.user._id}`, admin.token, {
      activation: 'allow',
    });
    expect(allow.json().user.activation).toBe('allow');
    expect((await login(user.email)).statusCode).toBe(200);
  });

  test('an admin cannot block themself', async () => {
    const res = await call('POST', `/api/auth/users/activation/${admin.user._id}`, admin.token, {
      activation: 'block',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'ADMIN_SELF_CHANGE', message: 'You cannot block your own account' });
    expect((await verify(s, admin.token)).activation).toBe('allow');
  });

  test('an unknown activation, an unknown user and a malformed id are refused', async () => {
    const user = await register(s);
    const bad = await call('POST', `/api/auth/users/activation/${user.user._id}`, admin.token, { activation: 'ban' });
    expect(bad.statusCode).toBe(400);
    const ghost = await call('POST', `/api/auth/users/activation/${GHOST}`, admin.token, { activation: 'block' });
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json().code).toBe('USER_NOT_FOUND');
    const malformed = await call('POST', '/api/auth/users/activation/nope', admin.token, { activation: 'block' });
    expect(malformed.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'id is not a valid id' });
  });
});

describe('DELETE /api/auth/users/{id}', () => {
  test('the user can no longer sign in, their token stops, and their email can register again', async () => {
    const user = await register(s, 'Leaving Soon');
    const res = await call('DELETE', `/api/auth/users/${user.user._id}`, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'User deleted successfully' });
    expect((await s.auth.inject({ url: '/api/auth/verify', headers: { token: user.token } })).statusCode).toBe(401);
    expect((await login(user.email)).json().code).toBe('AUTH_INVALID_CREDENTIALS');
    const again = await s.auth.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Returning', email: user.email, password: PASSWORD, confirmPassword: PASSWORD },
    });
    expect(again.statusCode).toBe(201);
    const second = await call('DELETE', `/api/auth/users/${user.user._id}`, admin.token);
    expect(second.statusCode).toBe(404);
  });

  test("the user's ledger is kept for the books", async () => {
    const user = await register(s);
    await call('POST', `/api/auth/users/details/${user.user._id}`, admin.token, { balance: 12 });
    await call('DELETE', `/api/auth/users/${user.user._id}`, admin.token);
    const ledger = await s.paymentsClient.request<{ entries: unknown[] }>('GET', `/internal/ledger/${user.user._id}`);
    expect(ledger.entries).toHaveLength(1);
  });

  test('an admin cannot delete themself; unknown and malformed ids are refused', async () => {
    const self = await call('DELETE', `/api/auth/users/${admin.user._id}`, admin.token);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ code: 'ADMIN_SELF_CHANGE', message: 'You cannot delete your own account' });
    expect((await verify(s, admin.token))._id).toBe(admin.user._id);
    expect((await call('DELETE', `/api/auth/users/${GHOST}`, admin.token)).statusCode).toBe(404);
    const malformed = await call('DELETE', '/api/auth/users/nope', admin.token);
    expect(malformed.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'id is not a valid id' });
  });
});

describe('POST /api/auth/login-as-user/{id}', () => {
  test("gives a token for the user naming the admin, with the user and 'Logged in as {name}'", async () => {
    const user = await register(s, 'Carla Customer');
    await call('POST', `/api/auth/users/details/${user.user._id}`, admin.token, { balance: 30 });
    const res = await call('POST', `/api/auth/login-as-user/${user.user._id}`, admin.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Logged in as Carla Customer');
    expect(body.user).toEqual({ ...user.user, balance: 30 });
    const claims = JSON.parse(Buffer.from(body.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: user.user._id, imp: admin.user._id });
    // The token works as the user's own.
    expect((await verify(s, body.token))._id).toBe(user.user._id);
  });

  test('a blocked user, an admin, a deleted user and an unknown id are refused with clear messages', async () => {
    const blocked = await register(s);
    await call('POST', `/api/auth/users/activation/${blocked.user._id}`, admin.token, { activation: 'block' });
    const refused = await call('POST', `/api/auth/login-as-user/${blocked.user._id}`, admin.token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      code: 'LOGIN_AS_NOT_ALLOWED',
      message: 'This user is blocked. Allow their access before logging in as them.',
    });
    const otherAdmin = await register(s);
    await call('POST', `/api/auth/users/role/${otherAdmin.user._id}`, admin.token, { user_role: 'admin' });
    const asAdmin = await call('POST', `/api/auth/login-as-user/${otherAdmin.user._id}`, admin.token);
    expect(asAdmin.statusCode).toBe(400);
    expect(asAdmin.json()).toEqual({ code: 'LOGIN_AS_NOT_ALLOWED', message: 'You cannot log in as another admin' });
    const asSelf = await call('POST', `/api/auth/login-as-user/${admin.user._id}`, admin.token);
    expect(asSelf.statusCode).toBe(400);
    expect(asSelf.json()).toEqual({ code: 'ADMIN_SELF_CHANGE', message: 'You cannot log in as yourself' });
    const gone = await register(s);
    await call('DELETE', `/api/auth/users/${gone.user._id}`, admin.token);
    expect((await call('POST', `/api/auth/login-as-user/${gone.user._id}`, admin.token)).json()).toEqual({
      code: 'USER_NOT_FOUND',
      message: 'User not found',
    });
    expect((await call('POST', `/api/auth/login-as-user/${GHOST}`, admin.token)).statusCode).toBe(404);
    expect((await call('POST', '/api/auth/login-as-user/nope', admin.token)).statusCode).toBe(400);
  });

  test('a login-as token cannot be used to log in as someone else', async () => {
    const user = await register(s);
    const other = await register(s);
    const as = (await call('POST', `/api/auth/login-as-user/${user.user._id}`, admin.token)).json().token;
    const res = await call('POST', `/api/auth/login-as-user/${other.user._id}`, as);
    expect(res.statusCode).toBe(403);
  });
});

describe('every route is for admins only', () => {
  const routes = (id: string) =>
    [
      ['GET', '/api/auth/users', undefined],
      ['GET', '/api/auth/api/balance', undefined],
      ['GET', '/api/admin/audit', undefined],
      ['POST', `/api/auth/users/role/${id}`, { user_role: 'admin' }],
      ['POST', `/api/auth/users/activation/${id}`, { activation: 'block' }],
      ['DELETE', `/api/auth/users/${id}`, undefined],
      ['POST', `/api/auth/login-as-user/${id}`, undefined],
    ] as const;

  test('a signed-in user who is not an admin gets 403 and nothing changes', async () => {
    const user = await register(s);
    const victim = await register(s, 'Victim');
    for (const [method, url, payload] of routes(victim.user._id)) {
      const res = await call(method, url, user.token, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    expect(await verify(s, victim.token)).toMatchObject({ user_role: 'user', activation: 'allow' });
  });

  test('without a token the answer is 401', async () => {
    const victim = await register(s);
    for (const [method, url, payload] of routes(victim.user._id)) {
      const res = await call(method, url, undefined, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
