import { randomUUID } from 'node:crypto';
import type { RankingsReply } from '@flatship/proto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { LabelFact } from '../src/domain/rankings/ports';
import { type Registered, register, registerAdmin, type Stack, startStack } from './support';

// "Now" is fixed at 15 March 2026, 12:00 UTC: month = 1–15 March, week = 9–15 March, year = 1 Jan–15 March.
const NOW = new Date('2026-03-15T12:00:00Z');
let s: Stack;
let admin: Registered;
let ann: Registered;
let bob: Registered;
let cat: Registered;

const bought = (
  user: Registered,
  at: string,
  cents: number,
  labelId = randomUUID(),
  costCents?: number,
): LabelFact => ({
  kind: 'purchased',
  labelId,
  userId: user.user._id,
  priceCents: cents,
  ...(costCents === undefined ? {} : { costCents }),
  at,
});

async function rankings(query: string, token = admin.token) {
  return s.admin.inject({ url: `/api/admin/user-volume-rankings${query}`, headers: { token } });
}
async function ok(query: string): Promise<RankingsReply> {
  const res = await rankings(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RankingsReply;
}

beforeAll(async () => {
  s = await startStack({ now: () => NOW });
  admin = await registerAdmin(s);
  ann = await register(s, 'Ann Archer');
  bob = await register(s, 'bob Baker');
  cat = await register(s, 'Cat Cole');
  await s.rankings.record([
    // Ann: 3 cheap labels in March.
    // What the carrier charged is known for March's labels; January's were bought before it was kept.
    bought(ann, '2026-03-01T00:00:00Z', 500, randomUUID(), 420),
    bought(ann, '2026-03-10T08:00:00Z', 500, randomUUID(), 420),
    bought(ann, '2026-03-15T11:00:00Z', 500, randomUUID(), 420),
    // Bob: 1 expensive label in March, 4 in January.
    bought(bob, '2026-03-14T23:59:59Z', 4000, randomUUID(), 3400),
    ...[1, 2, 3, 4].map((d) => bought(bob, `2026-01-0${d}T10:00:00Z`, 1000)),
    // Cat: last year only.
    bought(cat, '2025-12-31T23:59:59Z', 700),
  ]);
}, 60_000);
afterAll(() => s?.close());

test('the month by default: top users by labels, totals over all users, every day of the chart', async () => {
  const body = await ok('');
  expect(body.period).toEqual({ start: '2026-03-01', end: '2026-03-15', days: 15 });
  expect(body.summary).toEqual({ uniqueUsers: 2, totalLabels: 4, totalRevenue: 55, totalCost: 46.6, margin: 8.4 });
  expect(body.rankings).toEqual([
    {
      userId: ann.user._id,
      userName: 'Ann Archer',
      userEmail: ann.email,
      userRole: 'user',
      activation: 'allow',
      labelCount: 3,
      totalRevenue: 15,
      totalCost: 12.6,
      margin: 2.4,
      averageLabelsPerDay: 0.2,
      firstOrderDate: '2026-03-01T00:00:00.000Z',
      lastOrderDate: '2026-03-15T11:00:00.000Z',
    },
    expect.objectContaining({
      userId: bob.user._id,
      labelCount: 1,
      totalRevenue: 40,
      totalCost: 34,
      margin: 6,
      averageLabelsPerDay: 0.07,
    }),
  ]);
  expect(body.daily).toHaveLength(15);
  expect(body.daily[0]).toEqual({ date: '2026-03-01', labels: 1, revenue: 5 });
  expect(body.daily[13]).toEqual({ date: '2026-03-14', labels: 1, revenue: 40 });
  expect(body.daily[1]).toEqual({ date: '2026-03-02', labels: 0, revenue: 0 });
});

test('day, week and year periods, and sorting by revenue, name and average per day', async () => {
  const day = await ok('?period=day');
  expect(day.period).toEqual({ start: '2026-03-15', end: '2026-03-15', days: 1 });
  expect(day.rankings.map((r) => [r.userName, r.labelCount, r.averageLabelsPerDay])).toEqual([['Ann Archer', 1, 1]]);

  const week = await ok('?period=week');
  expect(week.period.start).toBe('2026-03-09');
  expect(week.summary).toEqual({ uniqueUsers: 2, totalLabels: 3, totalRevenue: 50, totalCost: 42.4, margin: 7.6 });

  // The year joins whole months (January, February) and the days of March.
  const year = await ok('?period=year&sort=labels&order=desc');
  expect(year.period).toEqual({ start: '2026-01-01', end: '2026-03-15', days: 74 });
  expect(year.summary).toEqual({ uniqueUsers: 2, totalLabels: 8, totalRevenue: 95, totalCost: 46.6, margin: 48.4 });
  expect(year.rankings.map((r) => [r.userName, r.labelCount, r.totalRevenue])).toEqual([
    ['bob Baker', 5, 80],
    ['Ann Archer', 3, 15],
  ]);
  expect(year.rankings[0]?.firstOrderDate).toBe('2026-01-01T10:00:00.000Z');
  expect(year.daily).toHaveLength(74);

  const byRevenueAsc = await ok('?sort=revenue&order=asc');
  expect(byRevenueAsc.rankings.map((r) => r.userName)).toEqual(['Ann Archer', 'bob Baker']);
  const byNameDesc = await ok('?period=year&sort=name&order=desc');
  expect(byNameDesc.rankings.map((r) => r.userName)).toEqual(['bob Baker', 'Ann Archer']);
  const byAverage = await ok('?period=year&sort=averagePerDay&order=asc');
  expect(byAverage.rankings.map((r) => r.userName)).toEqual(['Ann Archer', 'bob Baker']);
});

test('limit keeps the top users while the summary still counts everyone', async () => {
  const body = await ok('?period=year&limit=10&sort=revenue');
  expect(body.rankings).toHaveLength(2);
  const many = await s.admin.inject({
    url: '/api/admin/user-volume-rankings?limit=7',
    headers: { token: admin.token },
  });
  expect(many.statusCode).toBe(400);
});

test('dates outside 2000-01-01 … 2100-12-31 are refused naming the field, at both edges of the calendar', async () => {
  const cases: [string, string, string][] = [
    ['9999-12-31', '9999-12-31', 'startDate'],
    ['0000-01-01', '0000-01-01', 'startDate'],
    ['2026-01-01', '9999-12-31', 'endDate'],
    ['0000-01-01', '2026-01-01', 'startDate'],
    ['1999-12-31', '2000-01-01', 'startDate'],
    ['2100-12-31', '2101-01-01', 'endDate'],
  ];
  for (const [start, end, field] of cases) {
    const res = await rankings(`?period=custom&startDate=${start}&endDate=${end}`);
    expect(res.statusCode, `${start} ${end}: ${res.body}`).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: `${field} must be between 2000-01-01 and 2100-12-31; got '${field === 'startDate' ? start : end}'`,
    });
  }
  // The edges themselves are days like any other.
  expect((await ok('?period=custom&startDate=2000-01-01&endDate=2000-01-01')).period.days).toBe(1);
  expect((await ok('?period=custom&startDate=2100-12-31&endDate=2100-12-31')).period.days).toBe(1);
});

test('a custom period needs both dates, a start on or before its end, and real dates', async () => {
  for (const q of ['?period=custom', '?period=custom&startDate=2026-01-01', '?period=custom&endDate=2026-01-01']) {
    const res = await rankings(q);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Please select both start and end dates for custom period',
    });
  }
  const reversed = await rankings('?period=custom&startDate=2026-02-02&endDate=2026-02-01');
  expect(reversed.statusCode).toBe(400);
  expect(reversed.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'startDate must be on or before endDate' });
  const impossible = await rankings('?period=custom&startDate=2026-02-30&endDate=2026-03-01');
  expect(impossible.statusCode).toBe(400);
  expect(impossible.json().message).toContain('startDate');

  const impossibleEnd = await rankings('?period=custom&startDate=2026-02-01&endDate=2026-02-30');
  expect(impossibleEnd.statusCode).toBe(400);
  expect(impossibleEnd.json().message).toContain('endDate');

  const body = await ok('?period=custom&startDate=2025-12-31&endDate=2026-01-02');
  expect(body.period).toEqual({ start: '2025-12-31', end: '2026-01-02', days: 3 });
  expect(body.rankings.map((r) => [r.userName, r.labelCount])).toEqual([
    ['bob Baker', 2],
    ['Cat Cole', 1],
  ]);
  expect(body.daily.map((d) => d.labels)).toEqual([1, 1, 1]);
});

test('only admins see rankings', async () => {
  expect((await rankings('', ann.token)).statusCode).toBe(403);
  expect((await s.admin.inject({ url: '/api/admin/user-volume-rankings' })).statusCode).toBe(401);
});

test('an event delivered twice counts once; a refund (even before its purchase) stops a label counting', async () => {
  const dan = await register(s, 'Dan Dale');
  const first = bought(dan, '2026-02-10T10:00:00Z', 1234);
  const second = bought(dan, '2026-02-11T10:00:00Z', 1000);
  await s.rankings.record([first, second]);
  await s.rankings.record([first]);
  const range = '?period=custom&startDate=2026-02-01&endDate=2026-02-28';
  let body = await ok(range);
  expect(body.rankings).toEqual([
    expect.objectContaining({ userName: 'Dan Dale', labelCount: 2, totalRevenue: 22.34 }),
  ]);

  await s.rankings.record([{ ...first, kind: 'refunded', at: '2026-03-01T00:00:00Z' }]);
  await s.rankings.record([{ ...first, kind: 'refunded', at: '2026-03-02T00:00:00Z' }]);
  body = await ok(range);
  expect(body.rankings).toEqual([
    expect.objectContaining({ labelCount: 1, totalRevenue: 10, firstOrderDate: '2026-02-11T10:00:00.000Z' }),
  ]);
  expect(body.summary).toEqual({ uniqueUsers: 1, totalLabels: 1, totalRevenue: 10, totalCost: 0, margin: 10 });
  expect(body.daily.find((d) => d.date === '2026-02-10')).toEqual({ date: '2026-02-10', labels: 0, revenue: 0 });
  // The whole month as read from the monthly sums agrees.
  expect((await ok('?period=custom&startDate=2026-02-01&endDate=2026-03-15')).summary.totalLabels).toBe(5);

  // The refund arrives first: the purchase that follows never counts.
  const late = bought(dan, '2026-02-12T10:00:00Z', 999);
  await s.rankings.record([{ ...late, kind: 'refunded', at: '2026-02-13T00:00:00Z' }]);
  await s.rankings.record([late]);
  body = await ok(range);
  expect(body.summary.totalLabels).toBe(1);
});

test('a user who no longer exists still ranks, without a name', async () => {
  const ghost = randomUUID();
  await s.rankings.record([
    { kind: 'purchased', labelId: randomUUID(), userId: ghost, priceCents: 100, at: '2025-06-01T00:00:00Z' },
  ]);
  const body = await ok('?period=custom&startDate=2025-06-01&endDate=2025-06-01');
  expect(body.rankings).toEqual([
    expect.objectContaining({ userId: ghost, userName: '', userEmail: '', userRole: null, activation: null }),
  ]);
});

test('any window, read as whole years, months and edge days, agrees with its day-by-day chart', async () => {
  const eve = await register(s, 'Eve Ellis');
  const days = ['2024-12-31', '2025-01-01', '2025-02-28', '2025-03-01', '2025-12-31', '2026-01-01', '2026-03-15'];
  await s.rankings.record(days.map((d, i) => bought(eve, `${d}T12:00:00Z`, 100 * (i + 1))));
  const windows: [string, string][] = [
    ['2024-12-31', '2026-03-15'],
    ['2025-01-01', '2025-12-31'],
    ['2025-01-02', '2025-12-31'],
    ['2025-02-28', '2025-03-01'],
    ['2025-03-01', '2026-01-01'],
    ['2024-01-01', '2026-03-14'],
  ];
  for (const [start, end] of windows) {
    const body = await ok(`?period=custom&startDate=${start}&endDate=${end}&limit=100`);
    const chart = body.daily.reduce((n, d) => n + d.labels, 0);
    const chartRevenue = Math.round(body.daily.reduce((n, d) => n + d.revenue, 0) * 100) / 100;
    expect([start, end, body.summary.totalLabels, body.summary.totalRevenue]).toEqual([
      start,
      end,
      chart,
      chartRevenue,
    ]);
    const eveRow = body.rankings.find((r) => r.userName === 'Eve Ellis');
    const expected = days.filter((d) => d >= start && d <= end).length;
    expect(eveRow?.labelCount ?? 0).toBe(expected);
  }
});
