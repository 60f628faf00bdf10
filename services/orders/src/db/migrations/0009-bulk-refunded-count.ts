import type { Migration } from '@flatship/kit';

/**
 * A bulk order's rows an admin refunded (void labels) get a count of their own next to the bought and failed
 * ones, so that the three add up to the order's rows again: before, a void row was in neither count and an
 * order holding one never reached its end. Orders already holding void rows are counted here; one they left
 * unfinished is then finished by the sweeper.
 */
export const addBulkRefundedCount: Migration = {
  name: '0009_bulk_refunded_count',
  async up(db) {
    await db.raw(`
      alter table bulk_orders
        add column refunded_count integer not null default 0 check (refunded_count >= 0),
        drop constraint bulk_orders_counts_check`);
    // A refund never recounted its order, so the counts of these orders are taken afresh from their rows.
    await db.raw(`
      update bulk_orders o
         set processed_count = c.done, failed_count = c.failed, refunded_count = c.refunded
        from (select bulk_order_id,
                     count(*) filter (where status = 'completed')::int as done,
                     count(*) filter (where status = 'cancelled')::int as failed,
                     count(*) filter (where status = 'void')::int as refunded
                from labels
               where bulk_order_id in (select bulk_order_id from labels where status = 'void')
               group by bulk_order_id) c
       where o.id = c.bulk_order_id`);
    await db.raw(`
      alter table bulk_orders add constraint bulk_orders_counts_check
        check (processed_count + failed_count + refunded_count <= total_count)`);
  },
};
