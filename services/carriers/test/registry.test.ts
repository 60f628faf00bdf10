import { DEFAULT_COURIER } from '@flatship/proto';
import { describe, expect, it, test, vi } from 'vitest';
import {
  CARRIER_PLUGINS,
  type CarrierPlugin,
  carrierListProblem,
  courierOfService,
  createCarrierSet,
  createProcessMemory,
  createSandboxCarrier,
  DEFAULT_CARRIERS,
  DEFAULT_SANDBOX_CARRIER_BALANCE,
  easyPostSettings,
  findCarrierByCourier,
  type LabelRequest,
  refusal,
  type ServiceRoute,
} from '../src/index';

const address = {
  name: 'Ann Lee',
  street1: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  country: 'US' as const,
};
const request = (serviceUid: string): LabelRequest => ({
  idempotencyKey: 'registry-key',
  serviceUid,
  from: address,
  to: { ...address, name: 'Bo Chen' },
  parcel: { length: 6, width: 4, height: 2, weightLb: 2 },
});

describe('carrier registry', () => {
  it('sells the sandbox alone by default', async () => {
    expect(DEFAULT_CARRIERS).toBe('sandbox-usps');
    const set = createCarrierSet(DEFAULT_CARRIERS);
    expect(set.couriers).toEqual(['usps']);
    expect(set.services().map((s) => s.uid)).toEqual([
      'usps_priority_mail',
      'usps_ground_advantage',
      'usps_priority_mail_express',
    ]);
    const bought = await set.purchaseLabel(request('usps_priority_mail'));
    expect(bought).toMatchObject({ ok: true, trackingNumber: expect.stringMatching(/^93055\d{17}$/) });
    // Services of carriers that are not enabled are not sold; the first carrier refuses them in its own words.
    expect(await set.purchaseLabel(request('test_parcel_standard'))).toEqual({
      ok: false,
      message: 'Unknown service test_parcel_standard for carrier usps',
      retryable: false,
      code: 'SERVICE_UNKNOWN',
    });
    await set.close();
  });

  it('sends each purchase to the carrier that sells its service', async () => {
    const set = createCarrierSet('sandbox-usps, test-parcel');
    expect(set.couriers).toEqual(['usps', 'test-parcel']);
    expect(set.services().map((s) => s.carrier)).toEqual(['usps', 'usps', 'usps', 'test-parcel']);
    const parcel = await set.purchaseLabel(request('test_parcel_standard'));
    if (!parcel.ok) throw new Error(parcel.message);
    expect(parcel.trackingNumber).toMatch(/^TP\d{12}$/);
    expect(parcel.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // Same key, same label.
    expect(await set.purchaseLabel(request('test_parcel_standard'))).toMatchObject({
      trackingNumber: parcel.trackingNumber,
    });
    expect(await set.purchaseLabel(request('usps_ground_advantage'))).toMatchObject({
      ok: true,
      serviceUid: 'usps_ground_advantage',
    });
    await set.close();
  });

  it('names a bad carrier id', () => {
    expect(carrierListProblem('sandbox-usps,ups')).toBe(
      'unknown carrier "ups"; known carriers: sandbox-usps, test-parcel, usps, easypost',
    );
    expect(carrierListProblem(' , ')).toBe('no carrier given');
    expect(carrierListProblem('test-parcel,sandbox-usps')).toBeNull();
    expect(() => createCarrierSet('fedex')).toThrow('CARRIERS="fedex": unknown carrier "fedex"');
  });

  it('knows every carrier by its courier and services, enabled or not', () => {
    expect(CARRIER_PLUGINS.map((p) => p.id)).toEqual(['sandbox-usps', 'test-parcel', 'usps', 'easypost']);
    expect(findCarrierByCourier('usps')?.marketplaceCodes.amazon).toEqual({ carrierCode: 'USPS', carrierName: 'USPS' });
    expect(findCarrierByCourier('usps')?.marketplaceCodes.walmart).toEqual({
      carrierCode: 'USPS',
      carrierName: 'USPS',
    });
    // Every USPS-selling plugin names USPS as TikTok Shop lists it.
    for (const plugin of CARRIER_PLUGINS.filter((p) => p.courier === 'usps')) {
      expect(plugin.marketplaceCodes.tiktok, plugin.id).toEqual({ carrierCode: 'USPS', carrierName: 'USPS' });
    }
    expect(findCarrierByCourier('test-parcel')?.name).toBe('Test Parcel');
    expect(findCarrierByCourier('dhl')).toBeNull();
    expect(courierOfService('usps_priority_mail_express')).toBe('usps');
    expect(courierOfService('test_parcel_standard')).toBe('test-parcel');
    expect(courierOfService('nope')).toBeNull();
  });

  it('lists the same services in its metadata as its adapter sells', () => {
    // Settings a live carrier needs to be built; nothing is called.
    const usps = {
      USPS_CLIENT_ID: 'id',
      USPS_CLIENT_SECRET: 'secret',
      USPS_CRID: '12345678',
      USPS_MID: '123456',
      USPS_MANIFEST_MID: '123456',
      USPS_EPS_ACCOUNT: '1000000000',
    };
    for (const plugin of CARRIER_PLUGINS) {
      const adapter = plugin.create({ usps, easypost: easyPostSettings({ EASYPOST_API_KEY: 'EZTK0000000000000000' }) });
      expect(adapter.services()).toEqual(plugin.services);
      expect(adapter.id).toBe(plugin.courier);
    }
  });
});

test("the default carriers' first courier is the one a new order row starts with", () => {
  expect(createCarrierSet(DEFAULT_CARRIERS).couriers[0]).toBe(DEFAULT_COURIER);
});

describe('carrier account balances', () => {
  test('a simulated carrier reports the configured balance; the set gives each enabled carrier and the sum', async () => {
    const set = createCarrierSet('sandbox-usps,test-parcel', { sandboxBalanceCents: 123_456 });
    expect(await set.balances()).toEqual([
      { id: 'sandbox-usps', name: 'USPS', balanceCents: 123_456 },
      { id: 'test-parcel', name: 'Test Parcel', balanceCents: 123_456 },
    ]);
    expect(await set.balance()).toBe(246_912);
    await set.close();
  });

  test('without a configured figure the sandbox holds the default', async () => {
    const set = createCarrierSet(DEFAULT_CARRIERS);
    expect(await set.balances()).toEqual([
      { id: 'sandbox-usps', name: 'USPS', balanceCents: DEFAULT_SANDBOX_CARRIER_BALANCE * 100 },
    ]);
    expect(DEFAULT_SANDBOX_CARRIER_BALANCE).toBe(10_000);
    await set.close();
  });
});

describe('services sold by more than one carrier', () => {
  /** A carrier selling USPS services that answers as it is told, counting what it really bought. */
  function scriptedPlugin(id: string) {
    const state = {
      answer: 'buy' as 'buy' | 'locked-out' | 'timed-out',
      bought: [] as string[],
      voided: [] as string[],
    };
    const sandbox = createSandboxCarrier();
    const plugin: CarrierPlugin = {
      id,
      courier: 'usps',
      name: `USPS via ${id}`,
      marketplaceCodes: { amazon: { carrierCode: 'USPS', carrierName: 'USPS' } },
      services: sandbox.services(),
      create: () => ({
        ...sandbox,
        id: 'usps',
        async purchaseLabel(req) {
          if (state.answer === 'locked-out') return { ...refusal('ACCOUNT_PROBLEM'), nothingBought: true as const };
          if (state.answer === 'timed-out') return refusal('UNAVAILABLE', id);
          const result = await sandbox.purchaseLabel(req);
          if (result.ok && !state.bought.includes(req.idempotencyKey)) state.bought.push(req.idempotencyKey);
          return result;
        },
        async voidLabel(req) {
          state.voided.push(req.trackingNumber);
          return { ok: true, status: 'refunded' };
        },
      }),
    };
    return { plugin, state };
  }

  const direct = scriptedPlugin('direct');
  const broker = scriptedPlugin('broker');
  const registry = [...CARRIER_PLUGINS, direct.plugin, broker.plugin];
  const make = (memory = createProcessMemory()) => ({
    memory,
    set: createCarrierSet('direct,broker', { memory }, registry),
  });
  const buy = (set: ReturnType<typeof make>['set'], key: string) =>
    set.purchaseLabel({ ...request('usps_priority_mail'), idempotencyKey: key });

  test('both may be enabled; each service is routed to them in CARRIERS order, and an admin can switch it', () => {
    expect(carrierListProblem('direct,broker', registry)).toBeNull();
    const { set } = make();
    expect(set.couriers).toEqual(['usps']);
    expect(set.services().map((s) => s.uid)).toEqual([
      'usps_priority_mail',
      'usps_ground_advantage',
      'usps_priority_mail_express',
    ]);
    expect(set.routes()).toContainEqual({ serviceUid: 'usps_priority_mail', carriers: ['direct', 'broker'] });
    set.setRoutes([{ serviceUid: 'usps_priority_mail', carriers: ['broker', 'direct'] }]);
    expect(set.routes()).toContainEqual({ serviceUid: 'usps_priority_mail', carriers: ['broker', 'direct'] });
    expect(() => set.setRoutes([{ serviceUid: 'usps_priority_mail', carriers: ['fedex'] }])).toThrow(
      'carrier fedex is not enabled (CARRIERS=direct,broker)',
    );
    expect(() => set.setRoutes([{ serviceUid: 'test_parcel_standard', carriers: ['direct'] }])).toThrow(
      'no enabled carrier sells test_parcel_standard',
    );
    expect(() => set.setRoutes([{ serviceUid: 'usps_priority_mail', carriers: [] }])).toThrow(
      'needs at least one carrier',
    );
    // A refused change changes nothing.
    expect(set.routes()).toContainEqual({ serviceUid: 'usps_priority_mail', carriers: ['broker', 'direct'] });
  });

  test('a carrier that certainly bought nothing hands the purchase to the next; the label says who bought it', async () => {
    direct.state.answer = 'locked-out';
    broker.state.answer = 'buy';
    const { set, memory } = make();
    const label = await buy(set, 'fallback-1');
    expect(label).toMatchObject({ ok: true, carrierId: 'broker' });
    expect(broker.state.bought).toContain('fallback-1');
    expect(await memory.get('route:fallback-1')).toBe('broker');
    // Its void goes back to the carrier that bought it.
    if (!label.ok) throw new Error(label.message);
    await set.voidLabel!({ idempotencyKey: 'fallback-1', trackingNumber: label.trackingNumber, carrierId: 'broker' });
    expect(broker.state.voided).toEqual([label.trackingNumber]);
    expect(direct.state.voided).toEqual([]);
  });

  test('an unknown outcome is not handed on, and the retry goes back to that carrier even after a switch', async () => {
    direct.state.answer = 'timed-out';
    broker.state.answer = 'buy';
    const { set } = make();
    expect(await buy(set, 'unknown-1')).toMatchObject({ ok: false, retryable: true, code: 'UNAVAILABLE' });
    expect(broker.state.bought).not.toContain('unknown-1');

    set.setRoutes([{ serviceUid: 'usps_priority_mail', carriers: ['broker', 'direct'] }]);
    direct.state.answer = 'buy';
    expect(await buy(set, 'unknown-1')).toMatchObject({ ok: true, carrierId: 'direct' });
    expect(direct.state.bought).toContain('unknown-1');
    expect(broker.state.bought).not.toContain('unknown-1');
    // A new key follows the new route.
    expect(await buy(set, 'after-switch')).toMatchObject({ ok: true, carrierId: 'broker' });
  });

  test('the memory of where a key went is the buying service’s: another process with the same memory agrees', async () => {
    direct.state.answer = 'timed-out';
    const shared = createProcessMemory();
    expect(await buy(make(shared).set, 'crash-1')).toMatchObject({ ok: false });
    direct.state.answer = 'buy';
    const other = make(shared).set;
    other.setRoutes([{ serviceUid: 'usps_priority_mail', carriers: ['broker'] }]);
    expect(await buy(other, 'crash-1')).toMatchObject({ ok: true, carrierId: 'direct' });
    expect(broker.state.bought).not.toContain('crash-1');
  });

  test('routes an admin stored reach every set that reads the store: at the next purchase after the refresh period', async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      direct.state.answer = 'buy';
      broker.state.answer = 'buy';
      let stored: ServiceRoute[] = [];
      let reads = 0;
      const logged: string[] = [];
      const routeStore = {
        async load() {
          reads++;
          return stored;
        },
      };
      const log = { info() {}, warn: (_: object, m?: string) => logged.push(m ?? ''), error() {} };
      const set = createCarrierSet('direct,broker', { routeStore, routeRefreshMs: 1000, log }, registry);
      expect(await buy(set, 'store-1')).toMatchObject({ ok: true, carrierId: 'direct' });
      expect(reads).toBe(1);

      // Another process saved a switch; this one sees it once its copy is a refresh period old, and reads once for
      // many purchases at a time.
      stored = [{ serviceUid: 'usps_priority_mail', carriers: ['broker', 'direct'] }];
      expect(await buy(set, 'store-2')).toMatchObject({ carrierId: 'direct' });
      vi.setSystemTime(1000);
      const many = await Promise.all(['store-3', 'store-4', 'store-5'].map((k) => buy(set, k)));
      expect(many.map((r) => r.ok && r.carrierId)).toEqual(['broker', 'broker', 'broker']);
      expect(reads).toBe(2);
      expect(set.routes()).toContainEqual({ serviceUid: 'usps_priority_mail', carriers: ['broker', 'direct'] });

      // Removed from the store: back to the default. A stored route this process cannot follow is logged, not used.
      stored = [{ serviceUid: 'usps_ground_advantage', carriers: ['fedex'] }];
      await set.reloadRoutes();
      expect(set.routes()).toContainEqual({ serviceUid: 'usps_priority_mail', carriers: ['direct', 'broker'] });
      expect(set.routes()).toContainEqual({ serviceUid: 'usps_ground_advantage', carriers: ['direct', 'broker'] });
      expect(logged).toEqual(['stored route not used: carrier fedex is not enabled (CARRIERS=direct,broker)']);

      // A store that cannot be read keeps the routes last read; purchases go on.
      stored = [{ serviceUid: 'usps_priority_mail', carriers: ['broker'] }];
      await set.reloadRoutes();
      routeStore.load = async () => {
        throw new Error('database down');
      };
      vi.setSystemTime(5000);
      expect(await buy(set, 'store-6')).toMatchObject({ ok: true, carrierId: 'broker' });
      expect(set.routesProblem([{ serviceUid: 'usps_priority_mail', carriers: ['direct', 'direct'] }])).toBe(
        'usps_priority_mail names a carrier twice',
      );
      expect(set.routesProblem([{ serviceUid: 'usps_priority_mail', carriers: ['direct'] }])).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
