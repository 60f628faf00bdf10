import { randomUUID } from 'node:crypto';
import { waitFor } from '@flatship/kit/testing';
import { TOPICS } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { followReadModels, USERS_VIEW_GROUP } from '../src/read-models';
import { eventually, handledAll, type Registered, registerAdmin, type Stack, startStack } from './support';

let s: Stack;
let admin: Registered;
beforeAll(async () => {
  s = await startStack();
  admin = await registerAdmin(s);
});
afterAll(() => s.close());

const row = (id: string) => s.adminDb('users_view').where({ id }).first();
const listedEmails = async (search: string) =>
  (
    await s.admin.inject({
      url: `/api/auth/users?search=${encodeURIComponent(search)}`,
      headers: { token: admin.token },
    })
  )
    .json()
    .users.map((u: { email: string }) => u.email);

function profile(id: string, over: Record<string, unknown> = {}) {
  return {
    id,
    role: 'user',
    activation: 'allow',
    tokenVersion: 1,
    name: 'Event Eve',
    email: `${id.slice(0, 8)}@events.example`,
    avatar: '',
    referralCode: `EV${id.slice(0, 6).toUpperCase()}`,
    referredBy: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}
const publishUser = (value: { id: string } & Record<string, unknown>) =>
  s.bus.publish(TOPICS.userChanged, [{ key: value.id, value }]);
const publishMoney = (value: { userId: string } & Record<string, unknown>) =>
  s.bus.publish(TOPICS.accountChanged, [{ key: value.userId, value }]);

describe('the user table follows events, whatever their order', () => {
  test('an older profile arriving after a newer one changes nothing', async () => {
    const id = randomUUID();
    await publishUser(profile(id, { name: 'Newer', updatedAt: '2026-02-01T00:00:00.000Z' }));
    await publishUser(profile(id, { name: 'Older', updatedAt: '2026-01-15T00:00:00.000Z' }));
    // Both have had their turn once the user table's consumer is past every event published so far.
    await handledAll(s, USERS_VIEW_GROUP, [TOPICS.userChanged]);
    expect(await row(id)).toMatchObject({ name: 'Newer' });
  });

  test('money with a lower seq than the stored one is ignored; money before the profile waits for it', async () => {
    const id = randomUUID();
    await publishMoney({ userId: id, balanceCents: 900, totalDepositCents: 1000, totalSpentCents: 100, seq: 20 });
    await publishMoney({ userId: id, balanceCents: 5, totalDepositCents: 5, totalSpentCents: 0, seq: 3 });
    await eventually(async () => expect(await row(id)).toMatchObject({ balance_cents: '900', money_seq: '20' }));
    // Not listed until auth's profile has arrived.
    const email = `${id.slice(0, 8)}@events.example`;
    expect(await listedEmails(email)).toEqual([]);
    await publishUser(profile(id));
    await eventually(async () => expect(await listedEmails(email)).toEqual([email]));
    expect(await row(id)).toMatchObject({
      balance_cents: '900',
      total_deposit_cents: '1000',
      total_spent_cents: '100',
    });
  });

  test('an event from before profiles were announced updates the access of a known user', async () => {
    const id = randomUUID();
    await publishUser(profile(id));
    await eventually(async () => expect(await row(id)).toBeDefined());
    await publishUser({ id, role: 'friend', activation: 'block', tokenVersion: 2 });
    await eventually(async () => expect(await row(id)).toMatchObject({ role: 'friend', activation: 'block' }));
  });

  test('a deleted user leaves the table; malformed events are skipped without stopping the rest', async () => {
    const id = randomUUID();
    const email = `${id.slice(0, 8)}@events.example`;
    await publishUser(profile(id));
    await eventually(async () => expect(await listedEmails(email)).toEqual([email]));
    await s.bus.publish(TOPICS.userChanged, [{ key: id, value: { id, nonsense: true } }]);
    await publishUser(profile(id, { deleted: true, tokenVersion: 2, updatedAt: '2026-03-01T00:00:00.000Z' }));
    await eventually(async () => expect(await listedEmails(email)).toEqual([]));
    expect((await row(id))?.deleted_at).toEqual(new Date('2026-03-01T00:00:00.000Z'));
  });
});

describe('starting the read models', () => {
  const deps = { view: {} as never, audit: {} as never, log: { warn() {} } };

  test("both groups are joined at once: neither waits for the other's join", async () => {
    // Each subscription resolves once its consumer has joined its group (on Kafka, seconds); here each one resolves
    // only when the other has started too, so joining them one after another never finishes.
    const started: string[] = [];
    const bus = {
      subscribe: async ({ group }: { group: string }) => {
        started.push(group);
        await waitFor(`the group beside ${group} to start joining`, () => started.length === 2, 2000);
        return { close: async () => {} };
      },
    };
    const subscriptions = await followReadModels(bus, deps);
    expect(subscriptions).toHaveLength(2);
    expect(started.sort()).toEqual(['admin-audit', 'admin-users-view']);
  });

  test('when one group cannot be joined, the start fails and the other subscription is closed', async () => {
    const closed: string[] = [];
    const bus = {
      subscribe: async ({ group }: { group: string }) => {
        if (group === 'admin-audit') throw new Error(`kafka consumer of group ${group} did not join the group`);
        return { close: async () => void closed.push(group) };
      },
    };
    await expect(followReadModels(bus, deps)).rejects.toThrow('kafka consumer of group admin-audit did not join');
    expect(closed).toEqual(['admin-users-view']);
  });
});
