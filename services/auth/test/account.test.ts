import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { outboxEvents, PASSWORD, register, startTestAuth, type TestAuth } from './support';

let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

const patch = (token: string, payload: object) =>
  t.app.inject({ method: 'PATCH', url: '/api/auth/account', headers: { token }, payload });
const verify = (token: string) => t.app.inject({ url: '/api/auth/verify', headers: { token } });
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

describe('PATCH /api/auth/account', () => {
  test('changing only the name keeps every session and announces the new profile, with the same token version', async () => {
    const r = await register(t.app, { name: 'Old Name' });
    const before = (await outboxEvents(t.db)).length;
    const res = await patch(r.token, { name: '  New <b>Name</b>  ', currentPassword: '', newPassword: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Account updated successfully', user: { name: 'New <b>Name</b>' } });
    expect((await verify(r.token)).json().user.name).toBe('New <b>Name</b>');
    const after = await outboxEvents(t.db);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)?.value).toMatchObject({ id: r.user._id, name: 'New <b>Name</b>', tokenVersion: 1 });
    // Saving the same name again changes and announces nothing.
    await patch(r.token, { name: 'New <b>Name</b>', currentPassword: '', newPassword: '' });
    expect(await outboxEvents(t.db)).toHaveLength(before + 1);
  });

  test('a new password with the right current one: old sessions end, the fresh token works, the change is announced', async () => {
    const r = await register(t.app);
    const other = (await login(r.email, PASSWORD)).json().token as string;
    const res = await patch(r.token, { name: 'Same', currentPassword: PASSWORD, newPassword: 'brand-new-secret' });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().token as string;
    expect((await verify(fresh)).statusCode).toBe(200);
    for (const old of [r.token, other]) {
      const v = await verify(old);
      expect(v.statusCode).toBe(401);
      expect(v.json().code).toBe('AUTH_TOKEN_REVOKED');
    }
    expect((await login(r.email, PASSWORD)).json().code).toBe('AUTH_INVALID_CREDENTIALS');
    expect((await login(r.email, 'brand-new-secret')).statusCode).toBe(200);
    // After the one that announced the registration.
    const events = (await outboxEvents(t.db)).filter((e) => e.key === r.user._id).slice(1);
    expect(events).toMatchObject([
      {
        topic: 'user.changed',
        key: r.user._id,
        value: { id: r.user._id, role: 'user', activation: 'allow', tokenVersion: 2 },
      },
    ]);
  });

  test('the name is required and at most 200 characters', async () => {
    const r = await register(t.app, { name: 'Keep' });
    const empty = await patch(r.token, { name: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'Name is required' });
    const long = await patch(r.token, { name: 'n'.repeat(201) });
    expect(long.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'Name must be at most 200 characters' });
    expect((await verify(r.token)).json().user.name).toBe('Keep');
  });

  test('a new password needs the current one', async () => {
    const r = await register(t.app);
    const res = await patch(r.token, { name: 'X', newPassword: 'another-secret' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Current password is required to set a new password',
    });
  });

  test('a wrong current password changes nothing, not even the name', async () => {
    const r = await register(t.app, { name: 'Unchanged' });
    const res = await patch(r.token, {
      name: 'Changed',
      currentPassword: 'not-the-one',
      newPassword: 'another-secret',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'AUTH_WRONG_PASSWORD', message: 'Current password is incorrect' });
    const v = await verify(r.token);
    expect(v.statusCode).toBe(200);
    expect(v.json().user.name).toBe('Unchanged');
    expect((await login(r.email, PASSWORD)).statusCode).toBe(200);
  });

  test('the new password follows the registration rules', async () => {
    const r = await register(t.app);
    const short = await patch(r.token, { name: 'X', currentPassword: PASSWORD, newPassword: 'short' });
    expect(short.json()).toEqual({ code: 'AUTH_WEAK_PASSWORD', message: 'Password must be at least 8 characters' });
    const long = await patch(r.token, { name: 'X', currentPassword: PASSWORD, newPassword: 'p'.repeat(201) });
    expect(long.json()).toEqual({ code: 'AUTH_WEAK_PASSWORD', message: 'Password must be at most 200 characters' });
    expect((await verify(r.token)).statusCode).toBe(200);
  });

  test('the email cannot be changed here', async () => {
    const r = await register(t.app);
    const res = await patch(r.token, { name: 'X', email: 'hijack@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(r.email);
  });

  test('needs a valid token', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/api/auth/account', payload: { name: 'X' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('AUTH_MISSING_TOKEN');
  });
});
