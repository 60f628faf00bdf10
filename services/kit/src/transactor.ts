import type { Knex } from 'knex';

declare const txBrand: unique symbol;
/**
 * An open database transaction. The domain only hands it on to repositories
 * and the event publisher, so it stays opaque there and the database client
 * never leaks into the rules.
 */
export interface Tx {
  readonly [txBrand]: true;
}

export interface Transactor {
  /** Runs `fn` in one transaction; `lockKey` serialises runs that share it (an advisory lock). */
  run<T>(fn: (tx: Tx) => Promise<T>, opts?: { lockKey?: string }): Promise<T>;
}

// The only place the opaque domain transaction meets knex: both directions are
// the same object, the domain just may not look inside.
export const toTx = (trx: Knex.Transaction): Tx => trx as unknown as Tx;
export const fromTx = (tx: Tx | undefined): Knex.Transaction | undefined =>
  tx as unknown as Knex.Transaction | undefined;

export function createTransactor(db: Knex): Transactor {
  return {
    run(fn, opts = {}) {
      return db.transaction(async (trx) => {
        if (opts.lockKey) await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [opts.lockKey]);
        return fn(toTx(trx));
      });
    },
  };
}
