import type { Address } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADDRESS_FORM, makeAdmin, type Registered, register, startTestAuth, type TestAuth } from './support';

let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

const GHOST = '00000000-0000-4000-8000-000000000000';

const FORM = ADDRESS_FORM;

const list = (who: Registered, userId = who.user._id) =>
  t.app.inject({ url: `/api/auth/get-address/${userId}`, headers: { token: who.token } });
const save = (who: Registered, payload: object, userId = who.user._id) =>
  t.app.inject({ method: 'POST', url: `/api/auth/save-address/${userId}`, headers: { token: who.token }, payload });
const update = (who: Registered, id: string, payload: object, userId = who.user._id) =>
  t.app.inject({
    method: 'POST',
    url: `/api/auth/update-address/${userId}/${id}`,
    headers: { token: who.token },
    payload,
  });
const remove = (who: Registered, id: unknown, userId = who.user._id) =>
  t.app.inject({
    method: 'POST',
    url: `/api/auth/delete-address/${userId}`,
    headers: { token: who.token },
    payload: { id },
  });

async function saved(who: Registered, over: object = {}): Promise<Address> {
  const res = await save(who, { ...FORM, ...over });
  if (res.statusCode !== 201) throw new Error(`save failed: ${res.statusCode} ${res.body}`);
  return res.json().address;
}
const book = async (who: Registered): Promise<Address[]> => (await list(who)).json().savedAddress;

describe('POST /api/auth/save-address/{userId}', () => {
  test('adds the address and answers 201 with it, trimmed and normalised', async () => {
    const me = await register(t.app);
    const res = await save(me, { ...FORM, name: '  Ada Lovelace ', state: 'il', country: 'United States' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      message: 'Address added successfully!',
      address: { ...FORM, _id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
    expect(await book(me)).toEqual([body.address]);
  });

  test('optional fields may be left out and come back empty', async () => {
    const me = await register(t.app);
    const { company: _c, street2: _s, phone: _p, ...required } = FORM;
    const res = await save(me, { ...required, phone: null });
    expect(res.statusCode).toBe(201);
    expect(res.json().address).toMatchObject({ company: '', street2: '', phone: '' });
  });

  test('a ZIP sent as a number keeps its five digits; one that lost a leading zero is refused', async () => {
    const me = await register(t.app);
    const ok = await save(me, { ...FORM, zip: 90210 });
    expect(ok.json().address.zip).toBe('90210');
    const bad = await save(me, { ...FORM, address_id: 'Boston', zip: 2134 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 'ADDRESS_INVALID', message: 'ZIP must be 5 digits or ZIP+4' });
    expect(await book(me)).toHaveLength(1);
  });

  test.each([
    [{ address_id: ' ' }, 'Address ID is required'],
    [{ name: '' }, 'Name is required'],
    [{ street: '  ' }, 'Street is required'],
    [{ city: '' }, 'City is required'],
    [{ state: '' }, 'State is required'],
    [{ zip: '' }, 'ZIP is required'],
    [{ country: '' }, 'Country is required'],
    [{ state: 'DC' }, 'State must be a US state (two-letter code)'],
    [{ state: 'California' }, 'State must be a US state (two-letter code)'],
    [{ zip: '1234' }, 'ZIP must be 5 digits or ZIP+4'],
    [{ zip: '12345-12' }, 'ZIP must be 5 digits or ZIP+4'],
    [{ country: 'Canada' }, 'Only US addresses are supported'],
    [{ phone: 'call me' }, 'Invalid phone number'],
    [{ name: 'x'.repeat(201) }, 'Name must be at most 200 characters'],
    [{ street2: 'x'.repeat(201) }, 'Street 2 must be at most 200 characters'],
    [{ company: 'x'.repeat(5000) }, 'Company must be at most 200 characters'],
  ])('%j is refused with "%s" and nothing is saved', async (over, message) => {
    const me = await register(t.app);
    const res = await save(me, { ...FORM, ...over });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'ADDRESS_INVALID', message });
    expect(await book(me)).toEqual([]);
  });

  test('a required field sent with the wrong type is refused naming it', async () => {
    const me = await register(t.app);
    const res = await save(me, { ...FORM, name: 42 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'name must be string' });
  });

  test('an Address ID the user already has, in any case, is refused', async () => {
    const me = await register(t.app);
    await saved(me);
    const res = await save(me, { ...FORM, address_id: ' WAREHOUSE ', name: 'Someone else' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'ADDRESS_ID_TAKEN', message: 'This Address ID already exists' });
    expect((await book(me)).map((a) => a.name)).toEqual(['Ada Lovelace']);
  });

  test('two users may each use the same Address ID', async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    await saved(a);
    expect((await save(b, FORM)).statusCode).toBe(201);
  });

  test('HTML and SQL in fields are stored and returned exactly as given', async () => {
    const me = await register(t.app);
    const name = `<script>alert("x")</script>`;
    const street = `1'; drop table addresses; --`;
    const company = `O'Brien & "Sons" <b>`;
    const address = await saved(me, { name, street, company, address_id: `Robert'); --` });
    expect(address).toMatchObject({ name, street, company, address_id: `Robert'); --` });
    expect(await book(me)).toEqual([address]);
  });

  test('saves of the same Address ID at the same moment: exactly one succeeds', async () => {
    const me = await register(t.app);
    const results = await Promise.all(
      ['Dock', 'dock', 'DOCK', ' Dock ', 'dOcK'].map((address_id) => save(me, { ...FORM, address_id })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.statusCode === 409)) {
      expect(r.json()).toEqual({ code: 'ADDRESS_ID_TAKEN', message: 'This Address ID already exists' });
    }
    expect(await book(me)).toHaveLength(1);
  });

  test('a user keeps at most 500 addresses, also when the last saves race', async () => {
    const me = await register(t.app);
    await t.db('addresses').insert(
      Array.from({ length: 498 }, (_, i) => ({
        user_id: me.user._id,
        address_id: `Bulk ${i}`,
        name: 'N',
        street: 'S',
        city: 'C',
        state: 'NY',
        zip: '10001',
        country: 'US',
      })),
    );
    const labels = Array.from({ length: 8 }, (_, i) => `Racer ${i}`);
    const results = await Promise.all(labels.map((address_id) => save(me, { ...FORM, address_id })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 409, 409, 409, 409, 409, 409]);
    const refused = results.find((r) => r.statusCode === 409);
    expect(refused?.json()).toEqual({
      code: 'ADDRESS_LIMIT_REACHED',
      message: 'You can keep at most 500 saved addresses',
    });
    expect(await book(me)).toHaveLength(500);
  });
});

describe('GET /api/auth/get-address/{userId}', () => {
  test('lists only the caller’s addresses, oldest first', async () => {
    const me = await register(t.app);
    const other = await register(t.app);
    const first = await saved(me, { address_id: 'First' });
    await saved(other, { address_id: 'Theirs' });
    const second = await saved(me, { address_id: 'Second' });
    const third = await saved(me, { address_id: 'Third' });
    const res = await list(me);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ savedAddress: [first, second, third] });
  });

  test('an empty book is an empty list', async () => {
    const me = await register(t.app);
    expect((await list(me)).json()).toEqual({ savedAddress: [] });
  });
});

describe('POST /api/auth/update-address/{userId}/{addressRecordId}', () => {
  test('replaces the fields and answers with the updated address', async () => {
    const me = await register(t.app);
    const a = await saved(me);
    const res = await update(me, a._id, { ...FORM, address_id: 'Main Warehouse', city: 'Chicago', state: 'il' });
    expect(res.statusCode).toBe(200);
    const expected = { ...a, address_id: 'Main Warehouse', city: 'Chicago', state: 'IL' };
    expect(res.json()).toEqual({ message: 'Address updated successfully!', address: expected });
    expect(await book(me)).toEqual([expected]);
  });

  test('the row as the table holds it, _id included, can be sent back; the path decides which address changes', async () => {
    const me = await register(t.app);
    const a = await saved(me, { address_id: 'A' });
    const b = await saved(me, { address_id: 'B' });
    const res = await update(me, a._id, { ...a, _id: b._id, city: 'Chicago' });
    expect(res.statusCode).toBe(200);
    expect(await book(me)).toEqual([{ ...a, city: 'Chicago' }, b]);
  });

  test('keeping the Address ID, or changing only its case, is not a conflict', async () => {
    const me = await register(t.app);
    const a = await saved(me);
    expect((await update(me, a._id, { ...FORM, name: 'New Name' })).statusCode).toBe(200);
    const recased = await update(me, a._id, { ...FORM, address_id: 'WAREHOUSE' });
    expect(recased.statusCode).toBe(200);
    expect(recased.json().address.address_id).toBe('WAREHOUSE');
  });

  test('an Address ID used by another of the user’s addresses, in any case, is refused and nothing changes', async () => {
    const me = await register(t.app);
    const a = await saved(me, { address_id: 'Home' });
    const b = await saved(me, { address_id: 'Office' });
    const res = await update(me, b._id, { ...FORM, address_id: 'home', city: 'Elsewhere' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'ADDRESS_ID_TAKEN', message: 'This Address ID already exists' });
    expect(await book(me)).toEqual([a, b]);
  });

  test('the same rules as saving apply, and a refused update changes nothing', async () => {
    const me = await register(t.app);
    const a = await saved(me);
    const cases: [object, string][] = [
      [{ name: ' ' }, 'Name is required'],
      [{ state: 'ZZ' }, 'State must be a US state (two-letter code)'],
      [{ zip: 'abcde' }, 'ZIP must be 5 digits or ZIP+4'],
      [{ country: 'MX' }, 'Only US addresses are supported'],
      [{ phone: '555.0100' }, 'Invalid phone number'],
      [{ city: 'c'.repeat(201) }, 'City must be at most 200 characters'],
    ];
    for (const [over, message] of cases) {
      const res = await update(me, a._id, { ...FORM, ...over });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'ADDRESS_INVALID', message });
    }
    expect(await book(me)).toEqual([a]);
  });

  test("another user's address is not found for the caller and stays unchanged", async () => {
    const owner = await register(t.app);
    const theirs = await saved(owner);
    const me = await register(t.app);
    const res = await update(me, theirs._id, { ...FORM, name: 'Hijacked' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'ADDRESS_NOT_FOUND', message: 'Address not found' });
    expect(await book(owner)).toEqual([theirs]);
  });

  test('an unknown address id is not found; a malformed one is refused naming it', async () => {
    const me = await register(t.app);
    const res = await update(me, GHOST, FORM);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'ADDRESS_NOT_FOUND', message: 'Address not found' });
    const malformed = await update(me, 'not-a-uuid', FORM);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'addressRecordId is not a valid id' });
  });
});

describe('POST /api/auth/delete-address/{userId}', () => {
  test('deletes the address and frees its Address ID', async () => {
    const me = await register(t.app);
    const a = await saved(me, { address_id: 'Gone' });
    const b = await saved(me, { address_id: 'Stays' });
    const res = await remove(me, a._id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Address deleted successfully!' });
    expect(await book(me)).toEqual([b]);
    expect((await save(me, { ...FORM, address_id: 'gone' })).statusCode).toBe(201);
  });

  test("another user's address is not found for the caller and is not deleted", async () => {
    const owner = await register(t.app);
    const theirs = await saved(owner);
    const me = await register(t.app);
    const res = await remove(me, theirs._id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'ADDRESS_NOT_FOUND', message: 'Address not found' });
    expect(await book(owner)).toEqual([theirs]);
  });

  test('an unknown or already deleted id is not found; a malformed one is refused naming it', async () => {
    const me = await register(t.app);
    const a = await saved(me);
    expect((await remove(me, a._id)).statusCode).toBe(200);
    for (const id of [a._id, GHOST]) {
      const res = await remove(me, id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'ADDRESS_NOT_FOUND', message: 'Address not found' });
    }
    const malformed = await remove(me, "1' or '1'='1");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'id is not a valid id' });
  });

  test('a missing id is refused naming it', async () => {
    const me = await register(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/auth/delete-address/${me.user._id}`,
      headers: { token: me.token },
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'id is required' });
  });
});

describe('whose address book', () => {
  test("every call on another user's book is forbidden and changes nothing", async () => {
    const owner = await register(t.app);
    const theirs = await saved(owner);
    const me = await register(t.app);
    const calls = [
      list(me, owner.user._id),
      save(me, { ...FORM, address_id: 'Sneaky' }, owner.user._id),
      update(me, theirs._id, { ...FORM, name: 'Hijacked' }, owner.user._id),
      remove(me, theirs._id, owner.user._id),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'You do not have permission to do this.' });
    }
    expect(await book(owner)).toEqual([theirs]);
  });

  test("an admin may read and change anyone's book", async () => {
    const owner = await register(t.app);
    const admin = await makeAdmin(t.app);
    const added = await save(admin, FORM, owner.user._id);
    expect(added.statusCode).toBe(201);
    const id = added.json().address._id;
    expect((await list(admin, owner.user._id)).json().savedAddress).toHaveLength(1);
    expect((await update(admin, id, { ...FORM, city: 'Peoria' }, owner.user._id)).json().address.city).toBe('Peoria');
    expect(await book(owner)).toMatchObject([{ _id: id, city: 'Peoria' }]);
    expect((await remove(admin, id, owner.user._id)).statusCode).toBe(200);
    expect(await book(owner)).toEqual([]);
    expect(await book(admin)).toEqual([]);
  });

  test('an admin naming an unknown user gets USER_NOT_FOUND, a malformed id is refused naming it, never a 500', async () => {
    const admin = await makeAdmin(t.app);
    for (const res of [await list(admin, GHOST), await save(admin, FORM, GHOST)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found' });
    }
    for (const res of [await list(admin, 'not-a-uuid'), await save(admin, FORM, 'not-a-uuid')]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'userId is not a valid id' });
    }
  });

  test('every call needs a token', async () => {
    const me = await register(t.app);
    const anon = { ...me, token: '' };
    for (const res of [await list(anon), await save(anon, FORM), await remove(anon, GHOST)]) {
      expect(res.statusCode).toBe(401);
    }
  });

  test('deleting a user deletes their addresses', async () => {
    const me = await register(t.app);
    await saved(me);
    await t.db('users').where({ id: me.user._id }).delete();
    expect(await t.db('addresses').where({ user_id: me.user._id }).count<{ count: string }[]>('* as count')).toEqual([
      { count: '0' },
    ]);
  });
});
