import type { Migration } from '@flatship/kit';

/**
 * One row per label. A single-label order is one row; a bulk order will own
 * many rows through `bulk_order_id` (its table and foreign key come with it).
 */
export const createLabels: Migration = {
  name: '0001_labels',
  async up(db) {
    await db.raw(`
      create table labels (
        id uuid primary key,
        user_id uuid not null,
        bulk_order_id uuid,
        idempotency_key text constraint labels_idempotency_key_check check (length(idempotency_key) between 1 and 200),
        status text not null default 'pending'
          constraint labels_status_check check (status in ('pending', 'completed', 'cancelled')),
        courier text not null default 'usps' constraint labels_courier_check check (courier = 'usps'),
        service_uid text not null,
        service_name text not null,
        sender jsonb not null,
        receiver jsonb not null,
        package jsonb not null,
        price_cents integer not null constraint labels_price_cents_check check (price_cents > 0),
        charge_key text not null constraint labels_charge_key_key unique,
        charged_at timestamptz,
        refunded boolean not null default false,
        tracking_number text,
        pdf_name text constraint labels_pdf_name_key unique,
        error_code text,
        error text,
        lease_until timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint labels_user_idempotency_key unique (user_id, idempotency_key),
        -- A completed label always has its tracking number and file; nothing else has a file.
        constraint labels_completed_check check (
          (status = 'completed') = (tracking_number is not null and pdf_name is not null)
        ),
        constraint labels_refund_check check (not refunded or status = 'cancelled')
      )`);
    await db.raw('create index labels_user_created_idx on labels (user_id, created_at desc, id desc)');
    await db.raw(
      'create index labels_user_single_created_idx on labels (user_id, created_at desc, id desc) where bulk_order_id is null',
    );
    await db.raw(`create index labels_user_completed_idx on labels (user_id) where status = 'completed'`);
    await db.raw(`create index labels_pending_idx on labels (updated_at) where status = 'pending'`);
  },
};
