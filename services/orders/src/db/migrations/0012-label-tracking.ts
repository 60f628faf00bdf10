import type { Migration } from '@flatship/kit';

/**
 * Where a parcel is, as its carrier last said (EasyPost's tracker webhooks today): the status, the events newest first,
 * the time of the newest event (an older update arriving late never replaces a newer one) and the expected delivery
 * date. Looked up by tracking number, which a label keeps once completed.
 */
export const addLabelTracking: Migration = {
  name: '0012_label_tracking',
  async up(db) {
    await db.raw(`
      alter table labels
        add column tracking_status text,
        add column tracking_events jsonb,
        add column tracking_event_at timestamptz,
        add column tracking_estimated_delivery date,
        add column tracking_updated_at timestamptz`);
    await db.raw(
      'create index labels_tracking_number_idx on labels (tracking_number) where tracking_number is not null',
    );
  },
};
