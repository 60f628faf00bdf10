import knex, { type Knex } from 'knex';

import { DATABASE_CLIENT, DEFAULT_POOL_IDLE_MS, isDatabaseUnavailable } from './db-basics';

export { DATABASE_CLIENT, DEFAULT_POOL_IDLE_MS, isDatabaseUnavailable };

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down?(db: Knex): Promise<void>;
}

export interface DbOptions {
  /** Pool bounds (defaults 0 and 10). */
  min?: number;
  max?: number;
  /**
   * How long a pooled connection may stay unused before it is closed (default `DEFAULT_POOL_IDLE_MS`). With `min` 0 a
   * quiet process keeps only the connections its own polling uses; each one open is a PostgreSQL backend.
   */
  idleTimeoutMs?: number;
  /**
   * How long a query waits for a pooled connection before failing (default 10 s). While
   * the database is down, opening one fails at once and so does the query; this bounds
   * the wait when every connection is busy or the server does not answer.
   */
  acquireTimeoutMs?: number;
  /** How long opening one connection (TCP, TLS, start-up) may take (default 5 s). */
  connectTimeoutMs?: number;
  /** Where knex's own warnings go (a pooled connection that died, a failed connect); the console by default. */
  logger?: { warn(obj: object, msg?: string): void };
}

/**
 * A knex instance whose queries run in the service's own schema.
 *
 * It outlives a database restart by itself: a connection that dies (idle or
 * mid-query) is marked by its 'error'/'end' listener, so its query fails and
 * the pool never hands it out again; later queries open fresh connections
 * once the server is back. No setting here makes a query wait for the server
 * to come back: callers fail fast and retry where that is safe.
 */
export function createDb(url: string, schema: string, opts: DbOptions = {}): Knex {
  const { logger } = opts;
  return knex({
    client: 'pg',
    connection: {
      connectionString: url,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
      // Lets the kernel notice a peer that vanished without closing the connection (a host lost, not a process).
      keepAlive: true,
    },
    searchPath: [schema, 'public'],
    acquireConnectionTimeout: opts.acquireTimeoutMs ?? 10_000,
    pool: { min: opts.min ?? 0, max: opts.max ?? 10, idleTimeoutMillis: opts.idleTimeoutMs ?? DEFAULT_POOL_IDLE_MS },
    ...(logger
      ? {
          log: {
            warn: (message: unknown) =>
              logger.warn({ detail: String(message), [DATABASE_CLIENT]: true }, 'database client warning'),
            error: (message: unknown) =>
              logger.warn({ detail: String(message), [DATABASE_CLIENT]: true }, 'database client error'),
            deprecate: (message: unknown) => logger.warn({ detail: String(message) }, 'database client deprecation'),
            debug: () => {},
          },
        }
      : {}),
  });
}

/**
 * A readiness check: the database answers a trivial query within `timeoutMs`.
 * Fails fast while it is down, and never hangs /readyz on a server that accepts
 * connections but does not answer (knex's own query timeout starts only once a
 * connection is in hand).
 */
export function databaseReadiness(db: Knex, timeoutMs = 2000): () => Promise<void> {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      // A query still waiting when the time is up settles later into the race, which has stopped listening.
      await Promise.race([db.raw('select 1'), late]);
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      throw new Error(`the database is not reachable (${typeof code === 'string' ? code : (e as Error).message})`);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * Runs `fn`, and runs it again after a short pause (100 ms, doubling to 1 s)
 * whenever it fails because the database is unreachable, until `forMs` have
 * passed; any other error, or the last one, is thrown. Lets work that must not
 * stop half-way ride out a database restart. Only for work that is safe to
 * repeat: when a connection dies during COMMIT, whether that attempt committed
 * is unknown, so `fn` must find out for itself.
 */
export async function retryWhileDatabaseUnavailable<T>(fn: () => Promise<T>, opts: { forMs: number }): Promise<T> {
  const deadline = Date.now() + opts.forMs;
  for (let pause = 100; ; pause = Math.min(pause * 2, 1000)) {
    try {
      return await fn();
    } catch (e) {
      if (!isDatabaseUnavailable(e) || Date.now() + pause > deadline) throw e;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * Creates `schema` when it does not exist yet. In production a database
 * administrator makes each service's schema beforehand and the service's role
 * may not create schemas; `create schema if not exists` would need that
 * privilege even for a schema that is already there.
 */
export async function ensureSchema(db: Knex, schema: string): Promise<void> {
  const { rows } = await db.raw('select 1 from pg_namespace where nspname = ?', [schema]);
  if (rows.length === 0) await db.raw('create schema ??', [schema]);
}

/**
 * Creates the schema and applies pending migrations, in order, under an
 * advisory lock so replicas starting together do not race.
 */
export async function migrate(db: Knex, schema: string, migrations: Migration[]): Promise<string[]> {
  const applied: string[] = [];
  await db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`migrate:${schema}`]);
    await ensureSchema(trx, schema);
    await trx.raw(
      `create table if not exists ??.schema_migrations (name text primary key, applied_at timestamptz not null default now())`,
      [schema],
    );
    const done = new Set(
      (await trx.withSchema(schema).select('name').from('schema_migrations')).map((r: { name: string }) => r.name),
    );
    await trx.raw('set local search_path to ??, public', [schema]);
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      await m.up(trx);
      await trx.withSchema(schema).insert({ name: m.name }).into('schema_migrations');
      applied.push(m.name);
    }
  });
  return applied;
}

export type { Knex };
