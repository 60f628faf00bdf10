import { randomUUID } from 'node:crypto';
import { type AdminUserRow, type AdminUsersReply, TOPICS } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { USERS_VIEW_GROUP } from '../src/read-models';
import {
  CARRIER_BALANCE_CENTS,
  eventually,
  handledAll,
  INTERNAL_SECRET,
  type Registered,
  register,
  registerAdmin,
  type Stack,
  startStack,
} from './support';

let s: Stack;
let admin: Registered;
beforeAll(async () => {
  s = await startStack();
  admin = await registerAdmin(s);
});
afterAll(() => s.close());

async function list(query: Record<string, string | number> = {}, token = admin.token) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return s.admin.inject({ url: `/api/auth/users?${qs}`, headers: { token } });
}
async function listed(query: Record<string, string | number>): Promise<AdminUsersReply> {
  const res = await list(query);
  expect(res.statusCode).toBe(200);
  return res.json();
}
const setBalance = (id: string, balance: number) =>
  s.admin.inject({
    method: 'POST',
    url: `/api/auth/users/details/${id}`,
    headers: { token: admin.token },
    payload: { balance },
  });
const charge = (userId: string, cents: number) =>
  s.paymentsClient.request('POST', '/internal/ledger/charge', {
    body: { userId, amountCents: cents, key: randomUUID() },
  });

/** A group of users whose names share a tag no other test uses, with money of their own. */
async function group(tag: string, people: { name: string; balance: number }[]): Promise<Registered[]> {
  const made: Registered[] = [];
  for (const p of people) {
    const r = await register(s, `${p.name} ${tag}`);
    if (p.balance > 0) await setBalance(r.user._id, p.balance);
    made.push(r);
  }
  await eventually(async () => {
    const reply = await listed({ search: tag, limit: 100 });
    expect(reply.users.map((u) => u.balance).sort()).toEqual(people.map((p) => p.balance).sort());
  });
  return made;
}

describe('GET /api/auth/users', () => {
  test('a registered user appears with their profile and money once the events arrive', async () => {
    const user = await register(s, 'Listed Lucy');
    await setBalance(user.user._id, 42.5);
    const row = await eventually(async () => {
      const reply = await listed({ search: user.email });
      expect(reply.users).toHaveLength(1);
      expect(reply.users[0]?.balance).toBe(42.5);
      return reply.users[0] as AdminUserRow;
    });
    expect(row).toEqual({ ...user.user, balance: 42.5, totalDeposit: 0, totalSpent: 0 });
  });

  test('deposits and spend show as totals; changes made by an admin show at once', async () => {
    const user = await register(s, 'Money Mike');
    await setBalance(user.user._id, 10);
    await charge(user.user._id, 250).catch(() => {});
    await eventually(async () => {
      const [row] = (await listed({ search: user.email })).users;
      expect(row).toMatchObject({ balance: 7.5, totalSpent: 2.5 });
    });
    await s.admin.inject({
      method: 'POST',
      url: `/api/auth/users/activation/${user.user._id}`,
      headers: { token: admin.token },
      payload: { activation: 'block' },
    });
    expect((await listed({ search: user.email })).users[0]?.activation).toBe('block');
  });

  test('search matches name, email or referral code, in any case, anywhere in the text', async () => {
    const tag = `srch${Date.now().toString(36)}`;
    const [ann] = await group(tag, [
      { name: 'Annabel', balance: 0 },
      { name: 'Bob', balance: 0 },
    ]);
    const byName = await listed({ search: `NABEL ${tag}`.toUpperCase() });
    expect(byName.users.map((u) => u._id)).toEqual([ann?.user._id]);
    const byEmail = await listed({ search: (ann as Registered).email.slice(3, 15).toUpperCase() });
    expect(byEmail.users.map((u) => u._id)).toContain(ann?.user._id);
    const code = (ann as Registered).user.referralCode;
    const byCode = await listed({ search: code.slice(1, 6).toLowerCase() });
    expect(byCode.users.map((u) => u._id)).toContain(ann?.user._id);
    expect((await listed({ search: tag })).totalCount).toBe(2);
    // Wildcards are plain characters.
    expect((await listed({ search: `${tag}%` })).totalCount).toBe(0);
    expect((await listed({ search: 'zz_no_such_user_zz' })).users).toEqual([]);
  });

  test('pages, and the totals row sums every matching user, not only the page', async () => {
    const tag = `page${Date.now().toString(36)}`;
    await group(tag, [
      { name: 'P1', balance: 1 },
      { name: 'P2', balance: 2 },
      { name: 'P3', balance: 3.25 },
      { name: 'P4', balance: 4 },
      { name: 'P5', balance: 5 },
    ]);
    const first = await listed({ search: tag, limit: 2, page: 1, sort: 'balance', order: 'asc' });
    expect(first).toMatchObject({ totalCount: 5, page: 1, limit: 2, totals: { balance: 15.25 } });
    expect(first.users.map((u) => u.balance)).toEqual([1, 2]);
    const third = await listed({ search: tag, limit: 2, page: 3, sort: 'balance', order: 'asc' });
    expect(third.users.map((u) => u.balance)).toEqual([5]);
    expect(third.totals.balance).toBe(15.25);
    const beyond = await listed({ search: tag, limit: 2, page: 9 });
    expect(beyond).toMatchObject({ users: [], totalCount: 5, totals: { balance: 15.25 } });
  });

  test('sorts by every column, both ways', async () => {
    const tag = `sort${Date.now().toString(36)}`;
    const made = await group(tag, [
      { name: 'cecil', balance: 3 },
      { name: 'Adam', balance: 1 },
      { name: 'bella', balance: 2 },
    ]);
    await s.admin.inject({
      method: 'POST',
      url: `/api/auth/users/role/${made[0]?.user._id}`,
      headers: { token: admin.token },
      payload: { user_role: 'friend' },
    });
    await s.deposit(made[1]?.user._id as string, 500);
    await eventually(async () => {
      const r = await listed({ search: tag, sort: 'totalDeposit', order: 'desc' });
      expect(r.users[0]?.totalDeposit).toBe(5);
    });
    const names = async (sort: string, order: 'asc' | 'desc') =>
      (await listed({ search: tag, sort, order })).users.map((u) => u.name.split(' ')[0]);
    expect(await names('name', 'asc')).toEqual(['Adam', 'bella', 'cecil']);
    expect(await names('name', 'desc')).toEqual(['cecil', 'bella', 'Adam']);
    expect(await names('balance', 'desc')).toEqual(['Adam', 'cecil', 'bella']);
    expect(await names('balance', 'asc')).toEqual(['bella', 'cecil', 'Adam']);
    expect((await names('totalDeposit', 'desc'))[0]).toBe('Adam');
    expect((await names('user_role', 'asc'))[0]).toBe('cecil');
    expect(await names('createdAt', 'asc')).toEqual(['cecil', 'Adam', 'bella']);
    expect(await names('createdAt', 'desc')).toEqual(['bella', 'Adam', 'cecil']);
    for (const sort of ['email', 'activation', 'referralCode', 'totalSpent']) {
      for (const order of ['asc', 'desc'] as const) {
        const r = await listed({ search: tag, sort, order });
        expect(r.users).toHaveLength(3);
      }
    }
    const byEmail = (await listed({ search: tag, sort: 'email', order: 'asc' })).users.map((u) => u.email);
    expect(byEmail).toEqual([...byEmail].sort());
  });

  test('the newest users come first by default', async () => {
    const tag = `dflt${Date.now().toString(36)}`;
    await group(tag, [
      { name: 'Older', balance: 0 },
      { name: 'Newer', balance: 0 },
    ]);
    const r = await listed({ search: tag });
    expect(r.users.map((u) => u.name.split(' ')[0])).toEqual(['Newer', 'Older']);
    expect(r).toMatchObject({ page: 1, limit: 25 });
  });

  test('a deleted user is no longer listed', async () => {
    const user = await register(s, 'Deleted Dora');
    await eventually(async () => expect((await listed({ search: user.email })).totalCount).toBe(1));
    await s.admin.inject({
      method: 'DELETE',
      url: `/api/auth/users/${user.user._id}`,
      headers: { token: admin.token },
    });
    expect((await listed({ search: user.email })).totalCount).toBe(0);
    // Also once auth's own event has arrived.
    await handledAll(s, USERS_VIEW_GROUP, [TOPICS.userChanged]);
    expect((await listed({ search: user.email })).totalCount).toBe(0);
  });

  test.each([
    [{ limit: 101 }],
    [{ limit: 0 }],
    [{ page: 0 }],
    [{ sort: 'password' }],
    [{ order: 'up' }],
    [{ search: 'x'.repeat(201) }],
  ])('a malformed query %j is refused with 400', async (query) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });
});

describe('the seed fills the user table from auth and payments', () => {
  test('after the table is emptied, one seed brings every user back with their money', async () => {
    const user = await register(s, 'Seeded Sam');
    await setBalance(user.user._id, 9.99);
    await eventually(async () => expect((await listed({ search: user.email })).users[0]?.balance).toBe(9.99));
    const before = await listed({ limit: 100 });

    await s.adminDb('users_view').delete();
    expect((await listed({})).totalCount).toBe(0);
    const seeded = await s.admin.inject({
      method: 'POST',
      url: '/internal/users-view/seed',
      headers: { 'x-internal-secret': INTERNAL_SECRET },
    });
    expect(seeded.statusCode).toBe(200);
    expect(seeded.json().users).toBeGreaterThanOrEqual(before.totalCount);
    const after = await listed({ limit: 100 });
    expect(after.totalCount).toBe(before.totalCount);
    expect(after.totals).toEqual(before.totals);
    expect((await listed({ search: user.email })).users[0]).toMatchObject({ name: 'Seeded Sam', balance: 9.99 });
  });

  test('a figure newer than what the seed reads is kept (writes are guarded by seq and updatedAt)', async () => {
    const user = await register(s, 'Guarded Gus');
    await setBalance(user.user._id, 5);
    await eventually(async () => expect((await listed({ search: user.email })).users[0]?.balance).toBe(5));
    await s.adminDb('users_view').where({ id: user.user._id }).update({ money_seq: 1e12, balance_cents: 777 });
    await s.admin.inject({
      method: 'POST',
      url: '/internal/users-view/seed',
      headers: { 'x-internal-secret': INTERNAL_SECRET },
    });
    expect((await listed({ search: user.email })).users[0]?.balance).toBe(7.77);
  });

  test('the seed route needs the internal secret', async () => {
    const res = await s.admin.inject({
      method: 'POST',
      url: '/internal/users-view/seed',
      headers: { token: admin.token },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('a hundred thousand users', () => {
  test('a page, a search and a money sort are right over a hundred thousand users', async () => {
    await s.adminDb.raw(`
      insert into users_view (id, name, email, role, activation, referral_code, created_at, profile_updated_at,
                              balance_cents, total_deposit_cents, total_spent_cents, money_seq)
      select gen_random_uuid(), 'Bulk User ' || g, 'bulk' || g || '@load.example', 'user', 'allow', 'BULK' || g,
             now() - g * interval '1 minute', now(), (g * 37) % 100000, g % 5000, g % 700, g
      from generate_series(1, 100000) g`);
    await s.adminDb.raw('analyze users_view');
    const page = await listed({ page: 2, limit: 100, sort: 'balance', order: 'desc' });
    const search = await listed({ search: 'bulk4242', limit: 25 });
    expect(page.users).toHaveLength(100);
    expect(page.totalCount).toBeGreaterThanOrEqual(100_000);
    const balances = page.users.map((u) => u.balance);
    expect(balances).toEqual([...balances].sort((a, b) => b - a));
    expect(search.users.map((u) => u.email)).toContain('bulk4242@load.example');
    expect(search.totalCount).toBe(11); // bulk4242 and bulk42420..bulk42429
    // How fast: the benchmark in infra/bench/admin-users prints the figures (a test does not time itself).
  }, 120_000);
});

describe('GET /api/auth/api/balance', () => {
  test("gives the enabled carriers' account balance in dollars", async () => {
    const res = await s.admin.inject({ url: '/api/auth/api/balance', headers: { token: admin.token } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      balance: CARRIER_BALANCE_CENTS / 100,
      warnBelow: 100,
      isLow: false,
      carriers: [{ id: 'sandbox-usps', name: 'USPS', balance: CARRIER_BALANCE_CENTS / 100, isLow: false }],
    });
  });
});
