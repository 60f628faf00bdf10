import { randomUUID } from 'node:crypto';
import { createProcessRateSlots, createRateGate, RATE_GUARD_MS, type RateSlotStore } from '@flatship/carriers';
import { createVirtualClock, runGates } from '@flatship/carriers/testing';
import { createDb, type Knex } from '@flatship/kit';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createCarrierRateSlots } from '../src/db/carrier-rate-slots';
import { ORDERS_SCHEMA } from '../src/db/migrations';
import { type Stack, startStack } from './stack';

// CARRIER_RATE_LIMIT holds for every process that buys together: orders and each label worker reserve their send
// slots in one row per carrier of the orders database. Each replica here has a connection pool of its own, and the
// replicas run on one virtual clock, so the figures never depend on the machine's pace.

let s: Stack;
const pools: Knex[] = [];
beforeAll(async () => {
  s = await startStack();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.destroy()));
  await s?.close();
});

const databaseSlots = () => {
  const pool = createDb(s.url, ORDERS_SCHEMA, { max: 2 });
  pools.push(pool);
  return createCarrierRateSlots(pool);
};

/** Two replicas' gates for one carrier on one clock; `sent` is when each call was let go, and by which replica. */
function twoReplicas(slotsOf: () => RateSlotStore, ratePerSecond: number) {
  const clock = createVirtualClock(Date.parse('2026-03-02T15:00:00Z'));
  const carrier = `easypost-${randomUUID()}`;
  const gates = [0, 1].map(() =>
    createRateGate({ carrier, ratePerSecond, guardMs: RATE_GUARD_MS, slots: slotsOf(), clock }),
  );
  const sent: { at: number; replica: number }[] = [];
  const take = (r: number, n: number) => {
    for (let i = 0; i < n; i++) void gates[r]?.take().then(() => sent.push({ at: clock.now(), replica: r }));
  };
  return { clock, gates, sent, take };
}

const busiest = (times: number[], windowMs: number) =>
  Math.max(0, ...times.map((t) => times.filter((u) => u >= t && u < t + windowMs).length));

test('two replicas sharing the limit through the database send at most the rate together, in every window', async () => {
  const rate = 10;
  const { clock, gates, sent, take } = twoReplicas(databaseSlots, rate);
  take(0, 30);
  take(1, 30);
  await runGates(clock, gates, () => sent.length === 60);
  const times = sent.map((x) => x.at);
  // Every second (and every second + guard, the carrier's arrival jitter allowed for) holds at most the rate.
  expect(busiest(times, 1000)).toBeLessThanOrEqual(rate);
  expect(busiest(times, 1000 + RATE_GUARD_MS)).toBeLessThanOrEqual(rate);
  // Evenly spread, at the whole rate: sixty calls in 59 spacings, both replicas taking turns.
  const spacing = (1000 + RATE_GUARD_MS) / rate;
  const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
  for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(spacing - 1e-6);
  expect((times.at(-1) as number) - (times[0] as number)).toBeCloseTo(59 * spacing, 3);
  const firstSecond = sent.filter((x) => x.at - (times[0] as number) < 1000);
  expect(new Set(firstSecond.map((x) => x.replica))).toEqual(new Set([0, 1]));
});

test('each replica keeping the limit on its own would send twice the rate', async () => {
  const rate = 10;
  const { clock, gates, sent, take } = twoReplicas(createProcessRateSlots, rate);
  take(0, 30);
  take(1, 30);
  await runGates(clock, gates, () => sent.length === 60);
  expect(
    busiest(
      sent.map((x) => x.at),
      1000,
    ),
  ).toBe(2 * rate);
});

test('a 429 met by one replica pauses the other too, for the Retry-After', async () => {
  const { clock, gates, sent, take } = twoReplicas(databaseSlots, 10);
  take(0, 2);
  await runGates(clock, gates, () => sent.length === 2);
  const pausedAt = clock.now();
  gates[0]?.pause(1000);
  take(1, 3);
  await runGates(clock, gates, () => sent.length === 5);
  expect(sent.slice(2).map((x) => ({ after: x.at - pausedAt, replica: x.replica }))).toEqual([
    { after: 1000, replica: 1 },
    { after: 1104, replica: 1 },
    { after: 1208, replica: 1 },
  ]);
});

test('the database hands out several consecutive slots in one round trip, and the next ask comes after them', async () => {
  const slots = databaseSlots();
  const carrier = `usps-${randomUUID()}`;
  const now = Date.parse('2026-03-02T15:00:00Z');
  expect(await slots.reserve(carrier, now, 20, 5)).toBe(now);
  // Five slots from now, 20 ms apart: the next one any replica gets is the sixth.
  expect(await databaseSlots().reserve(carrier, now + 10, 20)).toBe(now + 100);
  expect(await slots.reserve(carrier, now + 10, 20, 3)).toBe(now + 120);
  expect(await slots.reserve(carrier, now + 10, 20)).toBe(now + 180);
});
