import type { PurchaseMemory } from '@flatship/carriers';
import type { Knex } from '@flatship/kit';

/**
 * The carriers' memory of purchases in the orders database (`carrier_memory`), shared by orders and every label
 * worker: it survives crashes and restarts, so a purchase retried anywhere finds what the first attempt kept.
 */
export function createCarrierMemory(db: Knex): PurchaseMemory {
  return {
    async get(key) {
      const row = await db('carrier_memory').where({ key }).first('value');
      return (row?.value as string | undefined) ?? null;
    },
    async put(key, value) {
      await db('carrier_memory').insert({ key, value }).onConflict('key').merge({ value, updated_at: db.fn.now() });
    },
    async keep(key, value) {
      const inserted = await db('carrier_memory').insert({ key, value }).onConflict('key').ignore().returning('value');
      if (inserted.length > 0) return value;
      // Another attempt kept one first. A statement of its own: the insert waited for that attempt to commit, and a
      // new statement sees what it committed (a select in the insert's statement would not).
      const row = await db('carrier_memory').where({ key }).first('value');
      if (!row) throw new Error(`carrier memory: ${key} was neither kept nor found`);
      return row.value as string;
    },
  };
}
