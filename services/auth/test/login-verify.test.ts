import { sign as cryptoSign } from 'node:crypto';
import { authPlugin, createServiceApp } from '@flatship/kit';
import { generateTokenKeys } from '@flatship/kit/testing';
import { LIMITS } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createArgon2Hasher } from '../src/adapters/argon2-hasher';
import { createUsersRepo } from '../src/db/users-repo';
import { logIn } from '../src/domain/log-in';
import { internal, PASSWORD, register, startTestAuth, type TestAuth, testHasher, uniqueEmail } from './support';

let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

const login = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
const verify = (token: string) => t.app.inject({ url: '/api/auth/verify', headers: { token } });

/** Signs exactly the given claims with the given key, as a forger or an old release might. */
function signRaw(claims: object, privateKey: string): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const data = `${b64({ alg: 'EdDSA', typ: 'JWT' })}.${b64(claims)}`;
  return `${data}.${cryptoSign(null, Buffer.from(data), privateKey).toString('base64url')}`;
}

describe('POST /api/auth/login', () => {
  test('the right email (any case, spaces) and password give a token and the session user with money', async () => {
    const r = await register(t.app, { name: 'Lin' });
    t.money.set(r.user._id, { balance: 12.5, totalDeposit: 40, totalSpent: 27.5 });
    const res = await login({ email: `  ${r.email.toUpperCase()}`, password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({
      _id: r.user._id,
      name: 'Lin',
      balance: 12.5,
      totalDeposit: 40,
      totalSpent: 27.5,
    });
    expect(Object.keys(body).sort()).toEqual(['token', 'user']);
    expect((await verify(body.token)).statusCode).toBe(200);
  });

  test('a wrong password and an unknown email get the same answer', async () => {
    const r = await register(t.app);
    const wrong = await login({ email: r.email, password: `${PASSWORD}x` });
    const unknown = await login({ email: 'nobody@example.com', password: PASSWORD });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'AUTH_INVALID_CREDENTIALS', message: 'Invalid email or password' });
    }
  });

  test('an unknown email still costs a password verification, so timing does not reveal accounts', async () => {
    let spent = 0;
    const base = createArgon2Hasher({ memoryCost: 1024, timeCost: 1 });
    await expect(
      logIn(
        {
          users: createUsersRepo(t.db),
          hasher: {
            ...base,
            verifyNothing: async (pw) => {
              spent++;
              await base.verifyNothing(pw);
            },
          },
          signToken: () => 'x',
          money: t.money,
        },
        { email: 'ghost@example.com', password: PASSWORD },
      ),
    ).rejects.toMatchObject({ code: 'AUTH_INVALID_CREDENTIALS' });
    expect(spent).toBe(1);
  });

  test('a blocked user with the right password is told the account is blocked', async () => {
    const r = await register(t.app);
    await internal(t.app, 'POST', `/internal/users/${r.user._id}/activation`, { activation: 'block' });
    const res = await login({ email: r.email, password: PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'AUTH_ACCOUNT_BLOCKED',
      message: 'Your account has been blocked. Please contact support.',
    });
    // Without the password nobody learns the account is blocked.
    const guess = await login({ email: r.email, password: 'wrong-password' });
    expect(guess.json().code).toBe('AUTH_INVALID_CREDENTIALS');
  });

  test('empty fields are refused, a missing field is named, malformed JSON is a 400', async () => {
    const empty = await login({ email: ' ', password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ code: 'AUTH_FIELDS_MISSING', message: 'Please fill in all fields' });
    const missing = await login({ email: 'a@b.co' });
    expect(missing.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'password is required' });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('BAD_JSON');
  });

  test('an overlong password or email is simply wrong, not an error', async () => {
    const r = await register(t.app);
    const res = await login({ email: r.email, password: 'p'.repeat(100_000) });
    expect(res.json().code).toBe('AUTH_INVALID_CREDENTIALS');
    const longEmail = await login({ email: `${'a'.repeat(300)}@example.com`, password: PASSWORD });
    expect(longEmail.json().code).toBe('AUTH_INVALID_CREDENTIALS');
  });

  describe('timing', () => {
    // Counting the verifications the hasher is asked for shows what timing would, without measuring time.
    const verified: { known: boolean; length: number }[] = [];
    const base = testHasher();
    let counted: TestAuth;
    beforeAll(async () => {
      counted = await startTestAuth({
        hasher: {
          hash: base.hash,
          async verify(stored, password) {
            verified.push({ known: true, length: password.length });
            return base.verify(stored, password);
          },
          async verifyNothing(password) {
            verified.push({ known: false, length: password.length });
            await base.verifyNothing(password);
          },
        },
      });
    });
    afterAll(() => counted.close());

    const attempt = async (email: string, password: string) => {
      verified.length = 0;
      const res = await counted.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
      return { status: res.statusCode, body: res.json(), verifications: verified.length, hashed: [...verified] };
    };

    test.each([
      ['a wrong password', 'wrong-password'],
      ['a password one character over the limit', 'p'.repeat(LIMITS.passwordMax + 1)],
      ['a very long password', 'p'.repeat(100_000)],
      ['the right password followed by more', `${PASSWORD}${'x'.repeat(LIMITS.passwordMax)}`],
      ['a password of odd characters', ' \u202e😀 ünïcödé\u00a0'],
    ])('%s costs a known and an unknown email the same verification', async (_, password) => {
      const r = await register(counted.app);
      const known = await attempt(r.email, password);
      const unknown = await attempt(uniqueEmail('ghost'), password);
      expect(known.verifications).toBe(1);
      expect(unknown.verifications).toBe(1);
      expect(known.hashed[0]?.known).toBe(true);
      expect(unknown.hashed[0]?.known).toBe(false);
      // Hashing work is bounded whatever was sent.
      expect(known.hashed[0]!.length).toBeLessThanOrEqual(LIMITS.passwordMax);
      expect(unknown.hashed[0]!.length).toBe(known.hashed[0]!.length);
      for (const res of [known, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: 'AUTH_INVALID_CREDENTIALS', message: 'Invalid email or password' });
      }
    });

    test('a password the boundary refuses (NUL, a lone surrogate) gets the same answer for a known and an unknown email, before any lookup', async () => {
      const r = await register(counted.app);
      for (const password of ['\u0000secret', 'secret\ud800']) {
        const known = await attempt(r.email, password);
        const unknown = await attempt(uniqueEmail('ghost'), password);
        expect(known.status).toBe(400);
        expect(known.body).toEqual(unknown.body);
        expect([known.verifications, unknown.verifications]).toEqual([0, 0]);
      }
    });
  });

  test('SQL metacharacters in the email are just characters', async () => {
    const res = await login({ email: "' OR '1'='1' --@example.com", password: "' OR '1'='1" });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('AUTH_INVALID_CREDENTIALS');
  });
});

describe('GET /api/auth/verify', () => {
  test('a valid token gives the current user, money included', async () => {
    const r = await register(t.app, { name: 'Verified' });
    t.money.set(r.user._id, { balance: 3, totalDeposit: 3, totalSpent: 0 });
    const res = await verify(r.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: { ...r.user, balance: 3, totalDeposit: 3 } });
  });

  test('no token is a 401 asking to log in', async () => {
    const res = await t.app.inject({ url: '/api/auth/verify' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'AUTH_MISSING_TOKEN', message: 'Please log in to continue.' });
  });

  test('a token signed with another key is refused', async () => {
    const r = await register(t.app);
    const other = generateTokenKeys();
    const forged = signRaw({ sub: r.user._id, role: 'admin', ver: 1 }, other.privateKey);
    const res = await verify(forged);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      code: 'AUTH_INVALID_TOKEN',
      message: 'Your session is not valid. Please log in again.',
    });
  });

  test('garbage in the token header is refused', async () => {
    const res = await verify('not.a.jwt');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('AUTH_INVALID_TOKEN');
  });

  test('an expired token is refused as expired', async () => {
    const r = await register(t.app);
    const now = Math.floor(Date.now() / 1000);
    const expired = signRaw(
      { sub: r.user._id, role: 'user', ver: 1, iat: now - 120, exp: now - 60 },
      t.keys.privateKey,
    );
    const res = await verify(expired);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      code: 'AUTH_TOKEN_EXPIRED',
      message: 'Your session has expired. Please log in again.',
    });
  });

  test('tokens carry the configured lifetime and the user id, role and version', async () => {
    const short = await startTestAuth({ tokenTtl: '90s' });
    try {
      const r = await register(short.app);
      expect((await short.app.inject({ url: '/api/auth/verify', headers: { token: r.token } })).statusCode).toBe(200);
      const [, payload] = r.token.split('.');
      const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
      expect(claims.exp - claims.iat).toBe(90);
      expect(claims).toMatchObject({ sub: r.user._id, role: 'user', ver: 1 });
    } finally {
      await short.close();
    }
  });

  test('a token for a user that does not exist is refused', async () => {
    const ghost = signRaw({ sub: '00000000-0000-4000-8000-000000000000', role: 'user', ver: 1 }, t.keys.privateKey);
    const notUuid = signRaw({ sub: "1' or '1'='1", role: 'user', ver: 1 }, t.keys.privateKey);
    for (const token of [ghost, notUuid]) {
      const res = await verify(token);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('AUTH_TOKEN_REVOKED');
    }
  });

  test('the token of a blocked user is refused, and works again once allowed', async () => {
    const r = await register(t.app);
    await internal(t.app, 'POST', `/internal/users/${r.user._id}/activation`, { activation: 'block' });
    // Blocking revokes: the old token no longer matches the version.
    expect((await verify(r.token)).json().code).toBe('AUTH_TOKEN_REVOKED');
    // A token of the current version still meets the block.
    const current = signRaw({ sub: r.user._id, role: 'user', ver: 2 }, t.keys.privateKey);
    const blocked = await verify(current);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({
      code: 'AUTH_ACCOUNT_BLOCKED',
      message: 'Your account has been blocked. Please contact support.',
    });
    await internal(t.app, 'POST', `/internal/users/${r.user._id}/activation`, { activation: 'allow' });
    const again = await login({ email: r.email, password: PASSWORD });
    expect((await verify(again.json().token)).statusCode).toBe(200);
  });

  test('a token from before a role change is refused', async () => {
    const r = await register(t.app);
    await internal(t.app, 'POST', `/internal/users/${r.user._id}/role`, { user_role: 'friend' });
    const res = await verify(r.token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'AUTH_TOKEN_REVOKED', message: 'Your session has ended. Please log in again.' });
    const fresh = await login({ email: r.email, password: PASSWORD });
    expect(fresh.json().user.user_role).toBe('friend');
    expect((await verify(fresh.json().token)).statusCode).toBe(200);
  });

  test('a token of an app with a different key set cannot be used here', async () => {
    const foreign = createServiceApp({ name: 'x', logger: false });
    const other = generateTokenKeys();
    await foreign.register(authPlugin, {
      publicKey: other.publicKey,
      privateKey: other.privateKey,
      tokenState: { get: async () => null },
    });
    await foreign.ready();
    const r = await register(t.app);
    const forged = foreign.jwt.sign({ sub: r.user._id, role: 'admin', ver: 1 });
    await foreign.close();
    expect((await verify(forged)).json().code).toBe('AUTH_INVALID_TOKEN');
  });
});
