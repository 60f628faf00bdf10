import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { internal, register, startTestAuth, type TestAuth } from './support';

let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth();
});
afterAll(() => t.close());

const MONTH = '2026-11-01T00:00:00.000Z';
const DAY = '2026-11-24T00:00:00.000Z';
const statsUrl = (dayStart = DAY, monthStart = MONTH) =>
  `/internal/stats/users?dayStart=${encodeURIComponent(dayStart)}&monthStart=${encodeURIComponent(monthStart)}`;

describe('GET /internal/stats/users', () => {
  test('counts every user, those who joined since the month start, and lists the newest sign-ups first', async () => {
    const old = await register(t.app, { name: 'October User' });
    const mid = await register(t.app, { name: 'Early November' });
    const late = await register(t.app, { name: 'Late November' });
    await t.db('users').where({ id: old.user._id }).update({ created_at: '2026-10-31T23:59:59Z' });
    await t.db('users').where({ id: mid.user._id }).update({ created_at: MONTH });
    await t.db('users').where({ id: late.user._id }).update({ created_at: '2026-11-24T08:00:00Z' });

    const res = await internal(t.app, 'GET', statsUrl());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalUsers).toBe(3);
    expect(body.newThisMonth).toBe(2);
    expect(body.latestSignUps).toEqual([
      { userId: late.user._id, name: 'Late November', email: late.email, createdAt: '2026-11-24T08:00:00.000Z' },
      { userId: mid.user._id, name: 'Early November', email: mid.email, createdAt: MONTH },
      { userId: old.user._id, name: 'October User', email: old.email, createdAt: '2026-10-31T23:59:59.000Z' },
    ]);
  });

  test('lists at most 10 sign-ups', async () => {
    for (let i = 0; i < 9; i++) await register(t.app);
    const body = (await internal(t.app, 'GET', statsUrl())).json();
    expect(body.totalUsers).toBe(12);
    expect(body.latestSignUps).toHaveLength(10);
  });

  test('refuses callers without the secret, and periods that are not ISO instants', async () => {
    const r = await register(t.app);
    const noSecret = await t.app.inject({ url: statsUrl(), headers: { token: r.token } });
    expect(noSecret.statusCode).toBe(403);
    expect((await internal(t.app, 'GET', statsUrl('yesterday'))).statusCode).toBe(400);
    const month13 = await internal(t.app, 'GET', statsUrl(DAY, '2026-13-01T00:00:00Z'));
    expect(month13.statusCode).toBe(400);
    expect(month13.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'dayStart and monthStart must be ISO date-times in UTC',
    });
  });
});
