import { DEFAULT_COURIER } from '@flatship/proto';
import { describe, expect, it, test } from 'vitest';
import {
  CARRIER_PLUGINS,
  carrierListProblem,
  courierOfService,
  createCarrierSet,
  DEFAULT_CARRIERS,
  DEFAULT_SANDBOX_CARRIER_BALANCE,
  findCarrierByCourier,
  type LabelRequest,
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
      'unknown carrier "ups"; known carriers: sandbox-usps, test-parcel, usps',
    );
    expect(carrierListProblem(' , ')).toBe('no carrier given');
    expect(carrierListProblem('test-parcel,sandbox-usps')).toBeNull();
    expect(() => createCarrierSet('fedex')).toThrow('CARRIERS="fedex": unknown carrier "fedex"');
  });

  it('knows every carrier by its courier and services, enabled or not', () => {
    expect(CARRIER_PLUGINS.map((p) => p.id)).toEqual(['sandbox-usps', 'test-parcel', 'usps']);
    expect(findCarrierByCourier('usps')?.amazon).toEqual({ carrierCode: 'USPS', carrierName: 'USPS' });
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
      const adapter = plugin.create({ usps });
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
