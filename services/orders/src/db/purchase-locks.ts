import { AppError, type Knex } from '@flatship/kit';
import { MESSAGES } from '../domain/messages';
import type { PurchaseHold, PurchaseLocks } from '../domain/ports';

/**
 * SQL for the advisory-lock key of the purchase of the label whose id (text) is `idSql`: 64 bits
 * of a hash. Two labels sharing a key only makes one look busy while the other is being bought.
 */
export const labelLockKeySql = (idSql: string) => `hashtextextended('label-purchase:' || ${idSql}, 0)`;

/**
 * SQL: the advisory locks granted in this database, as `pid` and the bigint `key` made whole again
 * (pg_locks shows a bigint key as its high half in `classid` and its low half in `objid`).
 */
const advisoryLocksSql = `select l.pid, ((l.classid::bigint << 32) | l.objid::bigint) as key from pg_locks l
   where l.locktype = 'advisory' and l.granted and l.objsubid = 1
     and l.database = (select oid from pg_database where datname = current_database())`;

/** SQL: the keys of every advisory lock held right now (one read of pg_locks, however many rows ask). */
export const heldLockKeysSql = `select key from (${advisoryLocksSql}) held`;

/** SQL: the sessions (`pid`) holding the purchase lock of the label whose id (text) is `idSql`. */
export const labelLockHoldersSql = (idSql: string) =>
  `select pid from (${advisoryLocksSql}) held where held.key = ${labelLockKeySql(idSql)}`;

/** The node-postgres client behind a pooled knex connection: the lock belongs to its session. */
interface PgConnection {
  query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
  /** knex's mark for a connection its pool must not hand out again. */
  __knex__disposed?: unknown;
}

interface PoolClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
}

/**
 * Purchase locks as PostgreSQL session-level advisory locks, each held on a connection of its own
 * taken from `lockDb` for as long as the purchase runs. If the process dies, its connections close
 * and PostgreSQL lets go of their locks at once.
 *
 * `lockDb` must be a pool of its own, never the one the domain writes through: every purchase holds
 * one lock connection across its carrier call and still needs other connections to write, so with
 * one shared pool enough concurrent purchases would hold every connection and wait for one forever.
 * Its size caps how many purchases are worked on at once in this process; up to `waiting` more wait
 * for a connection before they start (before their row exists), and one more is refused at once
 * (`503 ORDERS_BUSY`, Retry-After): a line with no end would only make every purchase in it slower.
 */
export function createPurchaseLocks(lockDb: Knex, opts: { waiting?: number } = {}): PurchaseLocks {
  const pool = lockDb.client as PoolClient;
  const key = labelLockKeySql('$1');
  const atWork = (lockDb.client as { config?: { pool?: { max?: number } } }).config?.pool?.max ?? 10;
  const capacity = atWork + (opts.waiting ?? atWork);
  /** Holds asked for and not yet let go in this process: at work, or waiting for a connection. */
  let inLine = 0;
  const leave = () => {
    inLine--;
  };

  return {
    async tryHold(labelId) {
      if (inLine >= capacity) throw new AppError('ORDERS_BUSY', MESSAGES.busy, { retryAfterS: 1 });
      inLine++;
      let connection: PgConnection;
      try {
        connection = await pool.acquireConnection();
      } catch (err) {
        leave();
        throw err;
      }
      let held: boolean;
      try {
        const { rows } = await connection.query(`select pg_try_advisory_lock(${key}) as held`, [labelId]);
        held = rows[0]?.held === true;
      } catch (err) {
        leave();
        await drop(pool, connection, err);
        throw err;
      }
      if (held) return holdOn(pool, connection, labelId, leave);
      leave();
      await pool.releaseConnection(connection);
      return null;
    },
  };
}

function holdOn(pool: PoolClient, connection: PgConnection, labelId: string, leave: () => void): PurchaseHold {
  let released = false;
  return {
    async canCharge() {
      if (released) return false;
      const { rows } = await connection.query(
        `select 1 from labels where id = $1 and status = 'pending' and refund_started_at is null`,
        [labelId],
      );
      return rows.length === 1;
    },

    async release() {
      if (released) return;
      released = true;
      leave();
      try {
        const { rows } = await connection.query(`select pg_advisory_unlock(${labelLockKeySql('$1')}) as unlocked`, [
          labelId,
        ]);
        if (rows[0]?.unlocked !== true) throw new Error(`purchase lock of label ${labelId} was not held`);
      } catch (err) {
        await drop(pool, connection, err);
        return;
      }
      await pool.releaseConnection(connection);
    },
  };
}

/**
 * A session that may still hold a lock must never serve another purchase: closing it ends the
 * session, and any lock with it (usually it is dead already, and its locks gone).
 */
async function drop(pool: PoolClient, connection: PgConnection, why: unknown): Promise<void> {
  connection.__knex__disposed ??= why;
  await connection.end().catch(() => {});
  await pool.releaseConnection(connection);
}
