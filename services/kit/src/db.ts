import knex, { type Knex } from 'knex';

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down?(db: Knex): Promise<void>;
}

/** A knex instance whose queries run in the service's own schema. */
export function createDb(url: string, schema: string, pool: { min?: number; max?: number } = {}): Knex {
  return knex({
    client: 'pg',
    connection: url,
    searchPath: [schema, 'public'],
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
  });
}

/**
 * Creates the schema and applies pending migrations, in order, under an
 * advisory lock so replicas starting together do not race.
 */
export async function migrate(db: Knex, schema: string, migrations: Migration[]): Promise<string[]> {
  const applied: string[] = [];
  await db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`migrate:${schema}`]);
    await trx.raw(`create schema if not exists ??`, [schema]);
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
