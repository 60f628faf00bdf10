import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type Carrier,
  createCarrierPool,
  createCarrierSet,
  createRateWindow,
  createSandboxCarrier,
  isValidImpb,
  type LabelRequest,
  type LabelResult,
} from '../src/index';

function request(key: string, serviceUid = 'usps_ground_advantage'): LabelRequest {
  return {
    idempotencyKey: key,
    serviceUid,
    from: { name: 'Acme Widgets', street1: '123 Main St', city: 'New York', state: 'NY', zip: '10001', country: 'US' },
    to: { name: 'Jane Doe', street1: '456 Oak Avenue', city: 'Los Angeles', state: 'CA', zip: '90001', country: 'US' },
    parcel: { length: 10, width: 8, height: 4, weightLb: 3.5 },
    shipDate: new Date('2025-03-04T12:00:00Z'),
  };
}

/** Watches a carrier at its port: how many purchases it holds at once, and which keys it was asked for. */
function watched(carrier: Pick<Carrier, 'purchaseLabel'>) {
  const seen = { inFlight: 0, maxInFlight: 0, keys: [] as string[], startedAt: [] as number[] };
  return {
    seen,
    async purchaseLabel(req: LabelRequest): Promise<LabelResult> {
      seen.keys.push(req.idempotencyKey);
      seen.startedAt.push(Date.now());
      seen.maxInFlight = Math.max(seen.maxInFlight, ++seen.inFlight);
      try {
        return await carrier.purchaseLabel(req);
      } finally {
        seen.inFlight--;
      }
    },
  };
}

/** A carrier that answers when told to, so a test decides when each purchase ends. */
function heldCarrier() {
  const open: { req: LabelRequest; answer: () => void }[] = [];
  return {
    open,
    purchaseLabel(req: LabelRequest) {
      return new Promise<LabelResult>((resolve) => {
        open.push({
          req,
          answer: () =>
            resolve({
              ok: true,
              trackingNumber: `T-${req.idempotencyKey}`,
              serviceUid: req.serviceUid,
              pdf: Buffer.from('%PDF'),
            }),
        });
      });
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('carrier pool', () => {
  it('never has more purchases at the sandbox carrier than its concurrency, and answers every one', async () => {
    const sandbox = createSandboxCarrier({ latencyMs: 20 });
    const port = watched(sandbox);
    const pool = createCarrierPool(port, { concurrency: 5 });

    const keys = Array.from({ length: 40 }, (_, i) => `label-${i}`);
    const results = await Promise.all(keys.map((key) => pool.purchaseLabel(request(key))));

    expect(port.seen.maxInFlight).toBe(5);
    expect(port.seen.keys.sort()).toEqual([...keys].sort());
    for (const result of results) {
      expect(result.ok).toBe(true);
      if (result.ok) expect(isValidImpb(result.trackingNumber)).toBe(true);
    }
    expect(pool.inFlight).toBe(0);
    expect(pool.waiting).toBe(0);
    await sandbox.close();
  });

  it('starts a waiting purchase as soon as one in flight ends, in the order they were asked for', async () => {
    const carrier = heldCarrier();
    const pool = createCarrierPool(carrier, { concurrency: 2 });
    const answers = ['a', 'b', 'c', 'd'].map((key) => pool.purchaseLabel(request(key)));
    await flush();
    expect(carrier.open.map((o) => o.req.idempotencyKey)).toEqual(['a', 'b']);
    expect(pool.waiting).toBe(2);

    carrier.open[1]?.answer();
    await flush();
    expect(carrier.open.map((o) => o.req.idempotencyKey)).toEqual(['a', 'b', 'c']);
    expect(pool.inFlight).toBe(2);

    for (const o of carrier.open) o.answer();
    await flush();
    carrier.open[3]?.answer();
    const results = await Promise.all(answers);
    expect(results.map((r) => (r.ok ? r.trackingNumber : r.message))).toEqual(['T-a', 'T-b', 'T-c', 'T-d']);
  });

  it('gives the slot of a purchase that threw to the next one, and passes the error to its caller', async () => {
    let calls = 0;
    const pool = createCarrierPool(
      {
        async purchaseLabel(req) {
          calls++;
          if (req.idempotencyKey === 'broken') throw new Error('connection reset by the carrier');
          return { ok: false, message: 'Address validation failed.', retryable: false };
        },
      },
      { concurrency: 1 },
    );
    const broken = pool.purchaseLabel(request('broken'));
    const next = pool.purchaseLabel(request('next'));
    await expect(broken).rejects.toThrow('connection reset by the carrier');
    await expect(next).resolves.toEqual({ ok: false, message: 'Address validation failed.', retryable: false });
    expect(calls).toBe(2);
    expect(pool.inFlight).toBe(0);
  });

  it('refuses a concurrency below 1 and a negative rate', () => {
    const carrier = heldCarrier();
    expect(() => createCarrierPool(carrier, { concurrency: 0 })).toThrow(
      'concurrency must be a whole number of 1 or more, got 0',
    );
    expect(() => createCarrierPool(carrier, { concurrency: 2, ratePerSecond: -1 })).toThrow(
      'carrier rate limit must be 0 or more, got -1',
    );
  });
});

describe('carrier rate limit', () => {
  it('starts at most the rate per second with a carrier, however many wait and however large the pool', async () => {
    vi.useFakeTimers({ now: 0 });
    const port = watched({
      purchaseLabel: async (req) => ({
        ok: true,
        trackingNumber: `T-${req.idempotencyKey}`,
        serviceUid: req.serviceUid,
        pdf: Buffer.from('%PDF'),
      }),
    });
    const pool = createCarrierPool(port, { concurrency: 100, ratePerSecond: 10 });
    const all = Promise.all(Array.from({ length: 35 }, (_, i) => pool.purchaseLabel(request(`label-${i}`))));

    await vi.advanceTimersByTimeAsync(0);
    // The rate may go at once; the next start waits until the first of them is a second old.
    expect(port.seen.keys).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(999);
    expect(port.seen.keys).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(1);
    expect(port.seen.keys).toHaveLength(20);
    await vi.advanceTimersByTimeAsync(1000);
    expect(port.seen.keys).toHaveLength(30);
    await vi.advanceTimersByTimeAsync(1000);
    await all;
    expect(port.seen.keys).toHaveLength(35);
    // In every window of one second, never more than the rate.
    for (const t of port.seen.startedAt) {
      expect(port.seen.startedAt.filter((s) => s >= t && s < t + 1000).length).toBeLessThanOrEqual(10);
    }
  });

  it('counts each carrier on its own: a throttled carrier does not hold up purchases from another', async () => {
    vi.useFakeTimers({ now: 0 });
    const set = createCarrierSet('sandbox-usps,test-parcel');
    const started: string[] = [];
    const pool = createCarrierPool(
      {
        purchaseLabel: async (req) => {
          started.push(req.idempotencyKey);
          return { ok: true, trackingNumber: 'T', serviceUid: req.serviceUid, pdf: Buffer.from('%PDF') };
        },
      },
      { concurrency: 10, ratePerSecond: 2 },
    );
    const usps = Array.from({ length: 6 }, (_, i) => pool.purchaseLabel(request(`usps-${i}`)));
    const parcel = Array.from({ length: 2 }, (_, i) =>
      pool.purchaseLabel(request(`parcel-${i}`, 'test_parcel_standard')),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(['usps-0', 'usps-1', 'parcel-0', 'parcel-1']);
    await Promise.all(parcel);

    await vi.advanceTimersByTimeAsync(1000);
    expect(started.filter((k) => k.startsWith('usps'))).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1000);
    await Promise.all(usps);
    expect(started.filter((k) => k.startsWith('usps'))).toHaveLength(6);
    await set.close();
  });

  it('with a rate of 0 only the concurrency limits purchases', async () => {
    const carrier = heldCarrier();
    const pool = createCarrierPool(carrier, { concurrency: 50, ratePerSecond: 0 });
    const answers = Array.from({ length: 50 }, (_, i) => pool.purchaseLabel(request(`label-${i}`)));
    await flush();
    expect(carrier.open).toHaveLength(50);
    for (const o of carrier.open) o.answer();
    await Promise.all(answers);
  });
});

describe('rate window', () => {
  it('allows the rate in any one second, never a saved-up burst on top', () => {
    let now = 0;
    const window = createRateWindow({ ratePerSecond: 4, now: () => now });
    expect([1, 2, 3, 4, 5].map(() => window.tryTake())).toEqual([true, true, true, true, false]);
    expect(window.msUntilToken()).toBe(1000);
    now = 999;
    expect(window.tryTake()).toBe(false);
    // A second after the first four, the window holds none of them.
    now = 1000;
    expect([1, 2, 3, 4, 5].map(() => window.tryTake())).toEqual([true, true, true, true, false]);
    // A long pause saves nothing up: still four in the next second.
    now = 60_000;
    expect([1, 2, 3, 4, 5].map(() => window.tryTake())).toEqual([true, true, true, true, false]);
    now = 60_500;
    expect(window.tryTake()).toBe(false);
  });

  it('spreads starts taken one by one: any second holds at most the rate', () => {
    let now = 0;
    const window = createRateWindow({ ratePerSecond: 3, now: () => now });
    const starts: number[] = [];
    for (now = 0; now < 5000; now += 50) if (window.tryTake()) starts.push(now);
    for (const t of starts) expect(starts.filter((s) => s >= t && s < t + 1000).length).toBeLessThanOrEqual(3);
    expect(starts).toHaveLength(15);
  });

  it('allows less than one purchase a second', () => {
    let now = 0;
    const window = createRateWindow({ ratePerSecond: 0.5, now: () => now });
    expect(window.tryTake()).toBe(true);
    expect(window.tryTake()).toBe(false);
    expect(window.msUntilToken()).toBe(2000);
    now = 2000;
    expect(window.tryTake()).toBe(true);
  });
});
