import { randomUUID } from 'node:crypto';
import { TOPICS } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestPayments, type TestPayments } from './support';

let t: TestPayments;
beforeAll(async () => {
  t = await startTestPayments();
});
afterAll(() => t.close());

const BASE = Date.UTC(2025, 0, 1, 12, 0, 0);

/** Deposits one minute apart, the last one the newest; statuses cycle Settled, Expired, New. */
async function seedDeposits(userId: string, count: number) {
  const statuses = ['Settled', 'Expired', 'New'];
  for (let i = 0; i < count; i++) {
    await t.repos.deposits.insert({
      userId,
      invoiceId: `inv-${randomUUID()}`,
      amountCents: 1000 + i,
      status: statuses[i % 3] as string,
      createdAt: new Date(BASE + i * 60_000),
    });
  }
}

async function eventually(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const get = (url: string, token?: string) => t.app.inject({ url, headers: token ? { token } : {} });

describe('GET /api/payment/recent-deposits/{userId}', () => {
  test('lists the newest deposits first, at most 25, amounts in dollars and times in unix seconds', async () => {
    const user = t.users.add();
    await seedDeposits(user.id, 30);
    const res = await get(`/api/payment/recent-deposits/${user.id}`, t.tokenFor(user));
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list).toHaveLength(25);
    expect(list[0]).toEqual({
      _id: expect.any(String),
      amount: 10.29,
      createdTime: Math.floor((BASE + 29 * 60_000) / 1000),
      status: 'New',
    });
    expect(list[24].amount).toBe(10.05);
  });

  test('a user with no deposits gets an empty list', async () => {
    const user = t.users.add();
    const res = await get(`/api/payment/recent-deposits/${user.id}`, t.tokenFor(user));
    expect(res.json()).toEqual([]);
  });
});

describe('GET /api/payment/deposits/{userId}', () => {
  test('pages on the server, 7 per page by default, with the total count', async () => {
    const user = t.users.add();
    await seedDeposits(user.id, 10);
    const token = t.tokenFor(user);
    const first = (await get(`/api/payment/deposits/${user.id}`, token)).json();
    expect(first.totalCount).toBe(10);
    expect(first.deposits.map((d: { amount: number }) => d.amount)).toEqual([
      10.09, 10.08, 10.07, 10.06, 10.05, 10.04, 10.03,
    ]);
    const second = (await get(`/api/payment/deposits/${user.id}?page=2&limit=7&filter=all`, token)).json();
    expect(second).toEqual({
      totalCount: 10,
      deposits: [
        expect.objectContaining({ amount: 10.02 }),
        expect.objectContaining({ amount: 10.01 }),
        expect.objectContaining({ amount: 10 }),
      ],
    });
    expect((await get(`/api/payment/deposits/${user.id}?page=3&limit=7`, token)).json().deposits).toEqual([]);
  });

  test('filters by status: settled, expired, or anything still pending', async () => {
    const user = t.users.add();
    await seedDeposits(user.id, 9);
    const token = t.tokenFor(user);
    for (const [filter, status] of [
      ['settled', 'Settled'],
      ['expired', 'Expired'],
      ['pending', 'New'],
    ] as const) {
      const body = (await get(`/api/payment/deposits/${user.id}?filter=${filter}&limit=100`, token)).json();
      expect(body.totalCount).toBe(3);
      expect(body.deposits.map((d: { status: string }) => d.status)).toEqual([status, status, status]);
    }
  });

  test('bad paging values are refused with a message naming them', async () => {
    const user = t.users.add();
    const token = t.tokenFor(user);
    for (const [query, field] of [
      ['page=0', 'page'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['filter=paid', 'filter'],
    ]) {
      const res = await get(`/api/payment/deposits/${user.id}?${query}`, token);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(field);
    }
  });
});

describe('who may read deposits', () => {
  test.each(['recent-deposits', 'deposits'])(
    "%s of another user's id is forbidden; an admin may read anyone's",
    async (route) => {
      const owner = t.users.add();
      const stranger = t.users.add();
      const admin = t.users.add('admin');
      await seedDeposits(owner.id, 1);
      const forbidden = await get(`/api/payment/${route}/${owner.id}`, t.tokenFor(stranger));
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().code).toBe('FORBIDDEN');
      expect((await get(`/api/payment/${route}/${owner.id}`, t.tokenFor(admin))).statusCode).toBe(200);
    },
  );

  test('no token is a 401, and so is a token of an older version', async () => {
    const user = t.users.add();
    expect((await get(`/api/payment/deposits/${user.id}`)).statusCode).toBe(401);
    const old = t.tokenFor(user, { ver: 0 });
    expect((await get(`/api/payment/deposits/${user.id}`, old)).json().code).toBe('AUTH_TOKEN_REVOKED');
  });

  test('a user.changed event on the bus revokes a cached token at once', async () => {
    const user = t.users.add();
    const token = t.tokenFor(user);
    expect((await get(`/api/payment/deposits/${user.id}`, token)).statusCode).toBe(200);
    // Auth blocks the user; the cached state would otherwise be trusted for a minute.
    const blocked = { ...user, activation: 'block' as const, tokenVersion: 2 };
    t.users.states.set(user.id, blocked);
    await t.bus.publish(TOPICS.userChanged, [{ key: user.id, value: blocked }]);
    await eventually(async () => (await get(`/api/payment/deposits/${user.id}`, token)).statusCode === 401, 10_000);
    expect((await get(`/api/payment/deposits/${user.id}`, token)).json().code).toBe('AUTH_TOKEN_REVOKED');
  });
});
