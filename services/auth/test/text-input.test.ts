import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADDRESS_FORM, countUsers, PASSWORD, register, startTestAuth, type TestAuth, uniqueEmail } from './support';

// Text PostgreSQL cannot store (NUL) and text that is not valid Unicode (a lone surrogate):
// refused with a 400 naming the field, and nothing written.
let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

const NOT_ALLOWED = (path: string) => ({
  code: 'VALIDATION_FAILED',
  message: `${path} contains a character that is not allowed`,
});

const BAD = [
  ['NUL', 'Grace\u0000Hopper'],
  ['a lone surrogate', 'Grace \ud800Hopper'],
] as const;

describe('register', () => {
  test.each(BAD)('%s in the name is a 400 naming the field; no user is created', async (_, name) => {
    const before = await countUsers(t.db);
    const email = uniqueEmail();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name, email, password: PASSWORD, confirmPassword: PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(NOT_ALLOWED('name'));
    expect(await countUsers(t.db)).toBe(before);
  });

  test('a line break in the name is refused: a name is one line', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Grace\nHopper', email: uniqueEmail(), password: PASSWORD, confirmPassword: PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'name must be a single line without tabs' });
  });

  test('a password is the user’s own business: tabs and spaces in it are kept', async () => {
    const password = 'tab\there and  spaces';
    const r = await register(t.app, { password });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: r.email, password } });
    expect(login.statusCode).toBe(200);
  });
});

describe('saved addresses', () => {
  const FORM = ADDRESS_FORM;

  test.each([
    ['name', 'Ada\u0000'],
    ['street', '1 Main\ud800 St'],
    ['city', '\udfffSpringfield'],
    ['address_id', 'Ware\u0000house'],
  ])('bad text in %s is a 400 naming the field; nothing is saved', async (field, value) => {
    const me = await register(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/auth/save-address/${me.user._id}`,
      headers: { token: me.token },
      payload: { ...FORM, [field]: value },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(NOT_ALLOWED(field));
    expect(await t.db('addresses').where({ user_id: me.user._id })).toEqual([]);
  });
});

describe('SKU presets', () => {
  const PRESET = { sku: 'MUG-01', maxQty: 4, weight: 1.5, length: 10, width: 8, height: 6.2, description: 'Mug' };
  const add = (who: { user: { _id: string }; token: string }, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/auth/add-sku/${who.user._id}`, headers: { token: who.token }, payload });
  const stored = (userId: string) => t.db('skus').where({ user_id: userId });

  test.each([
    ['sku', 'MUG\u0000'],
    ['description', 'Mug \ud800'],
  ])('bad text in %s of a CSV row is a 400 naming the row and field; nothing is saved', async (field, value) => {
    const me = await register(t.app);
    const res = await add(me, { parsedData: [PRESET, { ...PRESET, sku: 'MUG-02', [field]: value }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(NOT_ALLOWED(`parsedData[1].${field}`));
    expect(await stored(me.user._id)).toEqual([]);
  });
});
