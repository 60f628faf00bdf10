import type { RateSlotStore } from '@flatship/carriers';
import type { Knex } from '@flatship/kit';

/**
 * The carriers' send slots in the orders database (`carrier_rate_slots`), shared by orders and every label worker:
 * slots are handed out by one atomic upsert of the carrier's row (one or several consecutive ones at a time), so however many processes buy, consecutive
 * purchases of a carrier are at least the spacing apart and the carrier sees no more than its rate from all of them.
 */
export function createCarrierRateSlots(db: Knex): RateSlotStore {
  return {
    async reserve(carrier, now, spacingMs, count = 1) {
      const span = count * spacingMs;
      const { rows } = await db.raw<{ rows: { slot: number }[] }>(
        `insert into carrier_rate_slots as r (carrier, next_slot_ms) values (:carrier, :now::double precision + :span)
         on conflict (carrier) do update
           set next_slot_ms = greatest(r.next_slot_ms, :now::double precision, r.paused_until_ms) + :span,
               updated_at = now()
         returning r.next_slot_ms - :span as slot`,
        { carrier, now, span },
      );
      return Number((rows[0] as { slot: number }).slot);
    },
    async pause(carrier, until) {
      await db.raw(
        `insert into carrier_rate_slots as r (carrier, next_slot_ms, paused_until_ms) values (:carrier, 0, :until)
         on conflict (carrier) do update
           set paused_until_ms = greatest(r.paused_until_ms, excluded.paused_until_ms), updated_at = now()`,
        { carrier, until },
      );
    },
  };
}
