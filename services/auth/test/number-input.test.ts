import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { register, startTestAuth, type TestAuth } from './support';

// Numbers in notations nobody means as a size ('0x10', '1e3', 1e-308): refused with a 400
// naming the field and what is allowed, and nothing written.
let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

describe('SKU preset numbers', () => {
  const PRESET = { sku: 'MUG-01', maxQty: 4, weight: 1.5, length: 10, width: 8, height: 6.2, description: 'Mug' };
  const add = (who: { user: { _id: string }; token: string }, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/auth/add-sku/${who.user._id}`, headers: { token: who.token }, payload });
  const stored = (userId: string) => t.db('skus').where({ user_id: userId });

  const FORMAT = (label: string) => `${label} must be a number like 12 or 2.5`;
  test.each([
    [{ weight: '0x10' }, FORMAT('Weight')],
    [{ weight: '1e-308' }, FORMAT('Weight')],
    [{ weight: 1e-308 }, 'Weight can have at most 2 decimal places'],
    [{ weight: '0.0000001' }, 'Weight can have at most 2 decimal places'],
    [{ weight: 'Infinity' }, FORMAT('Weight')],
    [{ weight: '1e3' }, FORMAT('Weight')],
    [{ length: '12.345' }, 'Length can have at most 2 decimal places'],
    [{ width: '-1' }, 'Width must be greater than 0'],
    [{ height: '0b11' }, FORMAT('Height')],
    [{ maxQty: '0x4' }, 'Max Quantity must be a whole number like 3'],
    [{ maxQty: '4.0001' }, 'Max Quantity must be a whole number'],
  ])('%o is refused naming the field and what is allowed; nothing is saved', async (over, message) => {
    const me = await register(t.app);
    const res = await add(me, { parsedData: [{ ...PRESET, ...over }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'SKU_INVALID', message });
    expect(await stored(me.user._id)).toEqual([]);
  });

  test('plain decimals, as text or numbers, are stored as written', async () => {
    const me = await register(t.app);
    const res = await add(me, {
      parsedData: [{ ...PRESET, weight: '2', length: ' 12 ', width: '2.5', height: 16, maxQty: '3' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().SkuData[0]).toMatchObject({ weight: 2, length: 12, width: 2.5, height: 16, maxQty: 3 });
    const [row] = await stored(me.user._id);
    expect([row.weight, row.length, row.width, row.height]).toEqual(['2', '12', '2.5', '16']);
  });
});
