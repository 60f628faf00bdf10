import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Stack, startStack } from './stack';
import { labelRows, orderBody, postOrder, user } from './support';

let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(() => s.close());

test('50 concurrent purchases on a balance for exactly 10: 10 labels, 40 refusals, balance 0.00, ledger sums to it', async () => {
  const u = user(s);
  await s.setBalance(u.id, 10 * 895);
  const answers = await Promise.all(Array.from({ length: 50 }, () => postOrder(s, u, orderBody(u.id))));

  const ok = answers.filter((a) => a.statusCode === 201);
  const refused = answers.filter((a) => a.statusCode === 402);
  expect(ok).toHaveLength(10);
  expect(refused).toHaveLength(40);
  for (const r of refused) {
    expect(r.json()).toEqual({
      code: 'PAYMENTS_INSUFFICIENT_BALANCE',
      message: expect.stringContaining('Insufficient balance'),
    });
  }
  expect(new Set(ok.map((a) => a.json().data.tracking_number)).size).toBe(10);

  expect(await s.balanceCents(u.id)).toBe(0);
  const entries = await s.ledgerEntries(u.id);
  expect(entries.reduce((acc, e) => acc + Number(e.amount_cents), 0)).toBe(0);
  expect(entries.filter((e) => e.kind === 'label_charge')).toHaveLength(10);

  const rows = await labelRows(s, u.id);
  expect(rows.filter((r) => r.status === 'completed')).toHaveLength(10);
  expect(rows.filter((r) => r.status === 'cancelled')).toHaveLength(40);
  expect(rows.filter((r) => r.status === 'pending')).toHaveLength(0);

  const total = await s.app.inject({ url: `/api/orders/total/${u.id}`, headers: { token: u.token } });
  expect(total.json()).toEqual({ totalOrders: 10 });
});
