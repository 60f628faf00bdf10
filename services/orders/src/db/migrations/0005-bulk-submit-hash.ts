import type { Migration } from '@flatship/kit';

/**
 * The request a bulk order's charge was claimed for, as a canonical hash: a
 * submit cut off by a crash is carried on by the same submit sent again (same
 * rows, same charge key, which payments takes at most once), never by another.
 */
export const addBulkSubmitHash: Migration = {
  name: '0005_bulk_submit_hash',
  async up(db) {
    await db.raw('alter table bulk_orders add column submit_hash text');
  },
};
