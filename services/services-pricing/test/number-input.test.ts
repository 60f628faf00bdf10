import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MESSAGES } from '../src/domain/messages';
import { type Caller, error, startTestPricing, type TestPricing } from './support';

// Weights and prices arrive as form text or JSON numbers. Only plain decimals are numbers here:
// '0x10', '7e1' or 'Infinity' are not prices or weights anybody typed on purpose.
let t: TestPricing;
let admin: Caller;
beforeAll(async () => {
  t = await startTestPricing();
  admin = t.caller('admin');
});
afterAll(() => t.close());

const serviceId = async (uid: string): Promise<string> => {
  const list = (await t.request(admin, 'GET', '/api/defaultServices')).json() as { _id: string; uid: string }[];
  const found = list.find((s) => s.uid === uid);
  if (!found) throw new Error(`no default service ${uid}`);
  return found._id;
};

describe('a price list with numbers in other notations', () => {
  test.each([
    ['toWeight in exponent notation', [{ fromWeight: 1, toWeight: '7e1', price: 5 }], MESSAGES.invalidRanges],
    ['toWeight in hex', [{ fromWeight: 1, toWeight: '0x46', price: 5 }], MESSAGES.invalidRanges],
    ['fromWeight in binary', [{ fromWeight: '0b1', toWeight: 70, price: 5 }], MESSAGES.invalidRanges],
    ['fromWeight as Infinity', [{ fromWeight: 'Infinity', toWeight: 70, price: 5 }], MESSAGES.invalidRanges],
    ['a price in hex', [{ fromWeight: 1, toWeight: 70, price: '0x10' }], MESSAGES.invalidPrice],
    ['a price in exponent notation', [{ fromWeight: 1, toWeight: 70, price: '1e1' }], MESSAGES.invalidPrice],
    ['a tiny price as a JSON number', [{ fromWeight: 1, toWeight: 70, price: 1e-308 }], MESSAGES.invalidPrice],
    ['a price of Infinity', [{ fromWeight: 1, toWeight: 70, price: 'Infinity' }], MESSAGES.invalidPrice],
    ['a price with 3 decimals', [{ fromWeight: 1, toWeight: 70, price: '8.955' }], MESSAGES.invalidPrice],
    ['a negative price', [{ fromWeight: 1, toWeight: 70, price: '-1' }], MESSAGES.invalidPrice],
  ])('is refused: %s; nothing changes', async (_, prices, message) => {
    const id = await serviceId('usps_priority_mail');
    const before = await t.db('default_services').where({ id }).first('prices');
    const res = await t.request(admin, 'PUT', `/api/defaultServices/${id}/prices`, { prices });
    expect(error(res)).toEqual({ status: 400, code: 'PRICING_INVALID_PRICES', message });
    expect(await t.db('default_services').where({ id }).first('prices')).toEqual(before);
  });

  test('in plain decimals, as text or numbers, is stored as written', async () => {
    const id = await serviceId('usps_ground_advantage');
    const res = await t.request(admin, 'PUT', `/api/defaultServices/${id}/prices`, {
      prices: [
        { fromWeight: '1', toWeight: ' 10 ', price: '6.5' },
        { fromWeight: 10, toWeight: '70', price: 12 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const stored = await t.db('default_services').where({ id }).first('prices');
    expect(stored.prices).toEqual([
      { fromWeight: 1, toWeight: 10, priceCents: 650 },
      { fromWeight: 10, toWeight: 70, priceCents: 1200 },
    ]);
  });
});

describe('the price call with weights in other notations', () => {
  // 1 lb costs $7.00, anything heavier $8.95: the total shows which weight was billed.
  let user: Caller;
  beforeAll(async () => {
    user = t.caller();
    await t.request(admin, 'POST', `/api/userServices/${user.id}/initialize`);
    const res = await t.request(admin, 'PUT', `/api/userServices/${user.id}/usps_priority_mail/prices`, {
      prices: [
        { fromWeight: 1, toWeight: 2, price: 7 },
        { fromWeight: 2, toWeight: 70, price: 8.95 },
      ],
    });
    if (res.statusCode !== 200) throw new Error(`prices not set: ${res.body}`);
  });
  const quote = (package_weight: unknown) =>
    t.request(user, 'POST', '/api/orders/price/v2/bulk', {
      userId: user.id,
      shipments: [{ service_name: 'USPS Priority Mail', package: { package_weight } }],
    });

  // Spec doc 2 §9: the price call uses weight 1 when the weight is invalid.
  test.each(['0x10', '1e3', '1e-308', 1e-308, 'Infinity', '0b101', '12.345', '-5'])(
    'prices %j as an invalid weight: 1 lb',
    async (weight) => {
      const res = await quote(weight);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ totalPrice: 7 });
    },
  );

  test.each([
    ['2', 7],
    ['2.5', 8.95],
    [16, 8.95],
    [' 12 ', 8.95],
  ])('prices %j at its own weight', async (weight, total) => {
    expect((await quote(weight)).json()).toEqual({ totalPrice: total });
  });
});
