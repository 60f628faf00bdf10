import type { Migration } from '@flatship/kit';

/**
 * The carriers' memory also keeps a SCAN form a carrier made without an idempotency key (USPS): its number, labels
 * and PDF, a few hundred kilobytes as base64. Values were capped at 1,000 characters for ids and shipment refs; the
 * cap becomes 8 MB, still a bound on what one row holds.
 */
export const widenCarrierMemory: Migration = {
  name: '0019_carrier_memory_forms',
  async up(db) {
    await db.raw(`
      alter table carrier_memory
        drop constraint carrier_memory_value_check,
        add constraint carrier_memory_value_check check (length(value) between 1 and 8000000)`);
  },
};
