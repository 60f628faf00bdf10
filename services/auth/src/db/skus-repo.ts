import type { Knex } from '@flatship/kit';
import { fromTx } from '@flatship/kit';
import { isId } from '@flatship/proto';
import type { Tx } from '../domain/ports';
import type { SkuFields, SkuRecord, SkusRepo, WriteSkusResult } from '../domain/sku-ports';
import { uniqueViolation } from './pg-errors';

interface SkuRow {
  id: string;
  user_id: string;
  sku: string;
  max_qty: number;
  // pg returns numeric as text so that no precision is lost on the way.
  weight: string;
  length: string;
  width: string;
  height: string;
  description: string;
  created_at: Date;
  updated_at: Date;
}

export const SKU_UNIQUE = 'skus_user_sku_key';

const toRecord = (r: SkuRow): SkuRecord => ({
  id: r.id,
  userId: r.user_id,
  sku: r.sku,
  maxQty: r.max_qty,
  weight: Number(r.weight),
  length: Number(r.length),
  width: Number(r.width),
  height: Number(r.height),
  description: r.description,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toColumns = (f: SkuFields) => ({
  sku: f.sku,
  max_qty: f.maxQty,
  weight: String(f.weight),
  length: String(f.length),
  width: String(f.width),
  height: String(f.height),
  description: f.description,
});

export function createSkusRepo(db: Knex): SkusRepo {
  const q = (tx?: Tx) => (fromTx(tx) ?? db)<SkuRow>('skus');

  /**
   * Runs one write in a savepoint (or a transaction of its own), so a taken SKU does not poison the caller's
   * transaction; the unique index, not an earlier read, decides between two writers racing for one SKU.
   */
  async function write(
    tx: Tx | undefined,
    run: (k: Knex.Transaction) => Promise<SkuRow[]>,
  ): Promise<WriteSkusResult | null> {
    try {
      const rows = await (fromTx(tx) ?? db).transaction(run);
      return rows.length > 0 ? { ok: true, skus: rows.map(toRecord) } : null;
    } catch (e) {
      if (uniqueViolation(e) === SKU_UNIQUE) return { ok: false, conflict: 'sku' };
      throw e;
    }
  }

  const rowsOf = (userId: string, fields: SkuFields[]) => fields.map((f) => ({ user_id: userId, ...toColumns(f) }));

  return {
    async listByUser(userId, tx) {
      if (!isId(userId)) return [];
      const rows = await q(tx).where({ user_id: userId }).orderByRaw('lower(sku), sku, id');
      return rows.map(toRecord);
    },
    async countByUser(userId, tx) {
      if (!isId(userId)) return 0;
      const row = await q(tx).where({ user_id: userId }).count<{ count: string }[]>('* as count').first();
      return Number(row?.count ?? 0);
    },
    async findBySkus(userId, skus, tx) {
      if (!isId(userId) || skus.length === 0) return [];
      const rows = await q(tx)
        .where({ user_id: userId })
        .whereRaw('lower(sku) in (select lower(s) from unnest(?::text[]) s)', [`{${skus.map(pgArrayItem).join(',')}}`]);
      return rows.map(toRecord);
    },
    async insertMany(userId, fields, tx) {
      if (fields.length === 0) return { ok: true, skus: [] };
      const result = await write(tx, (k) => k<SkuRow>('skus').insert(rowsOf(userId, fields)).returning('*'));
      if (!result) throw new Error('insert returned no row');
      return result;
    },
    async upsertMany(userId, fields, tx) {
      if (fields.length === 0) return { ok: true, skus: [] };
      const result = await write(tx, (k) =>
        k<SkuRow>('skus')
          .insert(rowsOf(userId, fields))
          .onConflict(k.raw('(user_id, lower(sku))'))
          .merge({
            sku: k.raw('excluded.sku'),
            max_qty: k.raw('excluded.max_qty'),
            weight: k.raw('excluded.weight'),
            length: k.raw('excluded.length'),
            width: k.raw('excluded.width'),
            height: k.raw('excluded.height'),
            description: k.raw('excluded.description'),
            updated_at: k.fn.now(),
          })
          .returning('*'),
      );
      if (!result) throw new Error('upsert returned no row');
      return result;
    },
    async update(userId, id, fields, tx) {
      if (!isId(userId) || !isId(id)) return null;
      return write(tx, (k) =>
        k<SkuRow>('skus')
          .where({ id, user_id: userId })
          .update({ ...toColumns(fields), updated_at: k.fn.now() })
          .returning('*'),
      );
    },
    async delete(id, userId, tx) {
      if (!isId(id) || (userId !== null && !isId(userId))) return false;
      const query = q(tx).where({ id });
      if (userId !== null) query.andWhere({ user_id: userId });
      return (await query.delete()) > 0;
    },
  };
}

/** One element of a PostgreSQL array literal: quoted, with quotes and backslashes escaped, so any SKU text is safe. */
const pgArrayItem = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
