import type { Migration } from '@flatship/kit';

/**
 * A bulk order's source is a marketplace id from the registry (proto's `MARKETPLACES`), which the routes check.
 * The database keeps the id's form (lower-case words joined by hyphens) instead of a list of ids, so adding a
 * marketplace needs no migration and a list frozen in an old migration never refuses a new one.
 */
export const widenMarketplaceSources: Migration = {
  name: '0018_marketplace_sources',
  async up(db) {
    await db.raw(`
      alter table bulk_orders
        drop constraint bulk_orders_source_check,
        add constraint bulk_orders_source_check check (source ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(source) <= 40)`);
  },
};
