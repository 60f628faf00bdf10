import type { Migration } from '@flatship/kit';

/**
 * What a label cost the platform and where it was bought, and the carriers' memory of purchases.
 *
 * - `labels.carrier_id`: the carrier plugin that bought it (`sandbox-usps`, `usps`, `easypost`); voids, tracking and
 *   SCAN forms go back to it. `carrier_cost_cents`: what that carrier charged the platform, so revenue, cost and
 *   margin can be shown (null when the carrier did not say). `carrier_ref`: the carrier's own id of the label or
 *   shipment (EasyPost's shipment id). `carrier_sku`: the carrier's pricing SKU (USPS), for matching its statement.
 * - `carrier_memory`: the carriers' `PurchaseMemory`, shared by orders and the label workers: which carrier a label
 *   key was sent to, and the shipment a carrier without idempotency keys created for it before buying. It must
 *   outlive any process, or a retried purchase after a crash could buy a second label.
 */
export const addCarrierPurchases: Migration = {
  name: '0011_carrier_purchases',
  async up(db) {
    await db.raw(`
      alter table labels
        add column carrier_id text,
        add column carrier_cost_cents integer constraint labels_carrier_cost_cents_check check (carrier_cost_cents >= 0),
        add column carrier_ref text,
        add column carrier_sku text`);
    await db.raw(`
      create table carrier_memory (
        key text primary key constraint carrier_memory_key_check check (length(key) between 1 and 300),
        value text not null constraint carrier_memory_value_check check (length(value) between 1 and 1000),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
  },
};
