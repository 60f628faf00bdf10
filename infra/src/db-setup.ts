import pg from 'pg';

/**
 * The database's shape in production: one login role per service, each the
 * owner of its own schema and of nothing else. No role may create schemas,
 * nothing in `public`, and none can read another service's schema, so a
 * service that tries to reach past its own data fails at once. label-worker
 * is part of the orders context and logs in as `flatship_orders`.
 */
export const SERVICE_DATABASE_ROLES = {
  auth: { role: 'flatship_auth', schema: 'auth', passwordVariable: 'DB_PASSWORD_AUTH' },
  orders: { role: 'flatship_orders', schema: 'orders', passwordVariable: 'DB_PASSWORD_ORDERS' },
  payments: { role: 'flatship_payments', schema: 'payments', passwordVariable: 'DB_PASSWORD_PAYMENTS' },
  pricing: { role: 'flatship_pricing', schema: 'pricing', passwordVariable: 'DB_PASSWORD_PRICING' },
  admin: { role: 'flatship_admin', schema: 'admin', passwordVariable: 'DB_PASSWORD_ADMIN' },
} as const;

export type DatabaseRoleName = keyof typeof SERVICE_DATABASE_ROLES;
export const DATABASE_ROLE_NAMES = Object.keys(SERVICE_DATABASE_ROLES) as DatabaseRoleName[];

/** Which role each runnable logs in as (services and workers; the gateway needs no database on the kafka bus). */
export const ROLE_OF_SERVICE: Record<string, DatabaseRoleName> = {
  auth: 'auth',
  orders: 'orders',
  'label-worker': 'orders',
  payments: 'payments',
  'services-pricing': 'pricing',
  admin: 'admin',
};

/**
 * Extensions a service's migrations use, created by the privileged user: a
 * service role may not create them, and `create extension if not exists` in
 * its migration then finds them already there.
 */
export const DATABASE_EXTENSIONS = ['pg_trgm'] as const;

export interface DatabaseSetupOptions {
  /** A superuser (or a role with CREATEROLE and CREATEDB) connected to the product's database; created when missing. */
  adminUrl: string;
  /** Each role's password; a role that exists already gets it set again. */
  passwords: Record<DatabaseRoleName, string>;
}

export interface DatabaseSetupResult {
  database: string;
  /** The connection URL each role's services use, on the same server and database as `adminUrl`. */
  urls: Record<DatabaseRoleName, string>;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The URL a role logs in with: the admin URL's server and database with the role's credentials. */
export function roleUrl(adminUrl: string, role: string, password: string): string {
  const url = new URL(adminUrl);
  url.username = encodeURIComponent(role);
  url.password = encodeURIComponent(password);
  return url.toString();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseOf(adminUrl: string): string {
  const name = decodeURIComponent(new URL(adminUrl).pathname.replace(/^\//, ''));
  if (!name)
    throw new Error('DATABASE_ADMIN_URL must name the database to set up (postgres://user:pass@host/flatship)');
  return name;
}

/**
 * Creates the product's database when missing, one login role per service
 * owning its own schema, and the extensions the services need. Safe to run
 * again: existing roles get their password and restrictions set again,
 * schemas made before (by a service's own migrations under a shared user)
 * change owner, and nothing is dropped.
 */
export async function setupDatabase(opts: DatabaseSetupOptions): Promise<DatabaseSetupResult> {
  const database = databaseOf(opts.adminUrl);
  for (const name of DATABASE_ROLE_NAMES) {
    if (!opts.passwords[name]) throw new Error(`no password given for ${SERVICE_DATABASE_ROLES[name].role}`);
  }

  const maintenance = new URL(opts.adminUrl);
  maintenance.pathname = '/postgres';
  await withClient(maintenance.toString(), async (c) => {
    const { rowCount } = await c.query('select 1 from pg_database where datname = $1', [database]);
    // CREATE DATABASE cannot run in a transaction or take parameters; two setups at once: one wins, the other sees it.
    if (rowCount === 0) {
      await c.query(`create database ${ident(database)}`).catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e;
      });
    }
  });

  await withClient(opts.adminUrl, async (c) => {
    await c.query('begin');
    try {
      // Role and database changes of concurrent setups would otherwise collide on the catalogue.
      await c.query(`select pg_advisory_xact_lock(hashtext('flatship.db-setup'))`);
      // Nobody connects, creates schemas or temporary tables unless granted below.
      await c.query(`revoke all on database ${ident(database)} from public`);
      // Only the database's owner creates in public; everyone may still use what is there (extension functions).
      await c.query('revoke create on schema public from public');
      await c.query('grant usage on schema public to public');
      for (const extension of DATABASE_EXTENSIONS) {
        await c.query(`create extension if not exists ${ident(extension)} with schema public`);
      }
      for (const name of DATABASE_ROLE_NAMES) {
        const { role, schema } = SERVICE_DATABASE_ROLES[name];
        const password = literal(opts.passwords[name]);
        const limits = 'login nosuperuser nocreatedb nocreaterole noreplication nobypassrls';
        // Roles belong to the whole server: a setup of another database on it may be creating the same one.
        await c.query('savepoint role');
        try {
          await c.query(`create role ${ident(role)} with ${limits} password ${password}`);
          await c.query('release savepoint role');
        } catch (e) {
          if ((e as { code?: string }).code !== '42710') throw e;
          await c.query('rollback to savepoint role');
          await c.query(`alter role ${ident(role)} with ${limits} password ${password}`);
        }
        await c.query(`grant connect, temporary on database ${ident(database)} to ${ident(role)}`);
        await c.query(`create schema if not exists ${ident(schema)} authorization ${ident(role)}`);
        await c.query(`alter schema ${ident(schema)} owner to ${ident(role)}`);
        await c.query(`revoke all on schema ${ident(schema)} from public`);
        // Tables a shared user created before the split change hands too, so the service can still migrate them.
        await reassignSchemaObjects(c, schema, role);
      }
      await c.query('commit');
    } catch (e) {
      await c.query('rollback');
      throw e;
    }
  });

  const urls = Object.fromEntries(
    DATABASE_ROLE_NAMES.map((name) => [
      name,
      roleUrl(opts.adminUrl, SERVICE_DATABASE_ROLES[name].role, opts.passwords[name]),
    ]),
  ) as Record<DatabaseRoleName, string>;
  return { database, urls };
}

/** Makes `role` the owner of every table, sequence, view and function in `schema` it does not own yet. */
async function reassignSchemaObjects(c: pg.Client, schema: string, role: string) {
  const { rows } = await c.query<{ kind: string; name: string }>(
    `select case cl.relkind when 'S' then 'sequence' when 'v' then 'view' when 'm' then 'materialized view'
            else 'table' end as kind, quote_ident(cl.relname) as name
       from pg_class cl join pg_namespace n on n.oid = cl.relnamespace
      where n.nspname = $1 and cl.relkind in ('r', 'p', 'v', 'm', 'S') and pg_get_userbyid(cl.relowner) <> $2
        -- A sequence owned by a column moves with its table.
        and not exists (select 1 from pg_depend d where d.objid = cl.oid and d.deptype in ('a', 'i') and cl.relkind = 'S')`,
    [schema, role],
  );
  for (const { kind, name } of rows) await c.query(`alter ${kind} ${ident(schema)}.${name} owner to ${ident(role)}`);
}

/**
 * Each role's password from the environment: `DB_ROLE_PASSWORDS` as
 * `auth=…,orders=…` (one entry per role), or one variable per role
 * (`DB_PASSWORD_AUTH`, `DB_PASSWORD_ORDERS`, `DB_PASSWORD_PAYMENTS`,
 * `DB_PASSWORD_PRICING`, `DB_PASSWORD_ADMIN`), the latter winning.
 */
export function passwordsFromEnv(env: Record<string, string | undefined>): Record<DatabaseRoleName, string> {
  const listed = new Map<string, string>();
  for (const entry of (env.DB_ROLE_PASSWORDS ?? '').split(',').filter((e) => e.trim())) {
    const at = entry.indexOf('=');
    const name = entry.slice(0, at).trim();
    if (at < 1 || !(name in SERVICE_DATABASE_ROLES)) {
      throw new Error(
        `DB_ROLE_PASSWORDS: "${entry.slice(0, Math.max(at, 0)) || entry}" is not one of ${DATABASE_ROLE_NAMES.join(', ')} (expected name=password pairs)`,
      );
    }
    listed.set(name, entry.slice(at + 1));
  }
  const missing: string[] = [];
  const passwords = {} as Record<DatabaseRoleName, string>;
  for (const name of DATABASE_ROLE_NAMES) {
    const password = env[SERVICE_DATABASE_ROLES[name].passwordVariable] || listed.get(name);
    if (password) passwords[name] = password;
    else missing.push(SERVICE_DATABASE_ROLES[name].passwordVariable);
  }
  if (missing.length > 0) {
    throw new Error(`no password for ${missing.join(', ')}: set each of them, or DB_ROLE_PASSWORDS=auth=…,orders=…`);
  }
  return passwords;
}
