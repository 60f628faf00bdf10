import type { Knex } from '@flatship/kit';
import { fromTx } from '@flatship/kit';
import { isId } from '@flatship/proto';
import type {
  DefaultServicesRepo,
  PriceBand,
  ServiceRecord,
  ServiceShape,
  ServiceStatus,
  Tx,
  UserServicesRepo,
} from '../domain/ports';

interface ServiceRow {
  id: string;
  uid: string;
  name: string;
  category: string;
  max_weight: number;
  enabled: boolean;
  prices: PriceBand[];
  status: ServiceStatus;
}

const toRecord = (r: ServiceRow): ServiceRecord => ({
  id: r.id,
  uid: r.uid,
  name: r.name,
  category: r.category,
  maxWeight: r.max_weight,
  enabled: r.enabled,
  status: r.status,
  prices: r.prices.map((p) => ({ fromWeight: p.fromWeight, toWeight: p.toWeight, priceCents: p.priceCents })),
});

// Only the keys the domain defined are stored, whatever else an object carries.
const pricesJson = (prices: readonly PriceBand[]) =>
  JSON.stringify(prices.map((p) => ({ fromWeight: p.fromWeight, toWeight: p.toWeight, priceCents: p.priceCents })));

const COLUMNS = ['s.id', 's.uid', 's.name', 's.category', 's.max_weight', 's.enabled', 's.prices', 'r.status'];
const ORDER = [
  { column: 'r.position', order: 'asc' as const },
  { column: 's.uid', order: 'asc' as const },
];

/** The parts default and per-user services share: a table of services joined to their raw service's status. */
function createTableAccess(db: Knex, table: 'default_services' | 'user_services') {
  const k = (tx?: Tx) => fromTx(tx) ?? db;
  const select = (tx?: Tx) =>
    k(tx)<ServiceRow>(`${table} as s`).join('raw_services as r', 'r.uid', 's.uid').select(COLUMNS).orderBy(ORDER);
  const byId = async (id: string, tx?: Tx) => {
    const row = await select(tx).where('s.id', id).first();
    return row ? toRecord(row) : null;
  };
  const update = async (id: string, values: Record<string, unknown>, tx?: Tx) => {
    if (!isId(id)) return null;
    const n = await k(tx)(table)
      .where({ id })
      .update({ ...values, updated_at: db.fn.now() });
    return n > 0 ? byId(id, tx) : null;
  };
  return {
    k,
    select,
    update,
    async findById(id: string, tx?: Tx) {
      return isId(id) ? byId(id, tx) : null;
    },
    setEnabled: (id: string, enabled: boolean, tx?: Tx) => update(id, { enabled }, tx),
    setPrices: (id: string, prices: PriceBand[], tx?: Tx) =>
      update(id, { prices: db.raw('?::jsonb', [pricesJson(prices)]) }, tx),
    async setShape(id: string, shape: ServiceShape, tx?: Tx) {
      await update(
        id,
        {
          category: shape.category,
          max_weight: shape.maxWeight,
          prices: db.raw('?::jsonb', [pricesJson(shape.prices)]),
        },
        tx,
      );
    },
  };
}

export function createDefaultServicesRepo(db: Knex): DefaultServicesRepo {
  const t = createTableAccess(db, 'default_services');
  return {
    async list(tx) {
      return (await t.select(tx)).map(toRecord);
    },
    findById: t.findById,
    async insertMissing(services, tx) {
      if (services.length === 0) return;
      await t
        .k(tx)('default_services')
        .insert(
          services.map((s) => ({
            uid: s.uid,
            name: s.name,
            category: s.category,
            max_weight: s.maxWeight,
            enabled: s.enabled,
            prices: db.raw('?::jsonb', [pricesJson(s.prices)]),
          })),
        )
        .onConflict('uid')
        .ignore();
    },
    setEnabled: t.setEnabled,
    setPrices: t.setPrices,
    setName: (id, name, tx) => t.update(id, { name }, tx),
    setShape: t.setShape,
    async isNameTaken(name, exceptId, tx) {
      const row = await t
        .k(tx)('default_services')
        .whereRaw('lower(btrim(name)) = lower(btrim(?))', [name])
        .whereNot({ id: exceptId })
        .first('id');
      return row !== undefined;
    },
  };
}

export function createUserServicesRepo(db: Knex): UserServicesRepo {
  const t = createTableAccess(db, 'user_services');
  return {
    async listByUser(userId, tx) {
      return (await t.select(tx).where('s.user_id', userId)).map(toRecord);
    },
    async listEffective(userId, tx) {
      const k = t.k(tx);
      // Own rows count only with their raw service, exactly as listByUser reads them.
      const ownRows = (table: string) =>
        k(`${table} as s`)
          .join('raw_services as r', 'r.uid', 's.uid')
          .select([...COLUMNS, 'r.position']);
      const own = ownRows('user_services').where('s.user_id', userId);
      const hasOwn = k('user_services as u')
        .join('raw_services as r2', 'r2.uid', 'u.uid')
        .where('u.user_id', userId)
        .select(k.raw('1'));
      const defaults = ownRows('default_services').whereNotExists(hasOwn);
      const rows = (await k
        .select('*')
        .from(own.unionAll(defaults, true).as('e'))
        .orderBy([
          { column: 'e.position', order: 'asc' },
          { column: 'e.uid', order: 'asc' },
        ])) as ServiceRow[];
      return rows.map(toRecord);
    },
    async listByUid(uid, tx) {
      return (await t.select(tx).where('s.uid', uid)).map(toRecord);
    },
    async findForUser(userId, idOrUid, tx) {
      const q = t.select(tx).where('s.user_id', userId);
      const row = await (isId(idOrUid)
        ? q.where((w) => w.where('s.id', idOrUid).orWhere('s.uid', idOrUid))
        : q.where('s.uid', idOrUid)
      ).first();
      return row ? toRecord(row) : null;
    },
    async copyDefaults(userId, tx) {
      await t.k(tx).raw(
        `insert into user_services (user_id, uid, name, category, max_weight, enabled, prices)
         select ?, d.uid, d.name, d.category, d.max_weight, d.enabled, d.prices
           from default_services d
         on conflict (user_id, uid) do nothing`,
        [userId],
      );
    },
    setEnabled: t.setEnabled,
    setPrices: t.setPrices,
    setShape: t.setShape,
  };
}
