import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDomainDeps } from '../src/app';
import { syncServices } from '../src/domain/sync-services';
import { error, startTestPricing, type TestPricing, USPS } from './support';

let t: TestPricing;
beforeAll(async () => {
  t = await startTestPricing();
});
afterAll(() => t.close());

const snapshot = async () => ({
  raw: await t.db('raw_services').orderBy('uid'),
  defaults: await t.db('default_services').orderBy('uid'),
});

describe('syncing with the carrier', () => {
  test('a new install has every carrier service as a raw service and a default with one flat price', async () => {
    const raw = await t
      .db('raw_services')
      .orderBy('uid')
      .select('uid', 'name', 'category', 'carrier', 'max_weight', 'status');
    expect(raw).toEqual(
      [...USPS]
        .sort((a, b) => a.uid.localeCompare(b.uid))
        .map((s) => ({
          uid: s.uid,
          name: s.name,
          category: s.category,
          carrier: s.carrier,
          max_weight: s.maxWeight,
          status: 'active',
        })),
    );
    const defaults = await t.db('default_services').orderBy('uid').select('uid', 'name', 'enabled', 'prices');
    expect(defaults).toEqual([
      {
        uid: 'usps_ground_advantage',
        name: 'USPS Ground Advantage',
        enabled: true,
        prices: [{ fromWeight: 1, toWeight: 70, priceCents: 650 }],
      },
      {
        uid: 'usps_priority_mail',
        name: 'USPS Priority Mail',
        enabled: true,
        prices: [{ fromWeight: 1, toWeight: 70, priceCents: 895 }],
      },
      {
        uid: 'usps_priority_mail_express',
        name: 'USPS Priority Mail Express',
        enabled: true,
        prices: [{ fromWeight: 1, toWeight: 70, priceCents: 2995 }],
      },
    ]);
  });

  test('is idempotent: syncing twice leaves exactly the same rows', async () => {
    const before = await snapshot();
    await syncServices(t.domain);
    await syncServices(t.domain);
    expect(await snapshot()).toEqual(before);
  });

  test('replicas syncing at the same moment create each service once', async () => {
    const db2 = createDomainDeps({ db: t.db, source: t.carrier, logger: false });
    await t.db('default_services').del();
    await Promise.all([syncServices(t.domain), syncServices(db2), syncServices(t.domain)]);
    expect(await t.db('default_services').count<{ count: string }[]>('* as count')).toEqual([{ count: '3' }]);
  });

  test('keeps names and prices an admin changed', async () => {
    const admin = t.caller('admin');
    const list = (await t.request(admin, 'GET', '/api/defaultServices')).json() as { _id: string; uid: string }[];
    const id = list.find((s) => s.uid === 'usps_priority_mail')?._id;
    await t.request(admin, 'PUT', `/api/defaultServices/${id}/name`, { name: 'Priority' });
    await t.request(admin, 'PUT', `/api/defaultServices/${id}/prices`, {
      prices: [
        { fromWeight: 1, toWeight: 10, price: 7 },
        { fromWeight: 10, toWeight: 70, price: 9 },
      ],
    });
    const synced = (await t.request(admin, 'POST', '/api/defaultServices/sync')).json() as {
      uid: string;
      name: string;
      prices: unknown;
    }[];
    const priority = synced.find((s) => s.uid === 'usps_priority_mail');
    expect(priority?.name).toBe('Priority');
    expect(priority?.prices).toEqual([
      { fromWeight: 1, toWeight: 10, price: 7 },
      { fromWeight: 10, toWeight: 70, price: 9 },
    ]);
  });

  test('the sync call is sent as the spec sends it: an empty body declared JSON', async () => {
    const admin = t.caller('admin');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/defaultServices/sync',
      headers: { token: admin.token, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { uid: string }[]).map((s) => s.uid)).toContain('usps_priority_mail');
  });

  test('marks a service the carrier dropped inactive, and active again when it returns', async () => {
    const admin = t.caller('admin');
    t.carrier.set(USPS.filter((s) => s.uid !== 'usps_priority_mail_express'));
    const synced = (await t.request(admin, 'POST', '/api/defaultServices/sync')).json() as {
      uid: string;
      status: string;
    }[];
    expect(synced.find((s) => s.uid === 'usps_priority_mail_express')?.status).toBe('inactive');
    const raw = (await t.request(admin, 'GET', '/api/rawServices')).json() as { uid: string; status: string }[];
    expect(raw.find((s) => s.uid === 'usps_priority_mail_express')?.status).toBe('inactive');

    const user = t.caller();
    const available = (await t.request(user, 'GET', `/api/userServices/${user.id}/available`)).json() as {
      uid: string;
    }[];
    expect(available.map((s) => s.uid)).not.toContain('usps_priority_mail_express');
    const quote = await t.request(user, 'POST', '/api/orders/price/v2/bulk', {
      userId: user.id,
      shipments: [{ service_name: 'usps_priority_mail_express', package: { package_weight: 1 } }],
    });
    expect(error(quote)).toEqual({
      status: 400,
      code: 'PRICING_SERVICE_UNKNOWN',
      message: 'Service "usps_priority_mail_express" is not available',
    });

    t.carrier.set(USPS);
    await syncServices(t.domain);
    const back = (await t.request(admin, 'GET', '/api/rawServices')).json() as { uid: string; status: string }[];
    expect(back.every((s) => s.status === 'active')).toBe(true);
  });

  test('a service the carrier adds later is created disabled until an admin prices it', async () => {
    t.carrier.set([
      ...USPS,
      { uid: 'usps_media_mail', name: 'USPS Media Mail', category: 'USPS', carrier: 'usps', maxWeight: 70 },
    ]);
    const synced = await syncServices(t.domain);
    const media = synced.find((s) => s.uid === 'usps_media_mail');
    expect(media?.enabled).toBe(false);
    expect(media?.prices).toEqual([{ fromWeight: 1, toWeight: 70, priceCents: 2995 }]);
    t.carrier.set(USPS);
    await syncServices(t.domain);
  });

  test('a new maximum weight from the carrier reshapes default and per-user price lists to end there', async () => {
    const admin = t.caller('admin');
    const user = t.caller();
    await t.request(admin, 'POST', `/api/userServices/${user.id}/initialize`);
    await t.request(admin, 'PUT', `/api/userServices/${user.id}/usps_ground_advantage/prices`, {
      prices: [
        { fromWeight: 1, toWeight: 5, price: 4 },
        { fromWeight: 5, toWeight: 50, price: 6 },
        { fromWeight: 50, toWeight: 70, price: 9 },
      ],
    });
    t.carrier.set(USPS.map((s) => (s.uid === 'usps_ground_advantage' ? { ...s, maxWeight: 40 } : s)));
    const synced = await syncServices(t.domain);
    expect(synced.find((s) => s.uid === 'usps_ground_advantage')).toMatchObject({
      maxWeight: 40,
      prices: [{ fromWeight: 1, toWeight: 40, priceCents: 650 }],
    });
    const own = (await t.request(admin, 'GET', `/api/userServices/${user.id}`)).json() as {
      uid: string;
      maxWeight: number;
      prices: unknown;
    }[];
    expect(own.find((s) => s.uid === 'usps_ground_advantage')).toMatchObject({
      maxWeight: 40,
      prices: [
        { fromWeight: 1, toWeight: 5, price: 4 },
        { fromWeight: 5, toWeight: 40, price: 6 },
      ],
    });
    t.carrier.set(USPS);
    await syncServices(t.domain);
  });
});
