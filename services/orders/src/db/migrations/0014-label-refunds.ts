import type { Migration } from '@flatship/kit';

/**
 * Refunds of unused labels as a flow of their own, asked by the label's owner or by an admin, and answered by the
 * carrier that sold the label.
 *
 * - `refund_status`: `requested` (asked of the carrier, not yet confirmed), `refunded` (the carrier confirmed and the
 *   charge came back: the label is `void`), `rejected` (the carrier refused, `refund_reason` says why).
 * - `refund_requested_at` / `refund_requested_by` / `refund_by_admin`: who asked and when.
 * - `refund_ref`: the carrier's reference of a refund under review (a USPS dispute id); `refund_answered_at`: when the
 *   carrier first answered the void, so a request it never heard of (a crash, an outage) is sent again, and one it
 *   answered is only asked about.
 * - `refund_confirmed_at`: when the carrier said `refunded`, written before the money moves, so whoever finishes the
 *   refund after a crash credits it without asking the carrier again.
 * - `refund_checked_at`: when the status job last took the row; it waits between looks.
 *
 * Labels an admin voided before this flow existed were refunded at once: they become `refunded`, by an admin.
 */
export const addLabelRefunds: Migration = {
  name: '0014_label_refunds',
  async up(db) {
    await db.raw(`
      alter table labels
        add column refund_status text
          constraint labels_refund_status_check check (refund_status in ('requested', 'refunded', 'rejected')),
        add column refund_reason text,
        add column refund_requested_at timestamptz,
        add column refund_requested_by uuid,
        add column refund_by_admin boolean not null default false,
        add column refund_ref text,
        add column refund_answered_at timestamptz,
        add column refund_confirmed_at timestamptz,
        add column refund_checked_at timestamptz`);
    await db.raw(`
      update labels
         set refund_status = 'refunded', refund_requested_at = voided_at, refund_requested_by = voided_by,
             refund_by_admin = true, refund_answered_at = voided_at, refund_confirmed_at = voided_at
       where status = 'void'`);
    await db.raw(`
      alter table labels
        add constraint labels_refund_flow_check check (
          (refund_status is null or (refund_requested_at is not null and refund_requested_by is not null
                                     and status in ('completed', 'void')))
          and ((status = 'void') = (refund_status is not distinct from 'refunded'))
          and ((refund_status = 'rejected') = (refund_reason is not null))
        )`);
    // The status job's round: refunds still waiting for their carrier, longest unchecked first.
    await db.raw(`
      create index labels_refund_requested_idx on labels (refund_checked_at nulls first, refund_requested_at)
       where refund_status = 'requested'`);
  },
};
