import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { AUTH_SCHEMA } from '@flatship/auth';
import { createInternalClient } from '@flatship/kit';
import type { AdminDashboardReply } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMemoryLedger, createMemoryQuotes } from '../../orders/test/in-memory-ports';
import { insertLabelRow, type OrdersHarness, startOrders } from '../../orders/test/support';
import { INTERNAL_SECRET, type Registered, register, registerAdmin, type Stack, startStack } from './support';

// Real auth, payments and orders answering the admin service's internal calls.
let orders: OrdersHarness;
let s: Stack;
let admin: Registered;
beforeAll(async () => {
  orders = await startOrders(async () => ({ quotes: createMemoryQuotes({}), ledger: createMemoryLedger() }));
  await orders.app.listen({ host: '127.0.0.1', port: 0 });
  const ordersUrl = `http://127.0.0.1:${(orders.app.server.address() as AddressInfo).port}`;
  s = await startStack({ orders: createInternalClient({ baseUrl: ordersUrl, secret: INTERNAL_SECRET }) });
  admin = await registerAdmin(s);
});
afterAll(async () => {
  await s.close();
  await orders.close();
});

const DAY_MS = 86_400_000;
const longAgo = () => new Date(Date.now() - 40 * DAY_MS);

async function label(
  userId: string,
  priceCents: number,
  status: 'completed' | 'cancelled',
  at: Date,
  costCents?: number,
) {
  const id = await insertLabelRow(orders.db, { userId, status, priceCents, at });
  if (costCents !== undefined) await orders.db('labels').where({ id }).update({ carrier_cost_cents: costCents });
}

async function settledDeposit(userId: string, amountCents: number, settledAt: Date) {
  await s.paymentsDb('deposits').insert({
    user_id: userId,
    invoice_id: `inv-${randomUUID()}`,
    amount_cents: amountCents,
    status: 'Settled',
    settled_at: settledAt,
  });
}

const dashboard = (token?: string) => s.admin.inject({ url: '/api/admin/dashboard', headers: token ? { token } : {} });

describe('GET /api/admin/dashboard', () => {
  test('composes users, labels, revenue, deposits, running bulk orders and recent activity', async () => {
    const jane = await register(s, 'Jane');
    const old = await register(s, 'Old Timer');
    // Auth and payments share the test database in schemas of their own: the old user joined 40 days ago.
    await s.paymentsDb.raw(`update ${AUTH_SCHEMA}.users set created_at = ? where id = ?`, [longAgo(), old.user._id]);

    const now = new Date();
    await label(jane.user._id, 850, 'completed', now, 700);
    await label(jane.user._id, 1200, 'completed', now, 1025);
    await label(jane.user._id, 999, 'completed', longAgo());
    await label(jane.user._id, 700, 'cancelled', now);
    await orders.db('bulk_orders').insert({ id: randomUUID(), user_id: jane.user._id, status: 'processing' });
    await orders.db('bulk_orders').insert({ id: randomUUID(), user_id: jane.user._id, status: 'completed' });
    await settledDeposit(jane.user._id, 50_000, now);
    await settledDeposit(jane.user._id, 1_000, longAgo());

    const res = await dashboard(admin.token);
    expect(res.statusCode).toBe(200);
    const body = res.json() as AdminDashboardReply;
    // Admin, Jane and the old user: two of them joined this month.
    expect(body.users).toEqual({ total: 3, newThisMonth: 2 });
    expect(body.labels).toEqual({ today: 2, thisMonth: 2, failedToday: 1 });
    expect(body.revenue).toEqual({ today: 20.5, thisMonth: 20.5 });
    // What the carriers charged for the same two labels, and what is left.
    expect(body.cost).toEqual({ today: 17.25, thisMonth: 17.25 });
    expect(body.margin).toEqual({ today: 3.25, thisMonth: 3.25 });
    expect(body.deposits).toEqual({ thisMonth: 500, countThisMonth: 1 });
    expect(body.runningBulkOrders).toBe(1);
    expect(body.activity.length).toBeLessThanOrEqual(10);
    const texts = body.activity.map((a) => a.text);
    expect(texts).toContain('Deposit of $500.00 settled');
    expect(texts).toContain('Label purchased: USPS Priority Mail ($8.50)');
    expect(texts).toContain(`New user registered: ${jane.email}`);
    const times = body.activity.map((a) => Date.parse(a.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  test('is for admins only', async () => {
    const user = await register(s);
    expect((await dashboard(user.token)).statusCode).toBe(403);
    expect((await dashboard()).statusCode).toBe(401);
  });
});

describe('GET /api/admin/dashboard with a service down', () => {
  test('answers with an error naming the problem instead of partial figures', { timeout: 30_000 }, async () => {
    const broken = await startStack();
    try {
      const boss = await registerAdmin(broken);
      const res = await broken.admin.inject({ url: '/api/admin/dashboard', headers: { token: boss.token } });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      expect(res.json()).toEqual({ code: expect.any(String), message: expect.any(String) });
    } finally {
      await broken.close();
    }
  });
});
