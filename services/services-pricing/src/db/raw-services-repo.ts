import type { Knex } from '@flatship/kit';
import { fromTx } from '@flatship/kit';
import type { RawServiceRecord, RawServicesRepo, ServiceStatus, Tx } from '../domain/ports';

interface RawServiceRow {
  id: string;
  uid: string;
  name: string;
  category: string;
  carrier: string;
  max_weight: number;
  status: ServiceStatus;
}

const toRecord = (r: RawServiceRow): RawServiceRecord => ({
  id: r.id,
  uid: r.uid,
  name: r.name,
  category: r.category,
  carrier: r.carrier,
  maxWeight: r.max_weight,
  status: r.status,
});

export function createRawServicesRepo(db: Knex): RawServicesRepo {
  const k = (tx?: Tx) => fromTx(tx) ?? db;
  return {
    async list(tx) {
      const rows = await k(tx)<RawServiceRow>('raw_services').orderBy([
        { column: 'position', order: 'asc' },
        { column: 'uid', order: 'asc' },
      ]);
      return rows.map(toRecord);
    },
    async upsertActive(services, tx) {
      if (services.length === 0) return;
      // Rows already matching are not touched, so a repeated sync writes nothing.
      await k(tx).raw(
        `insert into raw_services (uid, name, category, carrier, max_weight, position, status)
         select x.uid, x.name, x.category, x.carrier, x.max_weight, x.position, 'active'
           from jsonb_to_recordset(?::jsonb)
             as x(uid text, name text, category text, carrier text, max_weight integer, position integer)
         on conflict (uid) do update
           set name = excluded.name, category = excluded.category, carrier = excluded.carrier,
               max_weight = excluded.max_weight, position = excluded.position, status = 'active', updated_at = now()
         where (raw_services.name, raw_services.category, raw_services.carrier, raw_services.max_weight,
                raw_services.position, raw_services.status)
           is distinct from (excluded.name, excluded.category, excluded.carrier, excluded.max_weight,
                excluded.position, 'active')`,
        [
          JSON.stringify(
            services.map((s, position) => ({
              position,
              uid: s.uid,
              name: s.name,
              category: s.category,
              carrier: s.carrier,
              max_weight: s.maxWeight,
            })),
          ),
        ],
      );
    },
    async markInactiveExcept(uids, tx) {
      await k(tx)('raw_services')
        .whereNot({ status: 'inactive' })
        .whereNotIn('uid', uids)
        .update({ status: 'inactive', updated_at: db.fn.now() });
    },
  };
}
