import { randomUUID } from 'node:crypto';
import { createDb, type Knex, migrate } from '@flatship/kit';
import { createTestDatabase } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { AUTH_SCHEMA, migrations } from '../src/db/migrations';

// Referrals made before 0009 have no time they were made: they take the time the user joined, the earliest it can
// have been, so a first deposit still to come pays the bonus it was promised.
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
beforeAll(async () => {
  tdb = await createTestDatabase('auth_referred_at');
  db = createDb(tdb.url, AUTH_SCHEMA, { max: 2 });
});
afterAll(async () => {
  await db?.destroy();
  await tdb?.drop();
});

const insert = async (referredBy: string | null, createdAt: Date) => {
  const id = randomUUID();
  await db('users').insert({
    id,
    name: 'Old User',
    email: `old-${id}@example.com`,
    password_hash: 'x',
    referral_code: id.slice(0, 8).toUpperCase(),
    referred_by: referredBy,
    created_at: createdAt,
  });
  return id;
};

test('0009 dates existing referrals from when the user joined; a referral is never without its time', async () => {
  const before = migrations.findIndex((m) => m.name === '0009_referred_at');
  await migrate(db, AUTH_SCHEMA, migrations.slice(0, before));
  const joined = new Date('2025-03-04T05:06:07.000Z');
  const referrer = await insert(null, new Date('2025-01-01T00:00:00.000Z'));
  const referred = await insert(referrer, joined);

  expect(await migrate(db, AUTH_SCHEMA, migrations.slice(0, before + 1))).toEqual(['0009_referred_at']);
  const rows = await db('users').whereIn('id', [referrer, referred]).select('id', 'referred_at');
  expect(new Map(rows.map((r) => [r.id, r.referred_at]))).toEqual(
    new Map([
      [referrer, null],
      [referred, joined],
    ]),
  );
  await expect(db('users').where({ id: referrer }).update({ referred_by: referred })).rejects.toThrow(
    /users_referred_at_check/,
  );
});
