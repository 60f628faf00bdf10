import type { Migration } from '@flatship/kit';

/**
 * A label's courier is whichever carrier sold it, no longer USPS alone. Which carriers may sell is configuration
 * (`CARRIERS`), checked by the services against the carriers registry, which lives in code: a lookup table here would
 * copy it and need a migration per carrier, and rows of a carrier switched off must stay valid. So the database only
 * asks for a carrier id's shape (lowercase letters, digits and dashes), and a new row names its courier itself.
 */
export const relaxLabelCourier: Migration = {
  name: '0007_label_courier_any_carrier',
  async up(db) {
    await db.raw(`alter table labels drop constraint labels_courier_check`);
    await db.raw(`alter table labels add constraint labels_courier_check check (courier ~ '^[a-z0-9]+(-[a-z0-9]+)*$')`);
    await db.raw(`alter table labels alter column courier drop default`);
  },
};
