import type { Migration } from '@flatship/kit';

/**
 * What an Idempotency-Key needs to answer well after a crash: the hash of the
 * request that first used it (the same key with another body is refused), and,
 * on a cancelled row, whether the purchase failed for a reason that may pass,
 * in which case its key may start a new purchase. Purchases the reconciler
 * cancelled before this column existed were all of that kind.
 */
export const addLabelIdempotency: Migration = {
  name: '0004_label_idempotency',
  async up(db) {
    await db.raw(`
      alter table labels
        add column request_hash text,
        add column retryable boolean not null default false`);
    await db.raw(`
      update labels set retryable = true
       where status = 'cancelled' and bulk_order_id is null and error_code = 'SERVICE_UNAVAILABLE'`);
  },
};
