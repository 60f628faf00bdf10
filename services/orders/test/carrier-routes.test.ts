import { randomUUID } from 'node:crypto';
import { createCarrierSet, easyPostSettings, type LabelRequest } from '@flatship/carriers';
import { type FakeEasyPost, startFakeEasyPost } from '@flatship/carriers/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createCarrierMemory } from '../src/db/carrier-memory';
import { createCarrierRouteStore } from '../src/db/carrier-routes';
import { type Stack, startStack } from './stack';
import { INTERNAL_SECRET, orderBody, postOrder, user } from './support';

// An admin switches a service between the enabled carriers (through admin, which calls these internal routes):
// orders checks the route against its carriers, keeps it in its database, and follows it at once; a label worker's
// carrier set, reading the same table, follows it at its next purchase after its refresh period.

let fake: FakeEasyPost;
let s: Stack;
const settings = () => easyPostSettings({ EASYPOST_API_KEY: fake.testKey, EASYPOST_API_BASE_URL: fake.url });

beforeAll(async () => {
  fake = await startFakeEasyPost();
  s = await startStack({ carriers: 'sandbox-usps,easypost', carrierSettings: { easypost: settings() } });
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

const internal = (method: 'GET' | 'PUT', body?: unknown, secret: string | null = INTERNAL_SECRET) =>
  s.app.inject({
    method,
    url: '/internal/carrier-routes',
    headers: secret ? { 'x-internal-secret': secret } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });

const routeOf = (reply: { routes: { serviceUid: string; carriers: string[] }[] }, uid: string) =>
  reply.routes.find((r) => r.serviceUid === uid)?.carriers;

const labelRequest = (serviceUid: string): LabelRequest => ({
  idempotencyKey: randomUUID(),
  serviceUid,
  from: { name: 'Ann Lee', street1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
  to: { name: 'Bo Chen', street1: '2 Oak Ave', city: 'Denver', state: 'CO', zip: '80202', country: 'US' },
  parcel: { length: 10, width: 8, height: 4, weightLb: 1 },
});

test('the routes are internal: no secret, no answer', async () => {
  expect((await internal('GET', undefined, null)).statusCode).toBe(403);
  expect((await internal('PUT', { routes: [], updatedBy: null }, 'wrong')).statusCode).toBe(403);
});

test('a switch is checked against the enabled carriers, kept, and followed by orders and by a label worker', async () => {
  const before = await internal('GET');
  expect(before.statusCode, before.body).toBe(200);
  expect(routeOf(before.json(), 'usps_priority_mail')).toEqual(['sandbox-usps', 'easypost']);

  // Refused, naming what is wrong; nothing kept.
  const refused = await internal('PUT', {
    routes: [{ serviceUid: 'usps_priority_mail', carriers: ['usps'] }],
    updatedBy: null,
  });
  expect(refused.statusCode).toBe(400);
  expect(refused.json()).toEqual({
    code: 'VALIDATION_FAILED',
    message: 'The route cannot be used: carrier usps is not enabled (CARRIERS=sandbox-usps,easypost).',
  });
  expect(await s.db('carrier_routes')).toEqual([]);
  expect((await internal('PUT', { routes: [{ serviceUid: 'x', carriers: [] }], updatedBy: null })).statusCode).toBe(
    400,
  );

  const adminId = randomUUID();
  const saved = await internal('PUT', {
    routes: [{ serviceUid: 'usps_priority_mail', carriers: ['easypost', 'sandbox-usps'] }],
    updatedBy: adminId,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(routeOf(saved.json(), 'usps_priority_mail')).toEqual(['easypost', 'sandbox-usps']);
  expect(routeOf(saved.json(), 'usps_ground_advantage')).toEqual(['sandbox-usps', 'easypost']);
  expect(await s.db('carrier_routes').select('service_uid', 'carriers', 'updated_by')).toEqual([
    { service_uid: 'usps_priority_mail', carriers: ['easypost', 'sandbox-usps'], updated_by: adminId },
  ]);

  // Orders follows it at once: a customer's Priority Mail label is bought from EasyPost.
  const u = user(s);
  await s.setBalance(u.id, 10_000);
  const bought = await postOrder(s, u, orderBody(u.id));
  expect(bought.statusCode, bought.body).toBe(201);
  expect(fake.buys).toBe(1);
  expect(await s.db('labels').where({ id: bought.json().data.orderId }).first('carrier_id')).toEqual({
    carrier_id: 'easypost',
  });

  // A label worker's set over the same table (refreshing at every purchase here) follows the switch and each change.
  const worker = createCarrierSet('sandbox-usps,easypost', {
    easypost: settings(),
    memory: createCarrierMemory(s.db),
    routeStore: createCarrierRouteStore(s.db),
    routeRefreshMs: 0,
  });
  try {
    expect(await worker.purchaseLabel(labelRequest('usps_priority_mail'))).toMatchObject({ carrierId: 'easypost' });
    expect(await worker.purchaseLabel(labelRequest('usps_ground_advantage'))).toMatchObject({
      carrierId: 'sandbox-usps',
    });
    const back = await internal('PUT', {
      routes: [{ serviceUid: 'usps_priority_mail', carriers: ['sandbox-usps'] }],
      updatedBy: adminId,
    });
    expect(routeOf(back.json(), 'usps_priority_mail')).toEqual(['sandbox-usps']);
    expect(await worker.purchaseLabel(labelRequest('usps_priority_mail'))).toMatchObject({
      carrierId: 'sandbox-usps',
    });
    expect(fake.buys).toBe(2);
  } finally {
    await worker.close();
  }
});
