import type { Migration } from '@flatship/kit';

/**
 * Each rate-limited carrier's send slots (`carrier_rate_slots`), shared by orders and every label worker so that
 * `CARRIER_RATE_LIMIT` holds for all of them together: `next_slot_ms` is the earliest time the next purchase may be
 * sent, `paused_until_ms` the end of a pause after the carrier answered 429. Times are milliseconds since the epoch
 * by the clocks of the processes that buy (kept in step by NTP; a skew between hosts eats into the guard).
 */
export const addCarrierRateSlots: Migration = {
  name: '0020_carrier_rate_slots',
  async up(db) {
    await db.raw(`
      create table carrier_rate_slots (
        carrier text primary key constraint carrier_rate_slots_carrier_check check (length(carrier) between 1 and 100),
        next_slot_ms double precision not null,
        paused_until_ms double precision not null default 0,
        updated_at timestamptz not null default now()
      )`);
  },
};
