import { createDb, createTransactor, type Knex, migrate } from '@flatship/kit';
import { createTestDatabase } from '@flatship/kit/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AUTH_SCHEMA, migrations } from '../src/db/migrations';
import { createUsersRepo } from '../src/db/users-repo';
import { insertUserWithReferralCode } from '../src/domain/insert-user';
import type { NewUser, UsersRepo } from '../src/domain/ports';

let db: Knex;
let users: UsersRepo;
let drop: () => Promise<void>;
beforeAll(async () => {
  const tdb = await createTestDatabase('auth_repo');
  drop = tdb.drop;
  db = createDb(tdb.url, AUTH_SCHEMA);
  await migrate(db, AUTH_SCHEMA, migrations);
  users = createUsersRepo(db);
});
afterAll(async () => {
  await db.destroy();
  await drop();
});

let n = 0;
const newUser = (over: Partial<NewUser> = {}): NewUser => ({
  name: 'N',
  email: `repo${++n}@example.com`,
  passwordHash: 'hash',
  role: 'user',
  activation: 'allow',
  referralCode: `CODE${String(n).padStart(4, '2')}`,
  referredBy: null,
  ...over,
});

describe('users table', () => {
  test('a taken email is reported as a conflict by the unique index, not thrown', async () => {
    const a = newUser();
    expect((await users.insert(a)).ok).toBe(true);
    expect(await users.insert(newUser({ email: a.email }))).toEqual({ ok: false, conflict: 'email' });
  });

  test('referral codes are unique whatever their case', async () => {
    await users.insert(newUser({ referralCode: 'MIXED234' }));
    expect(await users.insert(newUser({ referralCode: 'mixed234' }))).toEqual({ ok: false, conflict: 'referralCode' });
    expect((await users.findByReferralCode('Mixed234'))?.referralCode).toBe('MIXED234');
  });

  test('a colliding generated code is drawn again, inside a transaction too', async () => {
    await users.insert(newUser({ referralCode: 'TAKEN234' }));
    const codes = ['TAKEN234', 'taken234', 'FRESH234'];
    const created = await createTransactor(db).run((tx) =>
      insertUserWithReferralCode({ users, newReferralCode: () => codes.shift() as string }, newUser(), tx),
    );
    expect(created.referralCode).toBe('FRESH234');
    expect(codes).toEqual([]);
  });

  test('the database refuses roles, activations and emails no writer should produce', async () => {
    const raw = (over: object) =>
      db('users').insert({
        name: 'x',
        password_hash: 'h',
        referral_code: `R${++n}XYZ`,
        email: `raw${n}@x.co`,
        ...over,
      });
    await expect(raw({ role: 'root' })).rejects.toThrow(/users_role_check/);
    await expect(raw({ activation: 'maybe' })).rejects.toThrow(/users_activation_check/);
    await expect(raw({ email: ' Upper@X.co' })).rejects.toThrow(/users_email_normalised_check/);
  });

  test('new users start allowed, as plain users, at token version 1, with no avatar', async () => {
    const id = (await db('users')
      .insert({ name: 'd', email: 'defaults@example.com', password_hash: 'h', referral_code: 'DEFAULT2' })
      .returning('id')) as { id: string }[];
    const u = await users.findById(id[0]?.id as string);
    expect(u).toMatchObject({ role: 'user', activation: 'allow', tokenVersion: 1, avatar: '', referredBy: null });
  });

  test('a referrer is set only once', async () => {
    const a = await users.insert(newUser());
    const b = await users.insert(newUser());
    const me = await users.insert(newUser());
    if (!a.ok || !b.ok || !me.ok) throw new Error('setup failed');
    expect((await users.setReferredByOnce(me.user.id, a.user.id))?.referredBy).toBe(a.user.id);
    expect(await users.setReferredByOnce(me.user.id, b.user.id)).toBeNull();
  });

  test('ids that are not uuids find nobody instead of failing', async () => {
    expect(await users.findById('x')).toBeNull();
    expect(await users.changeRole('x', 'admin')).toBeNull();
    expect(await users.listReferredBy('x')).toEqual([]);
  });
});
