import type { RouteStore, ServiceRoute } from '@flatship/carriers';
import type { Knex } from '@flatship/kit';

/** The routes an admin chose (`carrier_routes`), read by the carrier set of orders and of every label worker. */
export interface CarrierRouteStore extends RouteStore {
  /** Keeps each route given, replacing the one kept for its service, all or none. */
  save(routes: readonly ServiceRoute[], updatedBy: string | null): Promise<void>;
}

export function createCarrierRouteStore(db: Knex): CarrierRouteStore {
  return {
    async load() {
      const rows = await db('carrier_routes').select('service_uid', 'carriers').orderBy('service_uid');
      return rows.map((r) => ({ serviceUid: r.service_uid as string, carriers: [...(r.carriers as string[])] }));
    },
    async save(routes, updatedBy) {
      if (routes.length === 0) return;
      await db('carrier_routes')
        .insert(
          routes.map((r) => ({
            service_uid: r.serviceUid,
            carriers: r.carriers,
            updated_by: updatedBy,
            updated_at: db.fn.now(),
          })),
        )
        .onConflict('service_uid')
        .merge(['carriers', 'updated_by', 'updated_at']);
    },
  };
}
