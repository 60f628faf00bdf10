import type { Sku } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeAdmin, type Registered, register, startTestAuth, type TestAuth } from './support';

let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

const GHOST = '00000000-0000-4000-8000-000000000000';

const PRESET = { sku: 'MUG-01', maxQty: 4, weight: 1.5, length: 10, width: 8, height: 6.2, description: 'Coffee mug' };

const list = (who: Registered, userId = who.user._id) =>
  t.app.inject({ url: `/api/auth/get-sku/${userId}`, headers: { token: who.token } });
const add = (who: Registered, payload: object, userId = who.user._id) =>
  t.app.inject({ method: 'POST', url: `/api/auth/add-sku/${userId}`, headers: { token: who.token }, payload });
const update = (who: Registered, id: string, payload: object, userId = who.user._id) =>
  t.app.inject({ method: 'POST', url: `/api/auth/update-sku/${userId}/${id}`, headers: { token: who.token }, payload });
const remove = (who: Registered, id: string) =>
  t.app.inject({ method: 'POST', url: `/api/auth/delete-sku/${id}`, headers: { token: who.token } });

const skus = async (who: Registered): Promise<Sku[]> => (await list(who)).json().SkuData;
async function added(who: Registered, over: object = {}): Promise<Sku> {
  const sku = { ...PRESET, ...over };
  const res = await add(who, { parsedData: [sku] });
  if (res.statusCode !== 200) throw new Error(`add failed: ${res.statusCode} ${res.body}`);
  const found = (res.json().SkuData as Sku[]).find((s) => s.sku === sku.sku);
  if (!found) throw new Error('added SKU missing from the answer');
  return found;
}
const invalid = (message: string) => ({ code: 'SKU_INVALID', message });

describe('GET /api/auth/get-sku/{userId}', () => {
  test('a new user has no SKUs', async () => {
    const me = await register(t.app);
    const res = await list(me);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ SkuData: [] });
  });

  test('lists the user’s SKUs sorted by SKU regardless of case', async () => {
    const me = await register(t.app);
    await add(me, {
      parsedData: [
        { ...PRESET, sku: 'zeta' },
        { ...PRESET, sku: 'Alpha' },
        { ...PRESET, sku: 'beta' },
      ],
    });
    expect((await skus(me)).map((s) => s.sku)).toEqual(['Alpha', 'beta', 'zeta']);
  });

  test('another user’s list is 403 and shows nothing; an admin may read it', async () => {
    const me = await register(t.app);
    const other = await register(t.app);
    await added(other);
    const res = await list(me, other.user._id);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    const admin = await makeAdmin(t.app);
    expect((await skus({ ...admin, user: { ...admin.user, _id: other.user._id } })).map((s) => s.sku)).toEqual([
      'MUG-01',
    ]);
  });

  test('an admin asking for a user that does not exist gets 404', async () => {
    const admin = await makeAdmin(t.app);
    const res = await list(admin, GHOST);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('USER_NOT_FOUND');
  });

  test('without a token the call is 401', async () => {
    const me = await register(t.app);
    const res = await t.app.inject({ url: `/api/auth/get-sku/${me.user._id}` });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/auth/add-sku/{userId}', () => {
  test('adds a list sent as { parsedData } and answers the message and the whole list', async () => {
    const me = await register(t.app);
    await added(me, { sku: 'EXISTING' });
    const res = await add(me, { parsedData: [PRESET, { ...PRESET, sku: 'CUP', description: undefined }] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('New SKU Data Added');
    expect(body.SkuData).toEqual([
      { ...PRESET, sku: 'CUP', description: '', _id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      expect.objectContaining({ sku: 'EXISTING' }),
      { ...PRESET, _id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    ]);
    expect(await skus(me)).toEqual(body.SkuData);
  });

  test('accepts the bare list', async () => {
    const me = await register(t.app);
    const res = await add(me, [PRESET]);
    expect(res.statusCode).toBe(200);
    expect(res.json().SkuData).toHaveLength(1);
  });

  test('accepts CSV cells as text, trimmed, and stores them as numbers', async () => {
    const me = await register(t.app);
    const res = await add(me, {
      parsedData: [
        {
          sku: ' 12345 ',
          maxQty: '3',
          weight: '0.5',
          length: ' 12 ',
          width: '9.75',
          height: '.5',
          description: ' Red ',
        },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().SkuData[0]).toMatchObject({
      sku: '12345',
      maxQty: 3,
      weight: 0.5,
      length: 12,
      width: 9.75,
      height: 0.5,
      description: 'Red',
    });
  });

  test.each([
    [{ sku: '' }, 'SKU is required'],
    [{ sku: '   ' }, 'SKU is required'],
    [{ sku: null }, 'SKU is required'],
    [{ maxQty: 0 }, 'Max Quantity must be greater than 0'],
    [{ maxQty: '' }, 'Max Quantity must be greater than 0'],
    [{ maxQty: -2 }, 'Max Quantity must be greater than 0'],
    [{ maxQty: 1.5 }, 'Max Quantity must be a whole number'],
    [{ maxQty: 10_001 }, 'Max Quantity must be at most 10000'],
    [{ weight: 0 }, 'Weight must be greater than 0'],
    [{ weight: undefined }, 'Weight must be greater than 0'],
    [{ weight: 'heavy' }, 'Weight must be a number like 12 or 2.5'],
    [{ weight: '1e3' }, 'Weight must be a number like 12 or 2.5'],
    [{ weight: 70.1 }, 'Weight must be at most 70'],
    [{ length: 0 }, 'Length must be greater than 0'],
    [{ length: 108.5 }, 'Length must be at most 108'],
    [{ width: -1 }, 'Width must be greater than 0'],
    [{ width: 200 }, 'Width must be at most 108'],
    [{ height: '0' }, 'Height must be greater than 0'],
    [{ height: 109 }, 'Height must be at most 108'],
    [{ sku: 'x'.repeat(201) }, 'SKU must be at most 200 characters'],
    [{ description: 'x'.repeat(201) }, 'Description must be at most 200 characters'],
  ])('a single SKU with %j is refused with "%s" and nothing is saved', async (over, message) => {
    const me = await register(t.app);
    const res = await add(me, { parsedData: [{ ...PRESET, ...over }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid(message));
    expect(await skus(me)).toEqual([]);
  });

  test('limits are inclusive: 70 lb, 108 in and 200 characters are accepted', async () => {
    const me = await register(t.app);
    const res = await add(me, {
      parsedData: [{ ...PRESET, sku: 's'.repeat(200), weight: 70, length: 108, width: 108, height: 108 }],
    });
    expect(res.statusCode).toBe(200);
  });

  test('an error in a list names the row, and none of the list is saved', async () => {
    const me = await register(t.app);
    const res = await add(me, {
      parsedData: [
        { ...PRESET, sku: 'A' },
        { ...PRESET, sku: 'B' },
        { ...PRESET, sku: 'C', weight: 0 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid('Row 3: Weight must be greater than 0'));
    expect(await skus(me)).toEqual([]);
  });

  test('a row that is not an object is refused naming its place in the list', async () => {
    const me = await register(t.app);
    const res = await add(me, { parsedData: [PRESET, 'MUG-02'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'parsedData[1] must be object' });
    expect(await skus(me)).toEqual([]);
  });

  test('a SKU the user already has, in any case, is refused as not unique and nothing is added', async () => {
    const me = await register(t.app);
    await added(me, { sku: 'Mug-01' });
    const res = await add(me, {
      parsedData: [
        { ...PRESET, sku: 'NEW' },
        { ...PRESET, sku: ' mug-01 ' },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'SKU_TAKEN', message: 'Row 2: SKU must be unique' });
    expect((await skus(me)).map((s) => s.sku)).toEqual(['Mug-01']);
    const single = await add(me, { parsedData: [{ ...PRESET, sku: 'MUG-01' }] });
    expect(single.json()).toEqual({ code: 'SKU_TAKEN', message: 'SKU must be unique' });
  });

  test('the same SKU twice in one list is refused naming the later row', async () => {
    const me = await register(t.app);
    const res = await add(me, {
      parsedData: [
        { ...PRESET, sku: 'abc' },
        { ...PRESET, sku: 'X' },
        { ...PRESET, sku: 'ABC' },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'SKU_TAKEN', message: 'Row 3: SKU must be unique' });
    expect(await skus(me)).toEqual([]);
  });

  test('two users may each have the same SKU', async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    await added(a);
    expect((await add(b, { parsedData: [PRESET] })).statusCode).toBe(200);
  });

  test('adds of the same SKU at the same moment: exactly one succeeds', async () => {
    const me = await register(t.app);
    const results = await Promise.all(
      ['Dock', 'dock', 'DOCK', ' Dock ', 'dOcK'].map((sku) => add(me, { parsedData: [{ ...PRESET, sku }] })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.statusCode === 409)) {
      expect(r.json()).toEqual({ code: 'SKU_TAKEN', message: 'SKU must be unique' });
    }
    expect(await skus(me)).toHaveLength(1);
  });

  test('an empty list is refused', async () => {
    const me = await register(t.app);
    const res = await add(me, { parsedData: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid('There is no SKU data to add'));
  });

  test('a list of 5,000 is added in one call; 5,001 is refused', async () => {
    const me = await register(t.app);
    const many = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({ ...PRESET, sku: `${prefix}-${i}`, description: 'x'.repeat(150) }));
    const tooMany = await add(me, { parsedData: many(5_001, 'A') });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'parsedData must have at most 5000 items' });
    // A bare list of a million rows is refused by its length too, naming the body and the limit.
    const huge = await add(
      me,
      Array.from({ length: 1_000_000 }, () => ({})),
    );
    expect(huge.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'body must have at most 5000 items' });
    const ok = await add(me, { parsedData: many(5_000, 'A') });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().SkuData).toHaveLength(5_000);
    // The user now holds the most SKUs allowed: one more is refused, an upsert of an existing one is not.
    const over = await add(me, { parsedData: [{ ...PRESET, sku: 'ONE-MORE' }] });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({ code: 'SKU_LIMIT_REACHED', message: 'You can keep at most 5000 SKUs' });
    const upsert = await add(me, { parsedData: [{ ...PRESET, sku: 'a-7', maxQty: 9 }], upsert: true });
    expect(upsert.statusCode).toBe(200);
  }, 30_000);

  test('with upsert, an existing SKU in any case takes the new values and keeps its id; new ones are added', async () => {
    const me = await register(t.app);
    const before = await added(me, { sku: 'Mug-01' });
    const res = await add(me, {
      parsedData: [
        { ...PRESET, sku: 'MUG-01', maxQty: 2, weight: 3.3, description: 'Big mug' },
        { ...PRESET, sku: 'PLATE' },
      ],
      upsert: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('New SKU Data Added');
    const after = await skus(me);
    expect(after).toEqual([
      { ...PRESET, _id: before._id, sku: 'MUG-01', maxQty: 2, weight: 3.3, description: 'Big mug' },
      expect.objectContaining({ sku: 'PLATE' }),
    ]);
  });

  test('upsert still applies every rule', async () => {
    const me = await register(t.app);
    await added(me);
    const res = await add(me, { parsedData: [{ ...PRESET, height: 0 }], upsert: true });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid('Height must be greater than 0'));
    expect((await skus(me))[0]?.height).toBe(PRESET.height);
  });

  test('upserts of one new SKU at the same moment leave exactly one preset', async () => {
    const me = await register(t.app);
    const results = await Promise.all(
      [1, 2, 3, 4].map((maxQty) => add(me, { parsedData: [{ ...PRESET, sku: 'RACE', maxQty }], upsert: true })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await skus(me)).toHaveLength(1);
  });

  test('adding to another user is 403 and adds nothing; an admin may add for them', async () => {
    const me = await register(t.app);
    const other = await register(t.app);
    const res = await add(me, { parsedData: [PRESET] }, other.user._id);
    expect(res.statusCode).toBe(403);
    expect(await skus(other)).toEqual([]);
    const admin = await makeAdmin(t.app);
    expect((await add(admin, { parsedData: [PRESET] }, other.user._id)).statusCode).toBe(200);
    expect(await skus(other)).toHaveLength(1);
  });

  test('an admin adding for a user that does not exist gets 404', async () => {
    const admin = await makeAdmin(t.app);
    const res = await add(admin, { parsedData: [PRESET] }, GHOST);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('USER_NOT_FOUND');
  });

  test('SQL and HTML in SKU and description are stored exactly as given', async () => {
    const me = await register(t.app);
    const sku = `x'); drop table skus; --`;
    const description = '<img src=x onerror=alert(1)> "quoted" \\ back';
    const saved = await added(me, { sku, description });
    expect(saved).toMatchObject({ sku, description });
    const again = await add(me, { parsedData: [{ ...PRESET, sku: sku.toUpperCase() }] });
    expect(again.json().message).toBe('SKU must be unique');
  });
});

describe('POST /api/auth/update-sku/{userId}/{skuId}', () => {
  test('replaces every field from { skuData } and answers the updated SKU', async () => {
    const me = await register(t.app);
    const sku = await added(me);
    const next = { sku: 'MUG-02', maxQty: 6, weight: 2.1, length: 11, width: 9, height: 7, description: '' };
    const res = await update(me, sku._id, { skuData: next });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'SKU updated successfully', sku: { _id: sku._id, ...next } });
    expect(await skus(me)).toEqual([{ _id: sku._id, ...next }]);
  });

  test('accepts the fields at the top level', async () => {
    const me = await register(t.app);
    const sku = await added(me);
    const res = await update(me, sku._id, { ...PRESET, weight: '4.4' });
    expect(res.statusCode).toBe(200);
    expect(res.json().sku.weight).toBe(4.4);
  });

  test.each([
    [{ sku: ' ' }, 'SKU is required'],
    [{ maxQty: 0 }, 'Max Quantity must be greater than 0'],
    [{ weight: 0 }, 'Weight must be greater than 0'],
    [{ length: -5 }, 'Length must be greater than 0'],
    [{ width: 0 }, 'Width must be greater than 0'],
    [{ height: null }, 'Height must be greater than 0'],
  ])('an update with %j is refused with "%s" and changes nothing', async (over, message) => {
    const me = await register(t.app);
    const sku = await added(me);
    const res = await update(me, sku._id, { skuData: { ...PRESET, ...over } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid(message));
    expect(await skus(me)).toEqual([sku]);
  });

  test('takes the smallest values the SKU table takes (Max Quantity 1, Weight 0.01) and refuses what it refuses', async () => {
    const me = await register(t.app);
    const sku = await added(me);
    const smallest = { ...PRESET, maxQty: 1, weight: 0.01, length: 0.01 };
    const res = await update(me, sku._id, { skuData: smallest });
    expect(res.statusCode).toBe(200);
    expect(res.json().sku).toMatchObject({ maxQty: 1, weight: 0.01, length: 0.01 });
    for (const [over, message] of [
      [{ maxQty: 1.5 }, 'Max Quantity must be a whole number'],
      [{ weight: 1.234 }, 'Weight can have at most 2 decimal places'],
      [{ weight: 70.5 }, 'Weight must be at most 70'],
    ] as const) {
      const refused = await update(me, sku._id, { skuData: { ...PRESET, ...over } });
      expect(refused.json()).toEqual(invalid(message));
    }
  });

  test('keeping its own SKU in another case is allowed; taking another preset’s SKU is not', async () => {
    const me = await register(t.app);
    const mug = await added(me);
    await added(me, { sku: 'PLATE' });
    const recased = await update(me, mug._id, { skuData: { ...PRESET, sku: 'mug-01' } });
    expect(recased.statusCode).toBe(200);
    expect(recased.json().sku.sku).toBe('mug-01');
    const res = await update(me, mug._id, { skuData: { ...PRESET, sku: 'Plate' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'SKU_TAKEN', message: 'SKU must be unique' });
    expect((await skus(me)).map((s) => s.sku)).toEqual(['mug-01', 'PLATE']);
  });

  test('another user’s SKU under one’s own id is 404 and untouched', async () => {
    const me = await register(t.app);
    const other = await register(t.app);
    const theirs = await added(other);
    const res = await update(me, theirs._id, { skuData: { ...PRESET, weight: 9 } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'SKU_NOT_FOUND', message: 'SKU not found' });
    expect(await skus(other)).toEqual([theirs]);
  });

  test('another user’s id in the path is 403; an admin may update for them', async () => {
    const me = await register(t.app);
    const other = await register(t.app);
    const theirs = await added(other);
    expect((await update(me, theirs._id, { skuData: PRESET }, other.user._id)).statusCode).toBe(403);
    const admin = await makeAdmin(t.app);
    const res = await update(admin, theirs._id, { skuData: { ...PRESET, weight: 9 } }, other.user._id);
    expect(res.statusCode).toBe(200);
    expect((await skus(other))[0]?.weight).toBe(9);
  });

  test('an id that is not a uuid is refused naming it', async () => {
    const me = await register(t.app);
    const res = await update(me, 'not-an-id', { skuData: PRESET });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'skuId is not a valid id' });
  });
});

describe('POST /api/auth/delete-sku/{skuId}', () => {
  test('the owner deletes the SKU', async () => {
    const me = await register(t.app);
    const sku = await added(me);
    await added(me, { sku: 'KEEP' });
    const res = await remove(me, sku._id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'SKU deleted successfully' });
    expect((await skus(me)).map((s) => s.sku)).toEqual(['KEEP']);
  });

  test('another user’s SKU is 404 and stays', async () => {
    const me = await register(t.app);
    const other = await register(t.app);
    const theirs = await added(other);
    const res = await remove(me, theirs._id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'SKU_NOT_FOUND', message: 'SKU not found' });
    expect(await skus(other)).toEqual([theirs]);
  });

  test('an admin may delete any user’s SKU', async () => {
    const other = await register(t.app);
    const theirs = await added(other);
    const admin = await makeAdmin(t.app);
    expect((await remove(admin, theirs._id)).statusCode).toBe(200);
    expect(await skus(other)).toEqual([]);
  });

  test('a deleted or unknown id is 404', async () => {
    const me = await register(t.app);
    const sku = await added(me);
    await remove(me, sku._id);
    expect((await remove(me, sku._id)).statusCode).toBe(404);
    expect((await remove(me, GHOST)).statusCode).toBe(404);
    expect((await remove(me, 'nope')).json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'skuId is not a valid id',
    });
  });

  test('after a delete the SKU can be added again', async () => {
    const me = await register(t.app);
    const sku = await added(me);
    await remove(me, sku._id);
    expect((await add(me, { parsedData: [PRESET] })).statusCode).toBe(200);
  });

  test('without a token the call is 401', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/auth/delete-sku/${GHOST}` });
    expect(res.statusCode).toBe(401);
  });
});

test('deleting a user deletes their SKUs', async () => {
  const me = await register(t.app);
  await added(me);
  await t.db('users').where({ id: me.user._id }).delete();
  const row = await t.db('skus').where({ user_id: me.user._id }).count<{ count: string }[]>('* as count').first();
  expect(Number(row?.count)).toBe(0);
});
