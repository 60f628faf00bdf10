import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMemoryLedger, createMemoryQuotes } from './in-memory-ports';
import { INTERNAL_SECRET, insertLabelRow, type OrdersHarness, startOrders } from './support';

let h: OrdersHarness;
beforeAll(async () => {
  h = await startOrders(async () => ({ quotes: createMemoryQuotes({}), ledger: createMemoryLedger() }));
});
afterAll(() => h.close());

const MONTH = '2026-11-01T00:00:00.000Z';
const DAY = '2026-11-24T00:00:00.000Z';
const statsUrl = (dayStart = DAY, monthStart = MONTH) =>
  `/internal/stats/labels?dayStart=${encodeURIComponent(dayStart)}&monthStart=${encodeURIComponent(monthStart)}`;
const stats = (url = statsUrl()) => h.app.inject({ url, headers: { 'x-internal-secret': INTERNAL_SECRET } });

const USER = randomUUID();

/** A label of USER; a completed one is named after its price, so the latest labels can be told apart. */
const label = (status: 'pending' | 'completed' | 'cancelled', priceCents: number, at: string, updatedAt = at) =>
  insertLabelRow(h.db, {
    userId: USER,
    status,
    priceCents,
    at,
    updatedAt,
    ...(status === 'completed' ? { serviceName: `Priority ${priceCents}` } : {}),
  });

async function bulkOrder(status: string) {
  await h.db('bulk_orders').insert({ id: randomUUID(), user_id: USER, status });
}

describe('GET /internal/stats/labels', () => {
  test('counts completed labels and their revenue today and this month, failures today, and running bulk orders', async () => {
    const october = await label('completed', 500, '2026-10-31T23:59:59Z');
    const monthStart = await label('completed', 725, MONTH);
    const yesterday = await label('completed', 900, '2026-11-23T23:59:59Z');
    const today = await label('completed', 1250, DAY);
    const later = await label('completed', 300, '2026-11-24T09:30:00Z');
    await label('pending', 800, '2026-11-24T10:00:00Z');
    // Bought yesterday, failed today; and one that failed yesterday.
    await label('cancelled', 650, '2026-11-23T22:00:00Z', '2026-11-24T01:00:00Z');
    await label('cancelled', 650, '2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z');
    for (const status of ['processing', 'generating_files', 'retrying_failed', 'completed', 'failed']) {
      await bulkOrder(status);
    }
    await bulkOrder('completed_with_errors');

    const res = await stats();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      labelsToday: 2,
      labelsThisMonth: 4,
      revenueTodayCents: 1550,
      revenueThisMonthCents: 725 + 900 + 1250 + 300,
      runningBulkOrders: 3,
      failedToday: 1,
    });
    expect(body.latestLabels.map((l: { labelId: string }) => l.labelId)).toEqual([
      later,
      today,
      yesterday,
      monthStart,
      october,
    ]);
    expect(body.latestLabels[0]).toEqual({
      labelId: later,
      userId: USER,
      serviceName: 'Priority 300',
      priceCents: 300,
      createdAt: '2026-11-24T09:30:00.000Z',
    });
  });

  test('sums what the carriers charged for the same labels; a label whose carrier did not say counts 0', async () => {
    const url = statsUrl('2027-02-10T00:00:00.000Z', '2027-02-01T00:00:00.000Z');
    const withCost = async (status: 'completed' | 'cancelled', price: number, cost: number | null, at: string) => {
      const id = await label(status, price, at);
      await h.db('labels').where({ id }).update({ carrier_id: 'sandbox-usps', carrier_cost_cents: cost });
    };
    await withCost('completed', 1000, 820, '2027-02-10T08:00:00Z');
    await withCost('completed', 900, null, '2027-02-10T09:00:00Z');
    await withCost('completed', 700, 610, '2027-02-03T09:00:00Z');
    // A failed label cost nothing that counts, and January's is outside the month.
    await withCost('cancelled', 700, 610, '2027-02-10T10:00:00Z');
    await withCost('completed', 700, 610, '2027-01-31T23:00:00Z');

    const body = (await stats(url)).json();
    expect(body).toMatchObject({
      revenueTodayCents: 1900,
      costTodayCents: 820,
      revenueThisMonthCents: 2600,
      costThisMonthCents: 1430,
    });
  });

  test('lists at most 10 labels', async () => {
    for (let i = 0; i < 6; i++) await label('completed', 100 + i, `2026-11-1${i}T00:00:00Z`);
    expect((await stats()).json().latestLabels).toHaveLength(10);
  });

  test('refuses callers without the secret, and unreadable periods', async () => {
    expect((await h.app.inject({ url: statsUrl() })).statusCode).toBe(403);
    expect((await stats(statsUrl(DAY, '2026-11'))).statusCode).toBe(400);
  });
});
