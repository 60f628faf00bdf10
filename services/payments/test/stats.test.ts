import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { internal, startTestPayments, type TestPayments } from './support';

let t: TestPayments;
beforeAll(async () => {
  t = await startTestPayments();
});
afterAll(() => t.close());

const MONTH = '2026-11-01T00:00:00.000Z';
const DAY = '2026-11-24T00:00:00.000Z';
const statsUrl = (dayStart = DAY, monthStart = MONTH) =>
  `/internal/stats/deposits?dayStart=${encodeURIComponent(dayStart)}&monthStart=${encodeURIComponent(monthStart)}`;

async function deposit(userId: string, amountCents: number, status: string, settledAt: string | null) {
  return t.repos.deposits.insert({
    userId,
    invoiceId: `inv-${randomUUID()}`,
    amountCents,
    status,
    createdAt: new Date('2026-10-15T00:00:00Z'),
    settledAt: settledAt ? new Date(settledAt) : null,
  });
}

describe('GET /internal/stats/deposits', () => {
  test("sums this month's settled deposits and lists the latest settlements first", async () => {
    const user = randomUUID();
    const october = await deposit(user, 700, 'Settled', '2026-10-31T23:59:59Z');
    const first = await deposit(user, 1000, 'Settled', MONTH);
    const second = await deposit(user, 2550, 'Settled', '2026-11-20T10:00:00Z');
    await deposit(user, 9900, 'New', null);
    await deposit(user, 5000, 'Expired', null);

    const res = await internal(t.app, 'GET', statsUrl());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      depositsThisMonthCents: 3550,
      depositsThisMonthCount: 2,
      latestDeposits: [
        { depositId: second.id, userId: user, amountCents: 2550, settledAt: '2026-11-20T10:00:00.000Z' },
        { depositId: first.id, userId: user, amountCents: 1000, settledAt: MONTH },
        { depositId: october.id, userId: user, amountCents: 700, settledAt: '2026-10-31T23:59:59.000Z' },
      ],
    });
  });

  test('lists at most 10 settlements', async () => {
    const user = randomUUID();
    for (let i = 0; i < 11; i++) await deposit(user, 100, 'Settled', `2026-11-2${i % 3}T0${i % 10}:00:00Z`);
    const body = (await internal(t.app, 'GET', statsUrl())).json();
    expect(body.latestDeposits).toHaveLength(10);
    expect(body.depositsThisMonthCount).toBe(13);
  });

  test('refuses callers without the secret, and unreadable periods', async () => {
    expect((await t.app.inject({ url: statsUrl() })).statusCode).toBe(403);
    expect((await internal(t.app, 'GET', statsUrl('now'))).statusCode).toBe(400);
  });
});
