import { AppError, type InternalClient } from '@flatship/kit';
import type { MoneySummariesBody } from '@flatship/proto';
import { describe, expect, test } from 'vitest';
import { createPaymentsMoneySummary, MONEY_SUMMARIES_PATH } from '../src/adapters/payments-money-summary';
import { createZeroMoneySummary } from '../src/adapters/zero-money-summary';

function fakePayments(known: Record<string, number>) {
  const calls: { method: string; path: string; body: MoneySummariesBody }[] = [];
  const client: InternalClient = {
    async request<T>(method: string, path: string, opts?: { body?: unknown }) {
      const body = opts?.body as MoneySummariesBody;
      calls.push({ method, path, body });
      const summaries = body.userIds
        .filter((id) => id in known)
        .map((id) => ({ userId: id, balance: known[id] as number, totalDeposit: 10, totalSpent: 5 }));
      return { summaries } as T;
    },
  };
  return { client, calls };
}

describe('money summaries', () => {
  test('without payments everyone has nothing', async () => {
    expect((await createZeroMoneySummary().get(['a', 'b'])).size).toBe(0);
  });

  test('payments is asked once per batch, without duplicates, and unknown users are left out', async () => {
    const { client, calls } = fakePayments({ a: 1.25 });
    const result = await createPaymentsMoneySummary(client).get(['a', 'b', 'a']);
    expect(calls).toEqual([{ method: 'POST', path: MONEY_SUMMARIES_PATH, body: { userIds: ['a', 'b'] } }]);
    expect([...result]).toEqual([['a', { balance: 1.25, totalDeposit: 10, totalSpent: 5 }]]);
  });

  test('large lists are split to stay within the contract', async () => {
    const { client, calls } = fakePayments({});
    await createPaymentsMoneySummary(client).get(Array.from({ length: 1201 }, (_, i) => `u${i}`));
    expect(calls.map((c) => c.body.userIds.length)).toEqual([500, 500, 201]);
  });

  test('no users, no call', async () => {
    const { client, calls } = fakePayments({});
    expect((await createPaymentsMoneySummary(client).get([])).size).toBe(0);
    expect(calls).toEqual([]);
  });

  test('payments being down surfaces as its error rather than as zero balances', async () => {
    const client: InternalClient = {
      request: async () => {
        throw new AppError('SERVICE_UNAVAILABLE', 'A required service is unavailable');
      },
    };
    await expect(createPaymentsMoneySummary(client).get(['a'])).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
