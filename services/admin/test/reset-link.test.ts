import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MESSAGES } from '../src/domain/messages';
import { PASSWORD, PUBLIC_URL, type Registered, register, registerAdmin, type Stack, startStack } from './support';

let s: Stack;
let admin: Registered;
beforeAll(async () => {
  s = await startStack();
  admin = await registerAdmin(s);
});
afterAll(() => s.close());

const GHOST = '00000000-0000-4000-8000-000000000000';
const NEW_PASSWORD = 'handed over passphrase';

const issue = (userId: string, token?: string) =>
  s.admin.inject({
    method: 'POST',
    url: `/api/auth/users/${userId}/reset-link`,
    headers: token ? { token } : {},
  });

describe('POST /api/auth/users/{id}/reset-link', () => {
  test('an admin gets a link to hand over; using it sets the password and ends the user’s sessions', async () => {
    const user = await register(s);
    const res = await issue(user.user._id, admin.token);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { message: string; link: string };
    expect(body.message).toBe(MESSAGES.resetLinkIssued);
    expect(body.link.startsWith(`${PUBLIC_URL}/reset-password?token=`)).toBe(true);

    const token = new URL(body.link).searchParams.get('token');
    const used = await s.auth.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: NEW_PASSWORD },
    });
    expect(used.statusCode).toBe(200);
    expect((await s.auth.inject({ url: '/api/auth/verify', headers: { token: user.token } })).statusCode).toBe(401);
    const login = (password: string) =>
      s.auth.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
    expect((await login(PASSWORD)).statusCode).toBe(401);
    expect((await login(NEW_PASSWORD)).statusCode).toBe(200);
  });

  test('only admins may issue one', async () => {
    const user = await register(s);
    const other = await register(s);
    const self = await issue(user.user._id, user.token);
    expect(self.statusCode).toBe(403);
    expect((await issue(other.user._id, user.token)).statusCode).toBe(403);
    expect((await issue(user.user._id)).statusCode).toBe(401);
  });

  test('an unknown user is named, a malformed id refused', async () => {
    const missing = await issue(GHOST, admin.token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found' });
    expect((await issue('not-an-id', admin.token)).statusCode).toBe(400);
  });
});
