import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDb, migrate } from '@flatship/kit';
import { migrateOutbox } from '@flatship/kit/bus';
import { createTestDatabase } from '@flatship/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DATABASE_ROLE_NAMES,
  type DatabaseRoleName,
  passwordsFromEnv,
  roleUrl,
  SERVICE_DATABASE_ROLES,
  setupDatabase,
} from '../src/db-setup';
import { REPO_ROOT } from '../src/paths';

const passwords = (suffix: string) =>
  Object.fromEntries(DATABASE_ROLE_NAMES.map((n) => [n, `${n}-secret-${suffix}`])) as Record<DatabaseRoleName, string>;

async function query(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/** The message PostgreSQL refuses `sql` with, or null when it runs. */
async function refusal(url: string, sql: string): Promise<string | null> {
  try {
    await query(url, sql);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let urls: Record<DatabaseRoleName, string>;

beforeAll(async () => {
  db = await createTestDatabase('dbsetup');
  ({ urls } = await setupDatabase({ adminUrl: db.url, passwords: passwords('one') }));
});
afterAll(async () => {
  await db?.drop();
});

describe('one login role per service', () => {
  test('each role creates, writes and reads tables in its own schema', async () => {
    for (const name of DATABASE_ROLE_NAMES) {
      const { schema, role } = SERVICE_DATABASE_ROLES[name];
      expect(new URL(urls[name]).username).toBe(role);
      await query(urls[name], `create table ${schema}.probe (id serial primary key, note text)`);
      await query(urls[name], `insert into ${schema}.probe (note) values ($1)`, [`written by ${role}`]);
      const { rows } = await query(urls[name], `select note from ${schema}.probe`);
      expect(rows).toEqual([{ note: `written by ${role}` }]);
      const owner = await query(
        db.url,
        'select nspowner::regrole::text as owner from pg_namespace where nspname = $1',
        [schema],
      );
      expect(owner.rows[0].owner).toBe(role);
    }
  });

  test("no role can read or write another service's schema", async () => {
    await query(urls.orders, 'create table orders.labels (id int primary key, tracking text)');
    await query(urls.orders, `insert into orders.labels values (1, '9400100000000000000001')`);
    expect(await refusal(urls.auth, 'select * from orders.labels')).toBe('permission denied for schema orders');
    expect(await refusal(urls.payments, 'delete from orders.labels')).toBe('permission denied for schema orders');
    expect(await refusal(urls.admin, 'create table orders.sneaky (id int)')).toBe(
      'permission denied for schema orders',
    );
    expect(await refusal(urls.orders, 'select * from auth.probe')).toBe('permission denied for schema auth');
    // Nor by changing the search path: a schema without usage is skipped.
    expect(await refusal(urls.pricing, `set search_path to payments; select * from probe`)).toMatch(
      /relation "probe" does not exist|permission denied/,
    );
  });

  test('no role can create schemas, objects in public, extensions, or other roles', async () => {
    expect(await refusal(urls.auth, 'create schema auth_extra')).toMatch(/^permission denied for database/);
    expect(await refusal(urls.orders, 'create table public.anything (id int)')).toBe(
      'permission denied for schema public',
    );
    expect(await refusal(urls.admin, 'create extension if not exists citext')).toMatch(/permission denied|must be/);
    expect(await refusal(urls.payments, `create role intruder login password 'x'`)).toMatch(/permission denied/);
  });

  test("the services' own migrations run as their role in the schema made for them", async () => {
    const authDb = createDb(urls.auth, 'auth');
    const adminDb = createDb(urls.admin, 'admin');
    try {
      const applied = await migrate(authDb, 'auth', [
        { name: '0001-accounts', up: (trx) => trx.schema.createTable('accounts', (t) => t.increments('id')) },
      ]);
      expect(applied).toEqual(['0001-accounts']);
      await migrateOutbox(authDb, 'auth');
      // The admin read model's migration asks for pg_trgm, which the privileged setup created.
      await migrate(adminDb, 'admin', [
        { name: '0001-trgm', up: (trx) => trx.raw('create extension if not exists pg_trgm') },
      ]);
      const { rows } = await adminDb.raw(`select similarity('Harbor Goods', 'Harbour Goods') > 0.5 as close`);
      expect(rows).toEqual([{ close: true }]);
      await expect(migrate(authDb, 'orders', [])).rejects.toThrow(/permission denied for (database|schema)/);
    } finally {
      await authDb.destroy();
      await adminDb.destroy();
    }
  });

  test('nobody else may connect to the database', async () => {
    const stranger = `stranger_${Date.now()}`;
    await query(db.url, `create role ${stranger} login password 'p'`);
    try {
      expect(await refusal(roleUrl(db.url, stranger, 'p'), 'select 1')).toMatch(
        /permission denied for database|not have CONNECT privilege/,
      );
    } finally {
      await query(db.url, `drop role ${stranger}`);
    }
  });
});

describe('running it again', () => {
  test('keeps every row, sets the passwords again and changes owners of schemas a shared user made', async () => {
    // An install that ran with one shared user: the orders tables belong to the superuser.
    await query(db.url, 'create table orders.legacy (id serial primary key, note text)');
    await query(db.url, `insert into orders.legacy (note) values ('before the split')`);

    const again = await setupDatabase({ adminUrl: db.url, passwords: passwords('two') });
    expect(await refusal(urls.orders, 'select 1')).toMatch(/password authentication failed/);
    const { rows } = await query(again.urls.orders, 'select note from orders.legacy');
    expect(rows).toEqual([{ note: 'before the split' }]);
    await query(again.urls.orders, `insert into orders.legacy (note) values ('after the split')`);
    await query(again.urls.orders, 'alter table orders.legacy add column tracking text');
    const probe = await query(again.urls.auth, 'select note from auth.probe');
    expect(probe.rows).toHaveLength(1);
    expect(await refusal(again.urls.auth, 'select * from orders.legacy')).toBe('permission denied for schema orders');
  });

  test('creates the database when it does not exist yet', async () => {
    const url = new URL(db.url);
    url.pathname = `/${url.pathname.slice(1)}_fresh`;
    try {
      const { urls: fresh } = await setupDatabase({ adminUrl: url.toString(), passwords: passwords('two') });
      await query(fresh.payments, 'create table payments.accounts (id int)');
      expect(await refusal(fresh.auth, 'select * from payments.accounts')).toBe(
        'permission denied for schema payments',
      );
    } finally {
      await query(db.url, `drop database if exists "${url.pathname.slice(1)}" with (force)`);
    }
  });
});

describe('passwords from the environment', () => {
  test('one variable per role, or DB_ROLE_PASSWORDS pairs; the per-role variable wins', () => {
    expect(
      passwordsFromEnv({
        DB_ROLE_PASSWORDS: 'auth=a1,orders=o1,payments=p1,pricing=r1,admin=d=1',
        DB_PASSWORD_ORDERS: 'o2',
      }),
    ).toEqual({ auth: 'a1', orders: 'o2', payments: 'p1', pricing: 'r1', admin: 'd=1' });
  });

  test('names every missing password and every unknown role', () => {
    expect(() => passwordsFromEnv({ DB_PASSWORD_AUTH: 'a' })).toThrow(
      'no password for DB_PASSWORD_ORDERS, DB_PASSWORD_PAYMENTS, DB_PASSWORD_PRICING, DB_PASSWORD_ADMIN',
    );
    expect(() => passwordsFromEnv({ DB_ROLE_PASSWORDS: 'shipping=x' })).toThrow(
      'DB_ROLE_PASSWORDS: "shipping" is not one of auth, orders, payments, pricing, admin',
    );
  });

  test('the command sets the database up from its variables and says what it did', async () => {
    const env = {
      ...process.env,
      DATABASE_ADMIN_URL: db.url,
      ...Object.fromEntries(DATABASE_ROLE_NAMES.map((n) => [SERVICE_DATABASE_ROLES[n].passwordVariable, `${n}-cli`])),
    };
    const run = promisify(execFile);
    const entry = join(REPO_ROOT, 'infra', 'dist', 'db-setup.js');
    const { stdout } = await run(process.execPath, [entry], { env, cwd: REPO_ROOT });
    expect(stdout).toContain('role flatship_payments owns schema payments');
    await query(roleUrl(db.url, 'flatship_payments', 'payments-cli'), 'select 1');

    const missing = await run(process.execPath, [entry], {
      env: { ...process.env, DATABASE_ADMIN_URL: db.url },
      cwd: REPO_ROOT,
    }).catch((e: { code: number; stderr: string }) => e);
    expect(missing).toMatchObject({ code: 78 });
    expect((missing as { stderr: string }).stderr).toContain('db-setup: no password for DB_PASSWORD_AUTH');
  });
});
