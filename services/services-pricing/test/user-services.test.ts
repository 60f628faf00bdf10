import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Caller, error, startTestPricing, type TestPricing } from './support';

let t: TestPricing;
let admin: Caller;
beforeAll(async () => {
  t = await startTestPricing();
  admin = t.caller('admin');
});
afterAll(() => t.close());

interface Wire {
  _id: string;
  uid: string;
  name: string;
  enabled: boolean;
  prices: { fromWeight: number; toWeight: number; price: number }[];
}

const available = async (caller: Caller, userId = caller.id) =>
  t.request(caller, 'GET', `/api/userServices/${userId}/available`);

const defaultId = async (uid: string) =>
  ((await t.request(admin, 'GET', '/api/defaultServices')).json() as Wire[]).find((s) => s.uid === uid)?._id;

describe('available services', () => {
  test('of a user without their own list are the enabled defaults, in the available-service shape', async () => {
    const user = t.caller();
    const res = await available(user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { uid: 'usps_priority_mail', name: 'USPS Priority Mail', category: 'USPS', maxWeight: 70 },
      { uid: 'usps_ground_advantage', name: 'USPS Ground Advantage', category: 'USPS', maxWeight: 70 },
      { uid: 'usps_priority_mail_express', name: 'USPS Priority Mail Express', category: 'USPS', maxWeight: 70 },
    ]);
  });

  test('leave out a disabled default', async () => {
    const id = await defaultId('usps_priority_mail_express');
    await t.request(admin, 'PATCH', `/api/defaultServices/${id}/toggle`, { enabled: false });
    const user = t.caller();
    expect(((await available(user)).json() as Wire[]).map((s) => s.uid)).toEqual([
      'usps_priority_mail',
      'usps_ground_advantage',
    ]);
    await t.request(admin, 'PATCH', `/api/defaultServices/${id}/toggle`, { enabled: true });
  });

  test('of another user are refused to a non-admin (403) and shown to an admin', async () => {
    const user = t.caller();
    const other = t.caller();
    expect(error(await available(other, user.id))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: 'You do not have permission to do this.',
    });
    expect((await available(admin, user.id)).statusCode).toBe(200);
  });

  test('of an initialised user come from their own list, not the defaults', async () => {
    const user = t.caller();
    await t.request(admin, 'POST', `/api/userServices/${user.id}/initialize`);
    await t.request(admin, 'PATCH', `/api/userServices/${user.id}/usps_ground_advantage/toggle`, { enabled: false });
    // A default disabled later does not touch a user who has their own copy.
    const express = await defaultId('usps_priority_mail_express');
    await t.request(admin, 'PATCH', `/api/defaultServices/${express}/toggle`, { enabled: false });
    expect(((await available(user)).json() as Wire[]).map((s) => s.uid)).toEqual([
      'usps_priority_mail',
      'usps_priority_mail_express',
    ]);
    expect(((await available(t.caller())).json() as Wire[]).map((s) => s.uid)).toEqual([
      'usps_priority_mail',
      'usps_ground_advantage',
    ]);
    await t.request(admin, 'PATCH', `/api/defaultServices/${express}/toggle`, { enabled: true });
  });
});

describe('per-user services', () => {
  test('are empty until initialised', async () => {
    const res = await t.request(admin, 'GET', `/api/userServices/${t.caller().id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  test('initialising copies every default, enabled and disabled, with its name and prices', async () => {
    const ground = await defaultId('usps_ground_advantage');
    await t.request(admin, 'PATCH', `/api/defaultServices/${ground}/toggle`, { enabled: false });
    await t.request(admin, 'PUT', `/api/defaultServices/${ground}/name`, { name: 'Ground' });
    const user = t.caller();
    const res = await t.request(admin, 'POST', `/api/userServices/${user.id}/initialize`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { message: string; services: Wire[] };
    expect(body.message).toBe('Services initialized successfully');
    expect(body.services.map((s) => [s.uid, s.name, s.enabled, s.prices])).toEqual([
      ['usps_priority_mail', 'USPS Priority Mail', true, [{ fromWeight: 1, toWeight: 70, price: 8.95 }]],
      ['usps_ground_advantage', 'Ground', false, [{ fromWeight: 1, toWeight: 70, price: 6.5 }]],
      [
        'usps_priority_mail_express',
        'USPS Priority Mail Express',
        true,
        [{ fromWeight: 1, toWeight: 70, price: 29.95 }],
      ],
    ]);
    expect(body.services.map((s) => s._id)).not.toContain(ground);
    await t.request(admin, 'PATCH', `/api/defaultServices/${ground}/toggle`, { enabled: true });
    await t.request(admin, 'PUT', `/api/defaultServices/${ground}/name`, { name: 'USPS Ground Advantage' });
  });

  test('initialising again changes nothing the admin set', async () => {
    const user = t.caller();
    await t.request(admin, 'POST', `/api/userServices/${user.id}/initialize`);
    await t.request(admin, 'PATCH', `/api/userServices/${user.id}/usps_priority_mail/toggle`, { enabled: false });
    const before = await t.db('user_services').where({ user_id: user.id }).orderBy('uid');
    const [a, b] = await Promise.all([
      t.request(admin, 'POST', `/api/userServices/${user.id}/initialize`),
      t.request(admin, 'POST', `/api/userServices/${user.id}/initialize`),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(await t.db('user_services').where({ user_id: user.id }).orderBy('uid')).toEqual(before);
  });

  test('toggle by service id, with the matching message', async () => {
    const user = t.caller();
    const init = (await t.request(admin, 'POST', `/api/userServices/${user.id}/initialize`)).json() as {
      services: Wire[];
    };
    const id = init.services.find((s) => s.uid === 'usps_priority_mail')?._id;
    const off = await t.request(admin, 'PATCH', `/api/userServices/${user.id}/${id}/toggle`, { enabled: false });
    expect(off.json()).toMatchObject({
      message: 'Service disabled successfully',
      service: { _id: id, uid: 'usps_priority_mail', enabled: false },
    });
    const on = await t.request(admin, 'PATCH', `/api/userServices/${user.id}/${id}/toggle`, { enabled: true });
    expect(on.json()).toMatchObject({ message: 'Service enabled successfully', service: { enabled: true } });
  });

  test('prices are replaced by a valid list and refused with the spec message otherwise', async () => {
    const user = t.caller();
    const ok = await t.request(admin, 'PUT', `/api/userServices/${user.id}/usps_priority_mail/prices`, {
      prices: [
        { fromWeight: 1, toWeight: 3, price: 5.5 },
        { fromWeight: 3, toWeight: 70, price: 7.25 },
      ],
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      message: 'Prices updated successfully',
      service: {
        prices: [
          { fromWeight: 1, toWeight: 3, price: 5.5 },
          { fromWeight: 3, toWeight: 70, price: 7.25 },
        ],
      },
    });
    const bad = await t.request(admin, 'PUT', `/api/userServices/${user.id}/usps_priority_mail/prices`, {
      prices: [
        { fromWeight: 1, toWeight: 3, price: 5.5 },
        { fromWeight: 2, toWeight: 70, price: 7.25 },
      ],
    });
    expect(error(bad)).toEqual({
      status: 400,
      code: 'PRICING_INVALID_PRICES',
      message:
        'Invalid price ranges. Please ensure ranges are continuous from 1 to max weight without gaps or overlaps.',
    });
    // The user's price now applies; defaults are untouched for everyone else.
    const quote = (u: Caller) =>
      t.request(u, 'POST', '/api/orders/price/v2/bulk', {
        userId: u.id,
        shipments: [
          { service_name: 'USPS Priority Mail', package: { package_weight: 2.5 } },
          { service_name: 'USPS Priority Mail', package: { package_weight: 4 } },
        ],
      });
    expect((await quote(user)).json()).toEqual({ totalPrice: 12.75 });
    expect((await quote(t.caller())).json()).toEqual({ totalPrice: 17.9 });
  });

  test('editing a user who is still on the defaults gives them their own copy of every default first', async () => {
    const user = t.caller();
    await t.request(admin, 'PATCH', `/api/userServices/${user.id}/usps_ground_advantage/toggle`, { enabled: false });
    const own = (await t.request(admin, 'GET', `/api/userServices/${user.id}`)).json() as Wire[];
    expect(own.map((s) => [s.uid, s.enabled])).toEqual([
      ['usps_priority_mail', true],
      ['usps_ground_advantage', false],
      ['usps_priority_mail_express', true],
    ]);
  });

  test('an unknown service of the user answers 404', async () => {
    const user = t.caller();
    const res = await t.request(admin, 'PATCH', `/api/userServices/${user.id}/nope/toggle`, { enabled: true });
    expect(error(res)).toEqual({ status: 404, code: 'PRICING_SERVICE_NOT_FOUND', message: 'Service not found' });
  });
});
