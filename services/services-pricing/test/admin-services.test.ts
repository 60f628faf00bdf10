import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MESSAGES } from '../src/domain/messages';
import { type Caller, error, startTestPricing, type TestPricing } from './support';

let t: TestPricing;
let admin: Caller;
let user: Caller;
interface Wire {
  _id: string;
  uid: string;
  name: string;
  enabled: boolean;
  status: string;
  prices: { fromWeight: number; toWeight: number; price: number }[];
}
let priorityId: string;

beforeAll(async () => {
  t = await startTestPricing();
  admin = t.caller('admin');
  user = t.caller('user');
  const list = (await t.request(admin, 'GET', '/api/defaultServices')).json() as Wire[];
  priorityId = list.find((s) => s.uid === 'usps_priority_mail')?._id as string;
});
afterAll(() => t.close());

describe('admin routes refuse', () => {
  const routes: [string, 'GET' | 'POST' | 'PUT' | 'PATCH', string, unknown?][] = [
    ['raw services', 'GET', '/api/rawServices'],
    ['default services', 'GET', '/api/defaultServices'],
    ['sync', 'POST', '/api/defaultServices/sync'],
    ['toggle', 'PATCH', '/api/defaultServices/ID/toggle', { enabled: false }],
    ['prices', 'PUT', '/api/defaultServices/ID/prices', { prices: [{ fromWeight: 1, toWeight: 70, price: 0 }] }],
    ['name', 'PUT', '/api/defaultServices/ID/name', { name: 'Cheap' }],
    ['user services', 'GET', '/api/userServices/USER'],
    ['initialize', 'POST', '/api/userServices/USER/initialize'],
    ['user prices', 'PUT', '/api/userServices/USER/usps_priority_mail/prices', { prices: [] }],
    ['user toggle', 'PATCH', '/api/userServices/USER/usps_priority_mail/toggle', { enabled: true }],
  ];
  const url = (u: string) => u.replace('ID', priorityId).replace('USER', user.id);

  test.each(routes)('%s to a signed-in non-admin, even for their own id (403)', async (_n, method, path, body) => {
    for (const role of ['user', 'friend'] as const) {
      const caller = role === 'user' ? user : t.caller('friend');
      const res = await t.request(caller, method, url(path), body);
      expect(error(res)).toEqual({
        status: 403,
        code: 'FORBIDDEN',
        message: 'You do not have permission to do this.',
      });
    }
  });

  test.each(routes)('%s without a token (401)', async (_n, method, path, body) => {
    const res = await t.request(null, method, url(path), body);
    expect(error(res)).toEqual({ status: 401, code: 'AUTH_MISSING_TOKEN', message: 'Please log in to continue.' });
  });

  test('a blocked admin', async () => {
    const blocked = t.caller('admin');
    t.states.set(blocked.id, { id: blocked.id, role: 'admin', activation: 'block', tokenVersion: 1 });
    expect((await t.request(blocked, 'GET', '/api/defaultServices')).statusCode).toBe(403);
  });

  test('a token of an older version', async () => {
    const old = t.caller('admin');
    t.states.set(old.id, { id: old.id, role: 'admin', activation: 'allow', tokenVersion: 2 });
    expect(error(await t.request(old, 'GET', '/api/defaultServices')).code).toBe('AUTH_TOKEN_REVOKED');
  });
});

describe('raw and default services', () => {
  test('raw services list what the carrier offers', async () => {
    const res = await t.request(admin, 'GET', '/api/rawServices');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual({
      _id: expect.any(String),
      uid: 'usps_priority_mail',
      name: 'USPS Priority Mail',
      category: 'USPS',
      carrier: 'usps',
      maxWeight: 70,
      status: 'active',
    });
  });

  test('default services are listed in the configured-service shape with prices in dollars', async () => {
    const res = await t.request(admin, 'GET', '/api/defaultServices');
    expect(res.json()).toContainEqual({
      _id: priorityId,
      uid: 'usps_priority_mail',
      name: 'USPS Priority Mail',
      category: 'USPS',
      maxWeight: 70,
      status: 'active',
      enabled: true,
      prices: [{ fromWeight: 1, toWeight: 70, price: 8.95 }],
    });
  });

  test('sync answers the default list', async () => {
    const res = await t.request(admin, 'POST', '/api/defaultServices/sync');
    expect(res.statusCode).toBe(200);
    expect((res.json() as Wire[]).map((s) => s.uid).sort()).toEqual([
      'usps_ground_advantage',
      'usps_priority_mail',
      'usps_priority_mail_express',
    ]);
  });

  test('sync as the client sends it: an empty body declared as JSON (spec doc 3 §7)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/defaultServices/sync',
      headers: { token: admin.token, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as Wire[]).map((s) => s.uid)).toContain('usps_priority_mail');
  });

  test('sync with a broken JSON body is still refused, naming the problem', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/defaultServices/sync',
      headers: { token: admin.token, 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(error(res)).toEqual({ status: 400, code: 'BAD_JSON', message: 'The request body is not valid JSON' });
  });
});

describe('toggling a default service', () => {
  test('disables and enables it, with the matching message', async () => {
    const off = await t.request(admin, 'PATCH', `/api/defaultServices/${priorityId}/toggle`, { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ message: 'Service disabled successfully', service: { enabled: false } });
    const on = await t.request(admin, 'PATCH', `/api/defaultServices/${priorityId}/toggle`, { enabled: true });
    expect(on.json()).toMatchObject({ message: 'Service enabled successfully', service: { enabled: true } });
  });

  test('needs a boolean', async () => {
    const res = await t.request(admin, 'PATCH', `/api/defaultServices/${priorityId}/toggle`, {});
    expect(error(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED', message: 'enabled is required' });
  });

  test('of an unknown id answers 404; a malformed id is refused naming it', async () => {
    const res = await t.request(admin, 'PATCH', '/api/defaultServices/00000000-0000-4000-8000-000000000000/toggle', {
      enabled: true,
    });
    expect(error(res)).toEqual({ status: 404, code: 'PRICING_SERVICE_NOT_FOUND', message: 'Service not found' });
    const malformed = await t.request(admin, 'PATCH', '/api/defaultServices/not-a-uuid/toggle', { enabled: true });
    expect(error(malformed)).toEqual({ status: 400, code: 'VALIDATION_FAILED', message: 'id is not a valid id' });
  });
});

describe('default service prices', () => {
  test('are replaced by a valid list, answered sorted', async () => {
    const res = await t.request(admin, 'PUT', `/api/defaultServices/${priorityId}/prices`, {
      prices: [
        { fromWeight: 20, toWeight: 70, price: 12 },
        { fromWeight: 1, toWeight: 20, price: 8.95 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Prices updated successfully',
      service: {
        prices: [
          { fromWeight: 1, toWeight: 20, price: 8.95 },
          { fromWeight: 20, toWeight: 70, price: 12 },
        ],
      },
    });
    const stored = await t.db('default_services').where({ id: priorityId }).first('prices');
    expect(stored.prices).toEqual([
      { fromWeight: 1, toWeight: 20, priceCents: 895 },
      { fromWeight: 20, toWeight: 70, priceCents: 1200 },
    ]);
  });

  test('with a gap are refused with the spec message and nothing changes', async () => {
    const before = await t.db('default_services').where({ id: priorityId }).first('prices');
    const res = await t.request(admin, 'PUT', `/api/defaultServices/${priorityId}/prices`, {
      prices: [
        { fromWeight: 1, toWeight: 20, price: 1 },
        { fromWeight: 21, toWeight: 70, price: 2 },
      ],
    });
    expect(error(res)).toEqual({ status: 400, code: 'PRICING_INVALID_PRICES', message: MESSAGES.invalidRanges });
    expect(await t.db('default_services').where({ id: priorityId }).first('prices')).toEqual(before);
  });

  test('not ending at the maximum weight are refused', async () => {
    const res = await t.request(admin, 'PUT', `/api/defaultServices/${priorityId}/prices`, {
      prices: [{ fromWeight: 1, toWeight: 69, price: 1 }],
    });
    expect(res.json()).toMatchObject({
      message:
        'Invalid price ranges. Please ensure ranges are continuous from 1 to max weight without gaps or overlaps.',
    });
  });

  test('with a negative price are refused', async () => {
    const res = await t.request(admin, 'PUT', `/api/defaultServices/${priorityId}/prices`, {
      prices: [{ fromWeight: 1, toWeight: 70, price: -1 }],
    });
    expect(error(res)).toEqual({
      status: 400,
      code: 'PRICING_INVALID_PRICES',
      message: 'Price must be 0 or more with at most 2 decimals',
    });
  });
});

describe('renaming a default service', () => {
  test('stores the trimmed name', async () => {
    const res = await t.request(admin, 'PUT', `/api/defaultServices/${priorityId}/name`, {
      name: '  Priority Mail  ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Service name updated successfully',
      service: { _id: priorityId, name: 'Priority Mail' },
    });
  });

  test('to blank is refused', async () => {
    for (const name of ['', '   ']) {
      const res = await t.request(admin, 'PUT', `/api/defaultServices/${priorityId}/name`, { name });
      expect(error(res)).toEqual({ status: 400, code: 'PRICING_NAME_EMPTY', message: 'Service name cannot be empty' });
    }
  });

  test("to another service's name is refused, since shipments name their service", async () => {
    const res = await t.request(admin, 'PUT', `/api/defaultServices/${priorityId}/name`, {
      name: 'usps ground advantage',
    });
    expect(error(res)).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'Another service is already named "usps ground advantage"',
    });
  });

  test('renamed, the service is quoted under its new name', async () => {
    const res = await t.request(user, 'POST', '/api/orders/price/v2/bulk', {
      userId: user.id,
      shipments: [{ service_name: 'priority mail', package: { package_weight: 1 } }],
    });
    expect(res.json()).toEqual({ totalPrice: 8.95 });
  });
});
