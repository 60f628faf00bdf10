import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ledgerOf, type Registered, register, registerAdmin, type Stack, startStack, verify } from './support';

let s: Stack;
let admin: Registered;
beforeAll(async () => {
  s = await startStack();
  admin = await registerAdmin(s);
});
afterAll(() => s.close());

const GHOST = '00000000-0000-4000-8000-000000000000';

function details(userId: string, payload: object, token = admin.token, headers: Record<string, string> = {}) {
  return s.admin.inject({
    method: 'POST',
    url: `/api/auth/users/details/${userId}`,
    headers: { token, ...headers },
    payload,
  });
}

describe('POST /api/auth/users/details/{id}: balance', () => {
  test("an admin sets a user's balance: the ledger records the adjustment with the admin's id and the user sees it", async () => {
    const user = await register(s);
    const res = await details(user.user._id, { balance: '25.50' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'User details updated successfully',
      user: { _id: user.user._id, balance: 25.5, referralCode: user.user.referralCode },
    });
    const [entry] = await ledgerOf(s, user.user._id);
    expect(entry).toMatchObject({
      kind: 'admin_adjustment',
      amountCents: 2550,
      balanceAfterCents: 2550,
      adminId: admin.user._id,
    });
    expect((await verify(s, user.token)).balance).toBe(25.5);

    const lower = await details(user.user._id, { balance: 10 });
    expect(lower.json().user.balance).toBe(10);
    expect((await ledgerOf(s, user.user._id)).map((e) => e.amountCents)).toEqual([-1550, 2550]);
    expect((await verify(s, user.token)).balance).toBe(10);
  });

  test('the user table shows the new balance as soon as the save is answered, before account.changed arrives', async () => {
    const user = await register(s);
    const listed = async () =>
      (
        await s.admin.inject({
          url: `/api/auth/users?search=${encodeURIComponent(user.user.email)}`,
          headers: { token: admin.token },
        })
      ).json().users as { _id: string; balance: number }[];
    await expect.poll(async () => (await listed()).length, { timeout: 10_000 }).toBe(1);
    expect((await details(user.user._id, { balance: '12.34' })).statusCode).toBe(200);
    // Read at once, as the admin's table is: no wait for the event that follows.
    expect((await listed())[0]?.balance).toBe(12.34);
  });

  test('setting the balance it already has records nothing', async () => {
    const user = await register(s);
    await details(user.user._id, { balance: 5 });
    const res = await details(user.user._id, { balance: '5.00' });
    expect(res.json().user.balance).toBe(5);
    expect(await ledgerOf(s, user.user._id)).toHaveLength(1);
  });

  test('a retry with the same Idempotency-Key moves no money twice', async () => {
    const user = await register(s);
    const headers = { 'idempotency-key': 'save-42' };
    const first = await details(user.user._id, { balance: 40 }, admin.token, headers);
    const again = await details(user.user._id, { balance: 40 }, admin.token, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(await ledgerOf(s, user.user._id)).toHaveLength(1);
  });

  test.each([
    [-1, 'Balance must be a number of dollars, 0 or more, with at most 2 decimals'],
    ['-1', 'Balance must be a number of dollars, 0 or more, with at most 2 decimals'],
    [12.345, 'Balance must be a number of dollars, 0 or more, with at most 2 decimals'],
    ['12.345', 'Balance must be a number of dollars, 0 or more, with at most 2 decimals'],
    ['abc', 'Balance must be a number of dollars, 0 or more, with at most 2 decimals'],
    ['', 'Balance must be a number of dollars, 0 or more, with at most 2 decimals'],
    ['1e3', 'Balance must be a number of dollars, 0 or more, with at most 2 decimals'],
    [1_000_000.01, 'Balance must be at most $1,000,000.00'],
    ['99999999999999999999', 'Balance must be at most $1,000,000.00'],
  ])('balance %j is refused with a clear 400 and nothing is written', async (balance, message) => {
    const user = await register(s);
    const res = await details(user.user._id, { balance });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message });
    expect(await ledgerOf(s, user.user._id)).toEqual([]);
  });

  test('a balance that is neither a number nor text is refused', async () => {
    const user = await register(s);
    const res = await details(user.user._id, { balance: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('balance');
  });

  test('the largest balance allowed is one million dollars', async () => {
    const user = await register(s);
    expect((await details(user.user._id, { balance: 1_000_000 })).json().user.balance).toBe(1_000_000);
  });
});

describe('POST /api/auth/users/details/{id}: who and what', () => {
  test('a user who is not an admin is forbidden, and nothing changes', async () => {
    const user = await register(s);
    const other = await register(s);
    for (const target of [user.user._id, other.user._id]) {
      const res = await details(target, { balance: 1000 }, user.token);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
      expect(await ledgerOf(s, target)).toEqual([]);
    }
  });

  test('without a token the answer is 401', async () => {
    const user = await register(s);
    const res = await s.admin.inject({
      method: 'POST',
      url: `/api/auth/users/details/${user.user._id}`,
      payload: { balance: 1 },
    });
    expect(res.statusCode).toBe(401);
  });

  test('an unknown user is a 404 and no account is opened for them; a malformed id is refused naming it', async () => {
    const res = await details(GHOST, { balance: 10 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found' });
    expect(await ledgerOf(s, GHOST)).toEqual([]);
    const malformed = await details('nope', { balance: 10 });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'id is not a valid id' });
  });

  test.each([{}, { balance: null, referralCode: null }])('%j is "Nothing to update"', async (payload) => {
    const user = await register(s);
    const res = await details(user.user._id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'Nothing to update' });
  });
});

describe('POST /api/auth/users/details/{id}: referral code', () => {
  test("an admin changes a user's referral code; the balance is reported as it is", async () => {
    const user = await register(s);
    await details(user.user._id, { balance: 3 });
    const res = await details(user.user._id, { referralCode: '  spring25 ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'User details updated successfully',
      user: { _id: user.user._id, balance: 3, referralCode: 'SPRING25' },
    });
    expect((await verify(s, user.token)).referralCode).toBe('SPRING25');
  });

  test('balance and referral code change together', async () => {
    const user = await register(s);
    const res = await details(user.user._id, { balance: 7.5, referralCode: 'BOTH7' });
    expect(res.json().user).toEqual({ _id: user.user._id, balance: 7.5, referralCode: 'BOTH7' });
  });

  test("a code already in use is refused with auth's message, and the balance is left alone", async () => {
    const holder = await register(s);
    const user = await register(s);
    const res = await details(user.user._id, { balance: 99, referralCode: holder.user.referralCode.toLowerCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'REFERRAL_CODE_TAKEN', message: 'This referral code is already in use' });
    expect(await ledgerOf(s, user.user._id)).toEqual([]);
    expect((await verify(s, user.token)).referralCode).toBe(user.user.referralCode);
  });

  test('a malformed code is refused before any money moves', async () => {
    const user = await register(s);
    const res = await details(user.user._id, { balance: 99, referralCode: 'not ok!' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Referral code must be 4 to 32 letters or digits');
    expect(await ledgerOf(s, user.user._id)).toEqual([]);
  });

  test('a code shorter than 4 characters is refused, naming the field, and the old code stays', async () => {
    const user = await register(s);
    for (const code of ['7', 'AB', 'x1z']) {
      const res = await details(user.user._id, { referralCode: code });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Referral code must be 4 to 32 letters or digits',
      });
    }
    expect((await verify(s, user.token)).referralCode).toBe(user.user.referralCode);
  });

  test('a blank code is "Referral code is required"', async () => {
    const user = await register(s);
    const res = await details(user.user._id, { referralCode: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Referral code is required');
  });
});
