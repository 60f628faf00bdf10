import { createDb, createTransactor, type Knex, migrate } from '@flatship/kit';
import { createTestDatabase } from '@flatship/kit/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AUTH_SCHEMA, migrations } from '../src/db/migrations';
import { createUsersRepo } from '../src/db/users-repo';
import { type EnsureAdminDeps, ensureAdmin } from '../src/domain/ensure-admin';
import { testHasher } from './support';

let db: Knex;
let drop: () => Promise<void>;
beforeAll(async () => {
  const tdb = await createTestDatabase('auth_admin');
  drop = tdb.drop;
  db = createDb(tdb.url, AUTH_SCHEMA);
  await migrate(db, AUTH_SCHEMA, migrations);
});
afterAll(async () => {
  await db.destroy();
  await drop();
});

function deps(): EnsureAdminDeps & { lines: { level: string; obj: object; msg?: string }[] } {
  const lines: { level: string; obj: object; msg?: string }[] = [];
  const log = (level: string) => (obj: object, msg?: string) => lines.push({ level, obj, msg });
  return {
    users: createUsersRepo(db),
    hasher: testHasher(),
    transactor: createTransactor(db),
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    lines,
  };
}

describe('admin bootstrap', () => {
  test('refuses an invalid email or a short password before touching the database', async () => {
    await expect(ensureAdmin(deps(), { email: 'nope', password: 'long-enough-pw' })).rejects.toMatchObject({
      code: 'AUTH_INVALID_EMAIL',
    });
    await expect(ensureAdmin(deps(), { email: 'a@b.co', password: 'short' })).rejects.toMatchObject({
      code: 'AUTH_WEAK_PASSWORD',
    });
    expect(await db('users').count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);
  });

  test('an email that belongs to a non-admin is never promoted', async () => {
    const d = deps();
    const users = createUsersRepo(db);
    await users.insert({
      name: 'Squatter',
      email: 'taken@example.com',
      passwordHash: 'x',
      role: 'user',
      activation: 'allow',
      referralCode: 'SQUAT234',
      referredBy: null,
    });
    expect(await ensureAdmin(d, { email: 'Taken@Example.com', password: 'admin-password' })).toBe('email-taken');
    expect((await users.findByEmail('taken@example.com'))?.role).toBe('user');
    expect(d.lines.some((l) => l.level === 'error')).toBe(true);
    await db('users').where({ email: 'taken@example.com' }).delete();
  });

  test('concurrent starts create exactly one admin, logged with the email and never the password', async () => {
    const runs = Array.from({ length: 5 }, () => deps());
    const outcomes = await Promise.all(
      runs.map((d) => ensureAdmin(d, { email: ' Root@Example.com ', password: 'admin-password' })),
    );
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'admin-exists')).toHaveLength(4);

    const admins = await db('users').where({ role: 'admin' });
    expect(admins).toHaveLength(1);
    expect(admins[0]).toMatchObject({ email: 'root@example.com', activation: 'allow', name: 'Admin' });
    expect(admins[0].referral_code).toMatch(/^[A-Z2-9]{8}$/);
    expect(admins[0].password_hash).toMatch(/^\$argon2id\$/);

    const logged = runs.flatMap((d) => d.lines);
    expect(logged.filter((l) => l.msg === 'admin account created')).toEqual([
      { level: 'info', obj: { email: 'root@example.com' }, msg: 'admin account created' },
    ]);
    expect(JSON.stringify(logged)).not.toContain('admin-password');
  });

  test('a second start changes nothing, even with another email or password', async () => {
    const before = await db('users').orderBy('id');
    expect(await ensureAdmin(deps(), { email: 'other@example.com', password: 'different-password' })).toBe(
      'admin-exists',
    );
    expect(await db('users').orderBy('id')).toEqual(before);
  });
});
