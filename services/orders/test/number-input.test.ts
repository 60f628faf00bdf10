import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bulkItems, newOrderId, processBulk } from './bulk-support';
import { fundedUser, type Stack, startStack } from './stack';
import { labelRows, orderBody, postOrder, type TestUser } from './support';

// Numbers written in notations nobody means as a parcel size ('0x10', '1e3', 1e-308): refused
// with a 400 naming the field and what is allowed, before anything is priced, charged or stored.
let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(() => s.close());

const funded = (cents = 100_000) => fundedUser(s, cents);

/** Only the balance set-up is in the ledger: nothing was charged. */
async function expectNothingCharged(u: TestUser) {
  expect((await s.ledgerEntries(u.id)).map((e) => e.kind)).toEqual(['admin_adjustment']);
}

describe('weights and sizes: plain decimals within the limits', () => {
  test.each([
    ['hex text', '0x10', 'Weight must be a positive number'],
    ['octal text', '0o10', 'Weight must be a positive number'],
    ['binary text', '0b10', 'Weight must be a positive number'],
    ['exponent text', '1e3', 'Weight must be a positive number'],
    ['a tiny exponent', '1e-308', 'Weight must be a positive number'],
    ['a tiny JSON number', 1e-308, 'Weight can have at most 2 decimal places'],
    ['a small decimal', '0.0000001', 'Weight can have at most 2 decimal places'],
    ['Infinity', 'Infinity', 'Weight must be a positive number'],
    ['NaN', 'NaN', 'Weight must be a positive number'],
    ['too many decimals', '12.345', 'Weight can have at most 2 decimal places'],
    ['a negative number', '-1', 'Weight must be a positive number'],
    ['zero', '0', 'Weight must be a positive number'],
    ['blank', '   ', 'Weight is required'],
  ])('single label: weight as %s is refused with a message saying what is allowed', async (_, weight, message) => {
    const u = await funded();
    const res = await postOrder(s, u, orderBody(u.id, { package: { package_weight: weight } as never }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'ORDERS_INVALID', message });
    expect(await labelRows(s, u.id)).toEqual([]);
    await expectNothingCharged(u);
  });

  test.each([
    ['"2"', '2', 2],
    ['"2.5"', '2.5', 2.5],
    ['16', 16, 16],
    ['" 12 " (spaces around are trimmed)', ' 12 ', 12],
    ['"0.06" (1 oz)', '0.06', 0.06],
    ['"70"', '70', 70],
  ])('single label: weight %s is accepted and stored exactly', async (_, weight, stored) => {
    const u = await funded();
    const res = await postOrder(s, u, orderBody(u.id, { package: { package_weight: weight } as never }));
    expect(res.statusCode).toBe(201);
    const [row] = await labelRows(s, u.id);
    expect((row as unknown as { package: { weightLb: number } }).package.weightLb).toBe(stored);
  });

  test.each([
    ['length', { package_length: '0x10' }, 'Length must be a positive number'],
    ['width', { package_width: '10.125' }, 'Width can have at most 2 decimal places'],
    ['height', { package_height: '1e2' }, 'Height must be a positive number'],
    ['quantity', { package_reference1: '0x2' }, 'Quantity must be a whole number of at least 1'],
    ['quantity', { package_reference1: '1e1' }, 'Quantity must be a whole number of at least 1'],
  ])('single label: %s in another notation is refused', async (_, pkg, message) => {
    const u = await funded();
    const res = await postOrder(s, u, orderBody(u.id, { package: pkg as never }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'ORDERS_INVALID', message });
  });

  test('bulk: a hex weight refuses the order, naming the row; nothing is charged or stored', async () => {
    const u = await funded();
    const orderId = await newOrderId(s, u);
    const items = bulkItems(3, (i) =>
      i === 1 ? { package: { package_weight: '0x10' } } : i === 2 ? { package: { package_weight: 1e-308 } } : {},
    );
    const res = await processBulk(s, u, { orderId, orderData: items });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'ORDERS_INVALID',
      message: 'Row 2: Weight must be a positive number; Row 3: Weight can have at most 2 decimal places',
    });
    expect(await s.db('labels').where({ bulk_order_id: orderId })).toHaveLength(0);
    await expectNothingCharged(u);
  });

  test('bulk: text weights in plain decimals are stored as the numbers written', async () => {
    const u = await funded();
    const orderId = await newOrderId(s, u);
    const weights = ['2', '2.5', 16, ' 12 '];
    const items = bulkItems(4, (i) => ({ package: { package_weight: weights[i] as string } }));
    const res = await processBulk(s, u, { orderId, orderData: items });
    expect(res.statusCode).toBe(202);
    const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
    expect(rows.map((r) => r.package.weightLb)).toEqual([2, 2.5, 16, 12]);
  });
});
