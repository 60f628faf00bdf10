import type { Migration } from '@flatship/kit';
import { BULK_STATUSES } from '@flatship/proto';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** The order sources when this ran; 0018 replaced the list with a check of the id's form. */
const ORDER_SOURCES_0003 = ['csv', 'amazon', 'walmart'];

/**
 * Bulk orders, and their shipments as rows of `labels`. A bulk order is
 * charged once (`charge_key`), so the per-row unique charge key of single
 * labels becomes unique among single labels only; a bulk row's `charge_key`
 * names the charge that paid its current attempt.
 */
export const createBulkOrders: Migration = {
  name: '0003_bulk_orders',
  async up(db) {
    await db.raw(`
      create table bulk_orders (
        id uuid primary key,
        user_id uuid not null,
        status text not null default 'processing'
          constraint bulk_orders_status_check check (status in (${list(BULK_STATUSES)})),
        source text not null default 'csv'
          constraint bulk_orders_source_check check (source in (${list(ORDER_SOURCES_0003)})),
        file_name text,
        total_count integer not null default 0 check (total_count >= 0),
        processed_count integer not null default 0 check (processed_count >= 0),
        failed_count integer not null default 0 check (failed_count >= 0),
        cost_cents integer not null default 0 check (cost_cents >= 0),
        charge_key text constraint bulk_orders_charge_key_key unique,
        submitted_at timestamptz,
        retry_count integer not null default 0,
        retry_cost_cents integer not null default 0,
        pdf_name text,
        result_csv_name text,
        auto_confirm_name text,
        stuck_at timestamptz,
        last_progress_at timestamptz not null default now(),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint bulk_orders_counts_check check (processed_count + failed_count <= total_count)
      )`);
    await db.raw('create index bulk_orders_user_created_idx on bulk_orders (user_id, created_at desc, id desc)');
    await db.raw(
      `create index bulk_orders_unfinished_idx on bulk_orders (last_progress_at)
        where status not in ('completed', 'completed_with_errors', 'failed')`,
    );

    await db.raw('alter table labels drop constraint labels_charge_key_key');
    await db.raw('create unique index labels_single_charge_key on labels (charge_key) where bulk_order_id is null');
    await db.raw(`
      alter table labels
        add column row_index integer,
        add column attempt integer not null default 0,
        add column input jsonb,
        add constraint labels_bulk_order_fk foreign key (bulk_order_id) references bulk_orders (id),
        add constraint labels_bulk_row_check check ((bulk_order_id is null) = (row_index is null)),
        add constraint labels_bulk_row_key unique (bulk_order_id, row_index)`);
    await db.raw(`create index labels_bulk_pending_idx on labels (bulk_order_id) where status = 'pending'`);
  },
};
