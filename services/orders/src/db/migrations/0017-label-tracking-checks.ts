import type { Migration } from '@flatship/kit';

/**
 * When the tracking job last asked a label's carrier where the parcel is (`tracking_checked_at`), so each label is
 * asked at most once per its interval, whichever replica asks. The job's round reads bought labels whose parcel
 * is not delivered yet, the ones never asked first: the partial index holds exactly those.
 */
export const addLabelTrackingChecks: Migration = {
  name: '0017_label_tracking_checks',
  async up(db) {
    await db.raw('alter table labels add column tracking_checked_at timestamptz');
    await db.raw(`
      create index labels_tracking_due_idx on labels (tracking_checked_at nulls first, created_at desc)
       where status = 'completed' and tracking_number is not null
         and tracking_status is distinct from 'delivered'`);
  },
};
