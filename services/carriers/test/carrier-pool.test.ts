import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type Carrier,
  type CarrierPlugin,
  carrierRateLimits,
  createCarrierPool,
  createCarrierSet,
  createProcessRateSlots,
  createRateGate,
  createSandboxCarrier,
  isValidImpb,
  type LabelRequest,
  type LabelResult,
  RATE_GUARD_MS,
  type RateSlotStore,
  readCarrierRateLimits,
} from '../src/index';
import { createVirtualClock, runGates } from '../src/testing';

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
        await settings.purchaseGate?.take();
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
  /** A gate on a virtual clock, and when each caller it let go was let go. */
  function gated(opts: { ratePerSecond: number; guardMs?: number; slots?: RateSlotStore }) {
    const clock = createVirtualClock();
    const gate = createRateGate({ carrier: 'first', clock, ...opts });
    const sent: number[] = [];
    const take = (n: number) => Array.from({ length: n }, () => gate.take().then(() => sent.push(clock.now())));
    return { clock, gate, sent, take };
  }

  it('lets callers through in arrival order, one every (1 s + guard) / rate, never a burst', async () => {
    const { clock, gate, sent, take } = gated({ ratePerSecond: 4, guardMs: 20 });
    const order: number[] = [];
    const all = take(9).map((p, i) => p.then(() => order.push(i)));
    await runGates(clock, [gate], () => sent.length === 9);
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(sent).toEqual([0, 255, 510, 765, 1020, 1275, 1530, 1785, 2040]);
    expect(gate.waiting).toBe(0);
  });

  it('saves nothing up while idle: after a pause in demand the spacing holds from the first new call', async () => {
    const { clock, gate, sent, take } = gated({ ratePerSecond: 2 });
    take(1);
    await runGates(clock, [gate], () => sent.length === 1);
    clock.setTimer(() => take(3), 60_000);
    await runGates(clock, [gate], () => sent.length === 4);
    expect(sent).toEqual([0, 60_000, 60_500, 61_000]);
  });

  it('allows less than one call a second', async () => {
    const { clock, gate, sent, take } = gated({ ratePerSecond: 0.5 });
    take(3);
    await runGates(clock, [gate], () => sent.length === 3);
    expect(sent).toEqual([0, 2000, 4000]);
  });

  it('a 429 pauses the carrier for its Retry-After: slots held inside the pause are given up', async () => {
    const { clock, gate, sent, take } = gated({ ratePerSecond: 10 });
    take(6);
    await runGates(clock, [gate], () => sent.length === 2);
    // The carrier answered the second call 429, Retry-After 1 s.
    gate.pause(1000);
    await runGates(clock, [gate], () => sent.length === 6);
    expect(sent).toEqual([0, 100, 1100, 1200, 1300, 1400]);
  });

  it('a slot reached later than half the guard is given up, so its call never lands bunched with the next', async () => {
    const { clock, gate, sent, take } = gated({ ratePerSecond: 10, guardMs: 40 });
    take(1);
    await runGates(clock, [gate], () => sent.length === 1);
    // The next caller comes 5 ms after its slot was due (held since the first): still on time, it goes.
    clock.setTimer(() => take(1), 104 - clock.now() + 5);
    await runGates(clock, [gate], () => sent.length === 2);
    expect(sent).toEqual([0, 109]);
    // One more comes long after the slot held for it: a fresh slot, now.
    clock.setTimer(() => take(1), 5000);
    await runGates(clock, [gate], () => sent.length === 3);
    expect(sent[2]).toBe(5109);
  });

  it('a store answering later than half the guard: that slot is given up, and the next ones are asked for far enough ahead to be used on time', async () => {
    const clock = createVirtualClock();
    const inner = createProcessRateSlots();
    // Every slot comes back 50 ms after it was asked for (a database on a busy machine).
    const slow: RateSlotStore = {
      async reserve(carrier, now, spacingMs, count) {
        const slot = await inner.reserve(carrier, now, spacingMs, count);
        await new Promise((resolve) => clock.setTimer(() => resolve(undefined), 50));
        return slot;
      },
      pause: inner.pause,
    };
    const gate = createRateGate({ carrier: 'first', ratePerSecond: 10, guardMs: 40, clock, slots: slow });
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) void gate.take().then(() => sent.push(clock.now()));
    // The store's round trip is on the virtual clock too: fire whatever is next once the event loop is idle.
    for (let step = 0; step < 200 && sent.length < 5; step++) {
      await new Promise((resolve) => setImmediate(resolve));
      clock.fireNext();
    }
    // Slot 0 came back 50 ms late and went unused; from then on each slot is asked for 75 ms (1.5 round trips)
    // ahead, comes back before its time, and goes at it: one spacing apart, never bunched behind a late answer.
    expect(sent).toEqual([125, 229, 333, 437, 541]);
  });

  it('two processes sharing slots through a store that answers 0 to 80 ms late never send more than the rate in a second', async () => {
    const clock = createVirtualClock();
    const inner = createProcessRateSlots();
    let seed = 11;
    const roundTrip = () => {
      seed = (seed * 48271) % 2147483647;
      return Math.floor((seed / 2147483647) * 80);
    };
    // The shared store (the orders database): the slot is handed out when asked, and the answer comes back late.
    const shared: RateSlotStore = {
      async reserve(carrier, now, spacingMs, count) {
        const slot = await inner.reserve(carrier, now, spacingMs, count);
        await new Promise((resolve) => clock.setTimer(() => resolve(undefined), roundTrip()));
        return slot;
      },
      pause: inner.pause,
    };
    const rate = 50;
    const gates = [0, 1].map(() =>
      createRateGate({ carrier: 'first', ratePerSecond: rate, guardMs: RATE_GUARD_MS, clock, slots: shared }),
    );
    const sent: number[] = [];
    for (const gate of gates) for (let i = 0; i < 300; i++) void gate.take().then(() => sent.push(clock.now()));
    for (let step = 0; step < 20_000 && sent.length < 600; step++) {
      await new Promise((resolve) => setImmediate(resolve));
      clock.fireNext();
    }
    expect(sent).toHaveLength(600);
    // Sent at their slots (within half the guard), so with the guard's tolerance for the way to the carrier they
    // reach it at most `rate` a second; and the rate is still used: 600 calls in well under 13.5 s.
    expect(busiestSecond(sent, 1000 + RATE_GUARD_MS / 2)).toBeLessThanOrEqual(rate);
    expect(Math.max(...sent)).toBeLessThan(13_500);
  });

  it('calls reaching the carrier up to the guard late still never make more than the rate in any second', async () => {
    const rate = 50;
    const guardMs = RATE_GUARD_MS;
    const { clock, gate, sent, take } = gated({ ratePerSecond: rate, guardMs });
    take(500);
    await runGates(clock, [gate], () => sent.length === 500);
    // The carrier counts arrivals: each call reaches it anywhere from 0 to the guard after it was sent.
    let seed = 7;
    const jitter = () => {
      seed = (seed * 48271) % 2147483647;
      return (seed / 2147483647) * guardMs;
    };
    const arrivals = sent.map((t) => t + jitter());
    expect(busiestSecond(arrivals)).toBeLessThanOrEqual(rate);
    // And no slower than that: 500 calls in 499 spacings.
    expect(sent.at(-1)).toBeCloseTo((499 * (1000 + guardMs)) / rate, 6);
  });
});
