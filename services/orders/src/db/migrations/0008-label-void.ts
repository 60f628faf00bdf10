import type { Migration } from '@flatship/kit';

/**
 * A completed label an admin refunded because it was never used: `void`, with when and by which admin. It keeps
 * its tracking number and file (the record of what was bought), and its charge has come back (`refunded`).
 */
export const addLabelVoid: Migration = {
  name: '0008_label_void',
  async up(db) {
    await db.raw(`
      alter table labels
        drop constraint labels_status_check,
        drop constraint labels_completed_check,
        drop constraint labels_refund_check,
        add column voided_at timestamptz,
        add column voided_by uuid,
        add constraint labels_status_check check (status in ('pending', 'completed', 'cancelled', 'void')),
        add constraint labels_completed_check check (
          (status in ('completed', 'void')) = (tracking_number is not null and pdf_name is not null)
        ),
        add constraint labels_refund_check check (not refunded or status in ('cancelled', 'void')),
        add constraint labels_void_check check ((status = 'void') = (voided_at is not null and voided_by is not null))`);
    // The admin's lists: newest first over every user (one user's use the existing per-user indexes).
    await db.raw('create index labels_created_idx on labels (created_at desc, id desc)');
    await db.raw('create index bulk_orders_created_idx on bulk_orders (created_at desc, id desc)');
  },
};
