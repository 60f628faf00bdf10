import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type Carrier,
  type CarrierPlugin,
  carrierRateLimits,
  createCarrierPool,
  createCarrierSet,
  createRateGate,
  createRateWindow,
  createSandboxCarrier,
  isValidImpb,
  type LabelRequest,
  type LabelResult,
  RATE_GUARD_MS,
  readCarrierRateLimits,
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

  it("tells what its carrier can do, so a ZPL printer's labels can be asked for with their ZPL", async () => {
    const pool = createCarrierPool(createSandboxCarrier(), { concurrency: 2 });
    expect(pool.capabilities).toContain('zpl');
    const label = await pool.purchaseLabel({ ...request('pool-zpl'), formats: ['pdf-4x6', 'zpl-203'] });
    expect(label.ok && label.zpl?.toString('utf8').startsWith('^XA')).toBe(true);
    expect(createCarrierPool(heldCarrier(), { concurrency: 1 }).capabilities).toBeUndefined();
  });

  it('refuses a concurrency below 1', () => {
    const carrier = heldCarrier();
    expect(() => createCarrierPool(carrier, { concurrency: 0 })).toThrow(
      'concurrency must be a whole number of 1 or more, got 0',
    );
  });
});

/** Two carriers that only record when each purchase reached them, after their gate, as a live adapter does. */
function recordingRegistry(starts: Record<string, number[]>): CarrierPlugin[] {
  return ['first', 'second'].map((id) => ({
    id,
    courier: id,
    name: id,
    marketplaceCodes: { amazon: { carrierCode: id, carrierName: id } },
    services: [{ uid: `${id}_service`, name: id, category: 'Parcel', carrier: id, maxWeight: 70 }],
    create: (settings) => ({
      id,
      capabilities: [],
      services: () => [{ uid: `${id}_service`, name: id, category: 'Parcel', carrier: id, maxWeight: 70 }],
      async purchaseLabel(req) {
        await settings.purchaseGate?.();
        starts[id] = [...(starts[id] ?? []), Date.now()];
        return {
          ok: true,
          trackingNumber: `T-${req.idempotencyKey}`,
          serviceUid: req.serviceUid,
          pdf: Buffer.from('%PDF'),
        };
      },
      balance: async () => 0,
      close: async () => {},
    }),
  }));
}

const busiestSecond = (times: number[], windowMs = 1000) =>
  Math.max(0, ...times.map((t) => times.filter((s) => s >= t && s < t + windowMs).length));

describe('carrier rate limit', () => {
  it('reads CARRIER_RATE_LIMIT: one rate for every carrier and/or one per carrier, naming what is wrong', () => {
    expect(carrierRateLimits('0')).toEqual({ default: 0, byCarrier: {} });
    expect(carrierRateLimits('')).toEqual({ default: 0, byCarrier: {} });
    expect(carrierRateLimits('20, easypost=50,usps=2.5')).toEqual({
      default: 20,
      byCarrier: { easypost: 50, usps: 2.5 },
    });
    expect(carrierRateLimits('fast')).toEqual({ problem: '"fast" is not a number of 0 or more' });
    expect(carrierRateLimits('ups=5')).toEqual({
      problem: 'unknown carrier "ups"; known carriers: sandbox-usps, test-parcel, usps, easypost',
    });
    expect(carrierRateLimits('usps=-1')).toEqual({ problem: 'the rate of usps is not a number of 0 or more' });
    expect(carrierRateLimits('usps=1,usps=2')).toEqual({ problem: 'usps is given twice' });
    expect(carrierRateLimits('1,2')).toEqual({ problem: 'more than one rate for every carrier' });
    expect(() => readCarrierRateLimits('x=1')).toThrow('CARRIER_RATE_LIMIT="x=1": unknown carrier "x"');
  });

  it('sends each carrier at most its rate in any second (and a guard), spread evenly, however many wait', async () => {
    vi.useFakeTimers({ now: 0 });
    const starts: Record<string, number[]> = {};
    const set = createCarrierSet(
      'first,second',
      { rateLimits: { default: 0, byCarrier: { first: 10 } } },
      recordingRegistry(starts),
    );
    const all = Promise.all(
      Array.from({ length: 35 }, (_, i) => set.purchaseLabel(request(`label-${i}`, 'first_service'))),
    );
    // One start every (1 s + guard) / 10, never ten at once: a burst reaches a carrier spread by its own queueing,
    // so the carrier's second could hold the end of one burst and the start of the next.
    const spacing = (1000 + RATE_GUARD_MS) / 10;
    await vi.advanceTimersByTimeAsync(0);
    expect(starts.first).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(spacing - 1);
    expect(starts.first).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts.first).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(8 * spacing);
    expect(starts.first).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(30 * spacing);
    await all;
    expect(starts.first).toHaveLength(35);
    expect(busiestSecond(starts.first ?? [], 1000 + RATE_GUARD_MS)).toBe(10);
    // Evenly: no two starts closer than the spacing (to the timer's millisecond).
    const gaps = (starts.first ?? []).slice(1).map((t, i) => t - (starts.first?.[i] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(Math.floor(spacing));
  });

  it('counts each carrier on its own: a throttled carrier does not hold up another, nor a pool in front', async () => {
    vi.useFakeTimers({ now: 0 });
    const starts: Record<string, number[]> = {};
    const set = createCarrierSet(
      'first,second',
      { rateLimits: { default: 2, byCarrier: { second: 0 } } },
      recordingRegistry(starts),
    );
    const pool = createCarrierPool(set, { concurrency: 10 });
    const first = Array.from({ length: 6 }, (_, i) => pool.purchaseLabel(request(`a-${i}`, 'first_service')));
    const second = Array.from({ length: 20 }, (_, i) => pool.purchaseLabel(request(`b-${i}`, 'second_service')));
    await vi.advanceTimersByTimeAsync(0);
    // The first carrier's rate (the default, 2, spread evenly) holds five of its purchases; the second has no limit.
    expect(starts.first).toHaveLength(1);
    await Promise.all(second);
    expect(starts.second).toHaveLength(20);
    await vi.advanceTimersByTimeAsync(3 * (1000 + RATE_GUARD_MS));
    await Promise.all(first);
    expect(busiestSecond(starts.first ?? [], 1000 + RATE_GUARD_MS)).toBe(2);
  });

  it('the sandbox keeps the rate too, as a live carrier would', async () => {
    vi.useFakeTimers({ now: 0 });
    const set = createCarrierSet('sandbox-usps', { rateLimits: { default: 2, byCarrier: {} } });
    const results: LabelResult[] = [];
    const all = Array.from({ length: 3 }, (_, i) => set.purchaseLabel(request(`s-${i}`)).then((r) => results.push(r)));
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(results).toHaveLength(2));
    await vi.advanceTimersByTimeAsync(1000 + RATE_GUARD_MS);
    await Promise.all(all);
    expect(results.every((r) => r.ok)).toBe(true);
    await set.close();
  });
});

describe('rate gate', () => {
  it('lets callers through in arrival order as the window has room', async () => {
    vi.useFakeTimers({ now: 0 });
    const gate = createRateGate({ ratePerSecond: 2 });
    const order: number[] = [];
    const all = [0, 1, 2, 3, 4].map((i) => gate.take().then(() => order.push(i)));
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual([0, 1]);
    expect(gate.waiting).toBe(3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(order).toEqual([0, 1, 2, 3]);
    await vi.advanceTimersByTimeAsync(1000);
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3, 4]);
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

  it('spreads starts evenly when asked, without timers that fire late adding up, and starts afresh after a pause', () => {
    let now = 0;
    const window = createRateWindow({ ratePerSecond: 4, even: true, now: () => now });
    expect([window.tryTake(), window.tryTake()]).toEqual([true, false]);
    expect(window.msUntilToken()).toBe(250);
    // Asked 10 ms late each time: the spacing keeps its cadence (510, not 520), and once the window holds four, the
    // window's own second decides (1270 is a second after 260); a late timer never adds a whole spacing again.
    const starts = [0];
    for (let i = 1; i <= 8; i++) {
      now += window.msUntilToken() + 10;
      expect(window.tryTake()).toBe(true);
      starts.push(now);
    }
    expect(starts).toEqual([0, 260, 510, 760, 1010, 1270, 1520, 1770, 2020]);
    expect(window.tryTake()).toBe(false);
    // A long pause saves nothing up: one start, then the spacing again.
    now = 60_000;
    expect([window.tryTake(), window.tryTake()]).toEqual([true, false]);
    expect(window.msUntilToken()).toBe(250);
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
