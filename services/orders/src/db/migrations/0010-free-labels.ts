import type { Migration } from '@flatship/kit';

/** A price list may say $0 (the spec's minimum price), so a label may cost nothing; never less. */
export const allowFreeLabels: Migration = {
  name: '0010_free_labels',
  async up(db) {
    await db.raw(`
      alter table labels
        drop constraint labels_price_cents_check,
        add constraint labels_price_cents_check check (price_cents >= 0)`);
  },
};
