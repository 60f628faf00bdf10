import { afterAll, describe, expect, it } from 'vitest';
import {
  type Carrier,
  createCarrierSet,
  type LabelRequest,
  observePurchases,
  type PurchaseObservation,
} from '../src/index';

const request = (to: string, serviceUid = 'usps_priority_mail'): LabelRequest => ({
  idempotencyKey: `key-${to}-${serviceUid}`,
  serviceUid,
  from: { name: 'Acme Widgets', street1: '123 Main St', city: 'New York', state: 'NY', zip: '10001', country: 'US' },
  to: { name: to, street1: '456 Oak Avenue', city: 'Los Angeles', state: 'CA', zip: '90001', country: 'US' },
  parcel: { length: 10, width: 8, height: 4, weightLb: 2 },
});

const carriers = createCarrierSet('sandbox-usps', { latencyMs: 30, renderThreads: 0 });
afterAll(() => carriers.close());

describe('observePurchases', () => {
  it('reports each purchase with its courier, service, outcome and duration, and returns the carrier answer unchanged', async () => {
    const seen: PurchaseObservation[] = [];
    const observed = observePurchases(carriers, (o) => seen.push(o));

    const sold = await observed.purchaseLabel(request('Jane Doe'));
    const refused = await observed.purchaseLabel(request('FAIL'));
    expect(sold.ok).toBe(true);
    expect(refused).toMatchObject({ ok: false });
    expect(seen.map(({ seconds: _, ...o }) => o)).toEqual([
      { courier: 'usps', serviceUid: 'usps_priority_mail', outcome: 'ok' },
      { courier: 'usps', serviceUid: 'usps_priority_mail', outcome: 'refused' },
    ]);
    // The sandbox's simulated round trip is part of what is measured.
    for (const o of seen) expect(o.seconds).toBeGreaterThanOrEqual(0.025);
    // The rest of the carrier is still there.
    expect(observed.couriers).toEqual(['usps']);
    expect(observed.services().length).toBeGreaterThan(0);
  });

  it('reports a call that throws as an error and throws it on', async () => {
    const seen: PurchaseObservation[] = [];
    const unreachable: Pick<Carrier, 'purchaseLabel'> = {
      purchaseLabel: async () => {
        throw new Error('connection reset');
      },
    };
    const broken = observePurchases(unreachable, (o) => seen.push(o));
    await expect(broken.purchaseLabel(request('Jane Doe', 'no_such_service'))).rejects.toThrow('connection reset');
    expect(seen).toEqual([
      { courier: 'unknown', serviceUid: 'no_such_service', outcome: 'error', seconds: expect.any(Number) },
    ]);
  });
});
