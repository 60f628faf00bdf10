import type { Knex } from '@flatship/kit';
import type { Transactor, Tx } from '../domain/ports';

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
