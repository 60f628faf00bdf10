import type { Migration } from '@flatship/kit';

/**
 * SCAN forms (PS Form 5630) a customer made for their labels, and on each label the one form it is on.
 *
 * - `scan_forms`: one carrier form: whose (`user_id`), what it covers (`scope`: a bulk order's labels, or one day's
 *   single labels), the carrier plugin that made it and its number there (`carrier_form_id`), the From address it
 *   lists and the mailing day, how many labels, and its PDF in the file store (`pdf_key`). `idempotency_key` is the
 *   key sent to the carrier, derived from the labels it lists: the same labels always ask for the same form.
 * - `labels.scan_form_id`: one column, so a label is on at most one form by construction. Only a bought label may
 *   join one (a pending or failed row never); a label refunded after it was put on a form stays listed there.
 */
export const addScanForms: Migration = {
  name: '0016_scan_forms',
  async up(db) {
    await db.raw(`
      create table scan_forms (
        id uuid primary key,
        user_id uuid not null,
        scope text not null constraint scan_forms_scope_check check (scope in ('bulk', 'day')),
        bulk_order_id uuid references bulk_orders (id),
        carrier_id text not null constraint scan_forms_carrier_id_check check (length(carrier_id) between 1 and 100),
        carrier_form_id text not null
          constraint scan_forms_carrier_form_id_check check (length(carrier_form_id) between 1 and 200),
        idempotency_key text not null constraint scan_forms_idempotency_key_key unique,
        sender jsonb not null,
        ship_date date not null,
        label_count integer not null constraint scan_forms_label_count_check check (label_count > 0),
        pdf_key text not null,
        created_at timestamptz not null default now(),
        constraint scan_forms_scope_order_check check ((scope = 'bulk') = (bulk_order_id is not null))
      )`);
    await db.raw('create index scan_forms_user_created_idx on scan_forms (user_id, created_at desc)');
    await db.raw(
      'create index scan_forms_bulk_order_idx on scan_forms (bulk_order_id) where bulk_order_id is not null',
    );
    await db.raw(`
      alter table labels
        add column scan_form_id uuid references scan_forms (id),
        add constraint labels_scan_form_bought_check check (scan_form_id is null or status in ('completed', 'void'))`);
    await db.raw('create index labels_scan_form_idx on labels (scan_form_id) where scan_form_id is not null');
  },
};
