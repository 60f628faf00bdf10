import { describe, expect, it } from 'vitest';
import {
  createSandboxCarrier,
  findUspsService,
  isSandboxFailureKey,
  isValidImpb,
  type LabelRequest,
  sandboxTrackingNumber,
} from '../src/index';

function request(overrides: Partial<LabelRequest> = {}): LabelRequest {
  return {
    idempotencyKey: 'label-1',
    serviceUid: 'usps_priority_mail',
    from: {
      name: 'Acme Widgets',
      street1: '123 Main St',
      city: 'New York',
      state: 'NY',
      zip: '10001',
      country: 'US',
    },
    to: {
      name: 'Jane Doe',
      street1: '456 Oak Avenue',
      city: 'Los Angeles',
      state: 'CA',
      zip: '90001',
      country: 'US',
    },
    parcel: { length: 10, width: 8, height: 4, weightLb: 2 },
    references: { quantity: '1', sku: 'WID-001' },
    shipDate: new Date('2025-03-04T12:00:00Z'),
    ...overrides,
  };
}

describe('sandbox carrier services', () => {
  it('offers the three USPS domestic services with their real 70 lb limit', () => {
    expect(createSandboxCarrier().services()).toEqual([
      { uid: 'usps_priority_mail', name: 'USPS Priority Mail', category: 'USPS', carrier: 'usps', maxWeight: 70 },
      { uid: 'usps_ground_advantage', name: 'USPS Ground Advantage', category: 'USPS', carrier: 'usps', maxWeight: 70 },
      {
        uid: 'usps_priority_mail_express',
        name: 'USPS Priority Mail Express',
        category: 'USPS',
        carrier: 'usps',
        maxWeight: 70,
      },
    ]);
  });

  it('rejects invalid options at construction', () => {
    expect(() => createSandboxCarrier({ failureRate: 1.5 })).toThrow(/failureRate/);
    expect(() => createSandboxCarrier({ mailerId: '12345' })).toThrow(/mailerId/);
  });
});

describe('sandbox label purchase', () => {
  it('returns a valid 22-digit IMpb carrying the service type code of each service, and a PDF', async () => {
    const carrier = createSandboxCarrier();
    const stcs = { usps_priority_mail: '055', usps_ground_advantage: '001', usps_priority_mail_express: '701' };
    for (const [serviceUid, stc] of Object.entries(stcs)) {
      const result = await carrier.purchaseLabel(request({ serviceUid }));
      if (!result.ok) throw new Error(result.message);
      expect(result.serviceUid).toBe(serviceUid);
      expect(result.trackingNumber).toMatch(/^\d{22}$/);
      expect(result.trackingNumber.slice(2, 5)).toBe(stc);
      expect(isValidImpb(result.trackingNumber)).toBe(true);
      expect(result.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('gives the same tracking number for the same idempotency key, on any carrier instance', async () => {
    const first = await createSandboxCarrier().purchaseLabel(request({ idempotencyKey: 'retry-me' }));
    const again = await createSandboxCarrier().purchaseLabel(request({ idempotencyKey: 'retry-me' }));
    const other = await createSandboxCarrier().purchaseLabel(request({ idempotencyKey: 'someone-else' }));
    if (!first.ok || !again.ok || !other.ok) throw new Error('purchase failed');
    expect(again.trackingNumber).toBe(first.trackingNumber);
    expect(other.trackingNumber).not.toBe(first.trackingNumber);
    expect(first.trackingNumber).toBe(
      sandboxTrackingNumber({ idempotencyKey: 'retry-me', serviceTypeCode: '055', mailerId: '899999' }),
    );
  });

  it('issues distinct, valid tracking numbers for 10,000 different keys', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const tracking = sandboxTrackingNumber({
        idempotencyKey: `7f3c2a10-0000-4000-8000-${String(i).padStart(12, '0')}`,
        serviceTypeCode: '055',
        mailerId: '899999',
      });
      expect(tracking).toHaveLength(22);
      if (!isValidImpb(tracking)) throw new Error(`invalid ${tracking}`);
      seen.add(tracking);
    }
    expect(seen.size).toBe(10_000);
  });

  it('embeds a configured mailer id', async () => {
    const result = await createSandboxCarrier({ mailerId: '901234567' }).purchaseLabel(request());
    if (!result.ok) throw new Error(result.message);
    expect(result.trackingNumber.slice(0, 14)).toBe('92055901234567');
    expect(isValidImpb(result.trackingNumber)).toBe(true);
  });
});

describe('sandbox failures are returned, never thrown', () => {
  it('fails a recipient named FAIL, whatever its case and spacing, as an address problem', async () => {
    const carrier = createSandboxCarrier();
    for (const name of ['FAIL', 'fail', '  Fail ']) {
      const result = await carrier.purchaseLabel(request({ to: { ...request().to, name } }));
      expect(result).toEqual({
        ok: false,
        message: 'Address validation failed: the recipient address could not be verified.',
        retryable: false,
        code: 'ADDRESS_UNDELIVERABLE',
      });
    }
    const near = await carrier.purchaseLabel(request({ to: { ...request().to, name: 'FAILSAFE INC' } }));
    expect(near.ok).toBe(true);
  });

  it('fails every key at failure rate 1 and none at failure rate 0', async () => {
    const always = createSandboxCarrier({ failureRate: 1 });
    const never = createSandboxCarrier({ failureRate: 0 });
    for (let i = 0; i < 20; i++) {
      const failed = await always.purchaseLabel(request({ idempotencyKey: `k${i}` }));
      expect(failed.ok).toBe(false);
      if (!failed.ok) {
        expect(failed.message).toMatch(/^Label purchase declined: /);
        expect(failed.retryable).toBe(false);
      }
      expect((await never.purchaseLabel(request({ idempotencyKey: `k${i}` }))).ok).toBe(true);
    }
  });

  it('fails a stable fraction of keys close to the failure rate', { timeout: 60_000 }, async () => {
    const rate = 0.8;
    const carrier = createSandboxCarrier({ failureRate: rate });
    let failures = 0;
    for (let i = 0; i < 2_000; i++) {
      const key = `bulk-row-${i}`;
      const result = await carrier.purchaseLabel(request({ idempotencyKey: key }));
      expect(result.ok).toBe(!isSandboxFailureKey(key, rate));
      if (!result.ok) failures++;
    }
    // Binomial(2000, 0.8): standard deviation ≈ 17.9, so ±72 is four sigmas.
    expect(Math.abs(failures - 1_600)).toBeLessThan(72);
    const again = createSandboxCarrier({ failureRate: rate });
    for (let i = 0; i < 50; i++) {
      const key = `bulk-row-${i}`;
      expect((await again.purchaseLabel(request({ idempotencyKey: key }))).ok).toBe(!isSandboxFailureKey(key, rate));
    }
  });

  it('refuses an unknown service', async () => {
    const result = await createSandboxCarrier().purchaseLabel(request({ serviceUid: 'usps_media_mail' }));
    expect(result).toEqual({
      ok: false,
      message: 'Unknown service usps_media_mail for carrier usps',
      retryable: false,
      code: 'SERVICE_UNKNOWN',
    });
  });

  it('refuses a parcel over the service maximum but accepts exactly the maximum', async () => {
    const carrier = createSandboxCarrier();
    const over = await carrier.purchaseLabel(request({ parcel: { ...request().parcel, weightLb: 70.5 } }));
    expect(over).toEqual({
      ok: false,
      message: 'Weight limit exceeded: USPS Priority Mail accepts parcels up to 70 lb; this one weighs 70.5 lb.',
      retryable: false,
      code: 'WEIGHT_LIMIT',
    });
    const max = await carrier.purchaseLabel(request({ parcel: { ...request().parcel, weightLb: 70 } }));
    expect(max.ok).toBe(true);
  });

  it('refuses a negative weight and an invalid ZIP code', async () => {
    const carrier = createSandboxCarrier();
    const negative = await carrier.purchaseLabel(request({ parcel: { ...request().parcel, weightLb: -1 } }));
    expect(negative.ok).toBe(false);
    const badZip = await carrier.purchaseLabel(request({ to: { ...request().to, zip: '9000' } }));
    expect(badZip).toEqual({
      ok: false,
      message: 'Address validation failed: the recipient ZIP code 9000 is not a valid US ZIP code.',
      retryable: false,
      code: 'ADDRESS_ZIP_INVALID',
    });
  });

  it('waits the configured latency before answering', async () => {
    const started = performance.now();
    await createSandboxCarrier({ latencyMs: 50 }).purchaseLabel(request());
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('renders the label while the purchase is away, and answers once both are done', async () => {
    const rendered: string[] = [];
    const carrier = createSandboxCarrier({
      latencyMs: 50,
      renderer: {
        render: async (data) => {
          rendered.push(data.trackingNumber);
          return Buffer.from('%PDF-1.4 label');
        },
        close: async () => undefined,
      },
    });
    const started = performance.now();
    const answer = carrier.purchaseLabel(request());
    // Rendering began with the purchase, not after the round trip.
    expect(rendered).toHaveLength(1);
    const result = await answer;
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(result).toMatchObject({ ok: true, trackingNumber: rendered[0], pdf: Buffer.from('%PDF-1.4 label') });
  });
});

describe('service catalogue', () => {
  it('finds services by uid and nothing else', () => {
    expect(findUspsService('usps_ground_advantage')?.letter).toBe('G');
    expect(findUspsService('nope')).toBeUndefined();
  });
});
