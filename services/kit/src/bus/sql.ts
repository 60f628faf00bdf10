import type { Knex } from 'knex';

type Conn = Knex | Knex.Transaction;

/** Runs a raw statement and returns its rows (knex's raw result on pg is the driver's result). */
export async function query<T>(conn: Conn, sql: string, bindings: readonly Knex.RawBinding[] = []): Promise<T[]> {
  const result = (await conn.raw(sql, bindings)) as { rows: T[] };
  return result.rows;
}

/** Runs a raw statement and returns how many rows it touched. */
export async function execute(conn: Conn, sql: string, bindings: readonly Knex.RawBinding[] = []): Promise<number> {
  const result = (await conn.raw(sql, bindings)) as { rowCount: number | null };
  return result.rowCount ?? 0;
}
