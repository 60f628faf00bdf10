import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countUsers, PASSWORD, register, startTestAuth, type TestAuth, uniqueEmail } from './support';

let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

const post = (payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    ...(typeof payload === 'string'
      ? { payload, headers: { 'content-type': 'application/json' } }
      : { payload: payload as object }),
  });
const form = (over: Record<string, unknown> = {}) => ({
  name: 'Grace Hopper',
  email: uniqueEmail(),
  password: PASSWORD,
  confirmPassword: PASSWORD,
  ...over,
});

describe('POST /api/auth/register', () => {
  test('creates a user and answers 201 with a working token and the session user', async () => {
    const email = uniqueEmail('grace');
    const res = await post(form({ email: `  ${email.toUpperCase()} ` }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, message: 'Registration successful' });
    expect(body.user).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Grace Hopper',
      email,
      avatar: '',
      user_role: 'user',
      activation: 'allow',
      referralCode: expect.stringMatching(/^[A-Z2-9]{8}$/),
      referredBy: null,
      balance: 0,
      totalDeposit: 0,
      totalSpent: 0,
      createdAt: expect.any(String),
    });
    expect(new Date(body.user.createdAt).toISOString()).toBe(body.user.createdAt);

    const verify = await t.app.inject({ url: '/api/auth/verify', headers: { token: body.token } });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().user._id).toBe(body.user._id);
  });

  test('stores the password as an argon2id hash, never as given', async () => {
    const r = await register(t.app);
    const row = await t.db('users').where({ id: r.user._id }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(PASSWORD);
    expect(row.token_version).toBe(1);
  });

  test('the reply never carries the password hash or token version', async () => {
    const res = await post(form());
    expect(res.body).not.toContain('argon2');
    expect(res.body).not.toMatch(/password|token_version|tokenVersion/i);
  });

  test.each([
    ['name', { name: '  ' }],
    ['email', { email: '' }],
    ['password', { password: '', confirmPassword: '' }],
    ['confirmPassword', { confirmPassword: '   ' }],
  ])('an empty %s is refused with "Please fill in all fields"', async (_f, over) => {
    const res = await post(form(over));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'AUTH_FIELDS_MISSING', message: 'Please fill in all fields' });
  });

  test('mismatched passwords are refused', async () => {
    const res = await post(form({ confirmPassword: `${PASSWORD}!` }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'AUTH_PASSWORD_MISMATCH', message: "Passwords don't match" });
  });

  test('a name over 200 characters is refused and nothing is stored', async () => {
    const before = await countUsers(t.db);
    const res = await post(form({ name: 'x'.repeat(201) }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'Name must be at most 200 characters' });
    expect(await countUsers(t.db)).toBe(before);
  });

  test('an email over 254 characters or not an email is refused', async () => {
    const long = `${'a'.repeat(64)}@${'d'.repeat(186)}.com`;
    for (const email of [long, 'not-an-email', 'a@b']) {
      const res = await post(form({ email }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'AUTH_INVALID_EMAIL', message: 'Please enter a valid email address' });
    }
  });

  test('passwords under 8 or over 200 characters are refused', async () => {
    const short = await post(form({ password: '1234567', confirmPassword: '1234567' }));
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ code: 'AUTH_WEAK_PASSWORD', message: 'Password must be at least 8 characters' });
    const long = 'p'.repeat(201);
    const tooLong = await post(form({ password: long, confirmPassword: long }));
    expect(tooLong.json()).toEqual({ code: 'AUTH_WEAK_PASSWORD', message: 'Password must be at most 200 characters' });
  });

  test('an email already taken is refused whatever its case or spacing', async () => {
    const first = await register(t.app);
    const res = await post(form({ email: ` ${first.email.toUpperCase()}  ` }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'AUTH_EMAIL_TAKEN', message: 'An account with this email already exists' });
    expect(await t.db('users').where({ email: first.email }).count<{ count: string }[]>('* as count')).toEqual([
      { count: '1' },
    ]);
  });

  test('non-ASCII emails are lowercased too, and sign in whatever their case', async () => {
    const r = await register(t.app, { email: 'ÀÉÎ.Ünï@Ünïcödé.com' });
    expect(r.user.email).toBe('àéî.ünï@ünïcödé.com');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'àÉî.ÜNÏ@üNÏCÖDÉ.COM', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });

  test('20 simultaneous registrations with one email: exactly one succeeds, the rest are told it is taken', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(Array.from({ length: 20 }, () => post(form({ email }))));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json()).toEqual({ code: 'AUTH_EMAIL_TAKEN', message: 'An account with this email already exists' });
    }
    expect(await t.db('users').where({ email }).count<{ count: string }[]>('* as count')).toEqual([{ count: '1' }]);
  });

  test('names with SQL metacharacters and HTML are stored exactly as given (trimmed)', async () => {
    const names = [
      "Robert'); DROP TABLE users;--",
      '<script>alert("x")</script>',
      `O'Brien "Bob" \\ % _ ; -- /* */`,
      'Zoë 山田 🚚',
    ];
    for (const name of names) {
      const r = await register(t.app, { name: `  ${name} ` });
      expect(r.user.name).toBe(name);
      const row = await t.db('users').where({ id: r.user._id }).first('name');
      expect(row.name).toBe(name);
    }
    expect(await t.db.schema.hasTable('users')).toBe(true);
  });

  test('a referral code, in any case, links the new user to its owner', async () => {
    const friend = await register(t.app);
    const invited = await register(t.app, { referralCode: ` ${friend.user.referralCode.toLowerCase()} ` });
    expect(invited.user.referredBy).toBe(friend.user._id);
  });

  test('an unknown referral code is refused and no user is created', async () => {
    const before = await countUsers(t.db);
    const email = uniqueEmail('ref');
    const res = await post(form({ email, referralCode: 'NOSUCH99' }));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'REFERRAL_INVALID_CODE', message: 'Invalid referral code' });
    expect(await countUsers(t.db)).toBe(before);
    expect(await t.db('users').where({ email }).first()).toBeUndefined();
  });

  test('a null or blank referral code means none', async () => {
    expect((await post(form({ referralCode: null }))).statusCode).toBe(201);
    expect((await post(form({ referralCode: '  ' }))).statusCode).toBe(201);
  });

  test('every user gets a distinct referral code', async () => {
    const codes: string[] = (await t.db('users').select('referral_code')).map(
      (r: { referral_code: string }) => r.referral_code,
    );
    expect(codes.length).toBeGreaterThan(10);
    expect(new Set(codes.map((c) => c.toUpperCase())).size).toBe(codes.length);
  });
});

describe('bad input', () => {
  test('malformed JSON is a 400 naming the problem', async () => {
    const res = await post('{"name": "x",');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'BAD_JSON', message: 'The request body is not valid JSON' });
  });

  test('a missing field is a 400 naming it', async () => {
    const { confirmPassword: _omit, ...rest } = form();
    const res = await post(rest);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'confirmPassword is required' });
  });

  test('a field of the wrong type is a 400 naming it', async () => {
    const res = await post(form({ name: 42 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().message).toContain('name');
  });

  test('an empty body is refused', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });
});
