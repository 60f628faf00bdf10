import type { Knex } from '@flatship/kit';
import type { Transactor, Tx } from '../domain/ports';

// The only place the opaque domain transaction meets knex.
export const toTx = (trx: Knex.Transaction): Tx => trx as unknown as Tx;
export const fromTx = (tx: Tx | undefined): Knex.Transaction | undefined =>
  tx as unknown as Knex.Transaction | undefined;

export function createTransactor(db: Knex): Transactor {
  return { run: (fn) => db.transaction((trx) => fn(toTx(trx))) };
}
