import type { Migration } from '@flatship/kit';

/**
 * Which carriers sell a service, in the order they are asked, as an admin chose it (`carrier_routes`). Orders and
 * every label worker read it, so a switch (USPS direct, with EasyPost standing by) holds for every purchase, and
 * survives restarts. A service without a row keeps its default route: the enabled carriers that sell it, in
 * `CARRIERS` order.
 */
export const addCarrierRoutes: Migration = {
  name: '0013_carrier_routes',
  async up(db) {
    await db.raw(`
      create table carrier_routes (
        service_uid text primary key constraint carrier_routes_service_uid_check check (length(service_uid) between 1 and 100),
        carriers text[] not null constraint carrier_routes_carriers_check check (cardinality(carriers) between 1 and 10),
        updated_by uuid,
        updated_at timestamptz not null default now()
      )`);
  },
};
