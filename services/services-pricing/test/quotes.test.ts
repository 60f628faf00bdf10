import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Caller, error, startTestPricing, type TestPricing } from './support';

let t: TestPricing;
let admin: Caller;
let user: Caller;
beforeAll(async () => {
  t = await startTestPricing();
  admin = t.caller('admin');
  user = t.caller();
});
afterAll(() => t.close());

const quote = (caller: Caller, shipments: unknown[], userId = caller.id) =>
  t.request(caller, 'POST', '/api/orders/price/v2/bulk', { userId, shipments });

const ship = (service_name: string, package_weight?: unknown) => ({
  service_name,
  package: package_weight === undefined ? {} : { package_weight },
});

describe('the public price call', () => {
  test('prices one label at the flat default price', async () => {
    const res = await quote(user, [ship('USPS Priority Mail', 3)]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ totalPrice: 8.95 });
  });

  test('adds up several labels by name or uid, any weight up to the maximum', async () => {
    const res = await quote(user, [
      ship('usps ground advantage', 0),
      ship('usps_priority_mail', ''),
      ship(' USPS Priority Mail Express ', 70),
      ship('USPS Ground Advantage'),
      { service_name: 'USPS Ground Advantage' },
    ]);
    expect(res.json()).toEqual({ totalPrice: 6.5 + 8.95 + 29.95 + 6.5 + 6.5 });
  });

  test('ignores any price the client sends', async () => {
    const res = await t.request(user, 'POST', '/api/orders/price/v2/bulk', {
      userId: user.id,
      totalPrice: 0.01,
      price: 0.01,
      shipments: [
        { service_name: 'USPS Priority Mail', price: 0.01, rate: 0, package: { package_weight: 1, price: 0 } },
      ],
    });
    expect(res.json()).toEqual({ totalPrice: 8.95 });
  });

  test('prices 10,000 labels exactly, in cents', async () => {
    const shipments = Array.from({ length: 10_000 }, (_, i) => ship('USPS Priority Mail', (i % 70) + 0.5));
    const res = await quote(
      user,
      shipments.map((s, i) => (i === 0 ? ship('USPS Priority Mail', 1) : s)),
    );
    expect(res.statusCode).toBe(200);
    // 10,000 additions of 8.95 in floating point would give 89499.99999999...
    expect(res.json()).toEqual({ totalPrice: 89_500 });
  });

  test('refuses more than 10,000 shipments', async () => {
    const res = await quote(
      user,
      Array.from({ length: 10_001 }, () => ship('USPS Priority Mail', 1)),
    );
    expect(res.statusCode).toBe(400);
  });

  test('refuses a weight over the maximum', async () => {
    expect(error(await quote(user, [ship('USPS Priority Mail', 1), ship('USPS Priority Mail', 71)]))).toEqual({
      status: 400,
      code: 'PRICING_WEIGHT_OVER_MAX',
      message: 'Weight 71 lb is over the 70 lb maximum for USPS Priority Mail',
    });
  });

  test('refuses an unknown service', async () => {
    expect(error(await quote(user, [ship('X', 1)]))).toEqual({
      status: 400,
      code: 'PRICING_SERVICE_UNKNOWN',
      message: 'Service "X" is not available',
    });
  });

  test("refuses a service disabled on the user's account", async () => {
    const own = t.caller();
    await t.request(admin, 'PATCH', `/api/userServices/${own.id}/usps_priority_mail/toggle`, { enabled: false });
    expect(error(await quote(own, [ship('USPS Priority Mail', 1)]))).toEqual({
      status: 400,
      code: 'PRICING_SERVICE_DISABLED',
      message: 'USPS Priority Mail is not available on your account',
    });
    expect((await quote(own, [ship('USPS Ground Advantage', 1)])).json()).toEqual({ totalPrice: 6.5 });
  });

  test("refuses another user's id in the body (403), and lets an admin quote for a user", async () => {
    expect(error(await quote(t.caller(), [ship('USPS Priority Mail', 1)], user.id))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: 'You do not have permission to do this.',
    });
    expect((await quote(admin, [ship('USPS Priority Mail', 1)], user.id)).json()).toEqual({ totalPrice: 8.95 });
  });

  test('needs a token', async () => {
    expect((await quote({ id: user.id, token: '' }, [ship('USPS Priority Mail', 1)], user.id)).statusCode).toBe(401);
  });

  test('of no shipments is 0', async () => {
    expect((await quote(user, [])).json()).toEqual({ totalPrice: 0 });
  });
});

describe('the internal quote', () => {
  test('answers each item in cents with its billed weight, and the total', async () => {
    const res = await t.internal('POST', '/internal/quotes', {
      userId: user.id,
      shipments: [
        { service_name: 'USPS Priority Mail', weight: 1.2 },
        { service_name: 'usps_ground_advantage', weight: 0 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      items: [
        { serviceUid: 'usps_priority_mail', serviceName: 'USPS Priority Mail', billedWeight: 2, priceCents: 895 },
        { serviceUid: 'usps_ground_advantage', serviceName: 'USPS Ground Advantage', billedWeight: 1, priceCents: 650 },
      ],
      totalCents: 1545,
    });
  });

  test('refuses with the same errors as the public call', async () => {
    const res = await t.internal('POST', '/internal/quotes', {
      userId: user.id,
      shipments: [{ service_name: 'USPS Priority Mail', weight: 71 }],
    });
    expect(error(res)).toEqual({
      status: 400,
      code: 'PRICING_WEIGHT_OVER_MAX',
      message: 'Weight 71 lb is over the 70 lb maximum for USPS Priority Mail',
    });
  });

  test('is closed without the internal secret', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/internal/quotes',
      headers: { 'x-internal-secret': 'wrong-secret-wrong-secret' },
      payload: { userId: user.id, shipments: [] },
    });
    expect(res.statusCode).toBe(403);
  });

  test("lists the user's buyable services", async () => {
    const own = t.caller();
    await t.request(admin, 'PATCH', `/api/userServices/${own.id}/usps_ground_advantage/toggle`, { enabled: false });
    const res = await t.internal('GET', `/internal/services/${own.id}/effective`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { services: { uid: string }[] }).services.map((s) => s.uid)).toEqual([
      'usps_priority_mail',
      'usps_priority_mail_express',
    ]);
  });
});

describe('the services a quote is priced with', () => {
  test("are the user's own once they have any, the defaults otherwise, and a price change counts from the next quote", async () => {
    const own = t.caller();
    const other = t.caller();
    expect((await quote(own, [ship('USPS Priority Mail', 1)])).json()).toEqual({ totalPrice: 8.95 });

    // A price of the user's own: their list starts as a copy of the defaults.
    const set = await t.request(admin, 'PUT', `/api/userServices/${own.id}/usps_priority_mail/prices`, {
      prices: [{ fromWeight: 1, toWeight: 70, price: 5 }],
    });
    expect(set.statusCode).toBe(200);
    expect((await quote(own, [ship('USPS Priority Mail', 1)])).json()).toEqual({ totalPrice: 5 });
    expect((await quote(other, [ship('USPS Priority Mail', 1)])).json()).toEqual({ totalPrice: 8.95 });

    // A default price: for everyone without a list of their own, at once.
    const defaults = (await t.request(admin, 'GET', '/api/defaultServices')).json() as { _id: string; uid: string }[];
    const groundId = defaults.find((s) => s.uid === 'usps_ground_advantage')!._id;
    const put = (price: number) =>
      t.request(admin, 'PUT', `/api/defaultServices/${groundId}/prices`, {
        prices: [{ fromWeight: 1, toWeight: 70, price }],
      });
    try {
      expect((await put(7.25)).statusCode).toBe(200);
      expect((await quote(other, [ship('USPS Ground Advantage', 1)])).json()).toEqual({ totalPrice: 7.25 });
      expect((await quote(own, [ship('USPS Ground Advantage', 1)])).json()).toEqual({ totalPrice: 6.5 });
    } finally {
      await put(6.5);
    }
  });
});

describe('how much a call may carry', () => {
  // Only the price call takes a whole bulk order; any other call is a few kilobytes at most.
  test('a price list over the usual limit is refused with 413 before it is read', async () => {
    const prices = Array.from({ length: 20_000 }, () => ({
      fromWeight: 1,
      toWeight: 70,
      price: 1,
      note: 'x'.repeat(40),
    }));
    const res = await t.request(admin, 'PUT', '/api/defaultServices/usps_priority_mail/prices', { prices });
    expect(res.statusCode).toBe(413);
  });

  test('a quote of the most rows, each a whole shipment, is read', async () => {
    const shipment = { ...ship('USPS Priority Mail', 3), to: { name: 'x'.repeat(200), street1: 'y'.repeat(200) } };
    const res = await quote(
      user,
      Array.from({ length: 10_000 }, () => shipment),
    );
    expect(res.statusCode).toBe(200);
  });
});
