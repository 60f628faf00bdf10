import type { Migration } from '@flatship/kit';

/**
 * One row per label the rankings know of, from `label.purchased` and `label.refunded`. Keyed by label id, so
 * an event delivered twice changes nothing. A refund may arrive before its purchase (they travel on different
 * topics): the row then exists with only `refunded_at`, and the purchase fills in the rest.
 */
export const createRankingsLabelFacts: Migration = {
  name: '0101_rankings_label_facts',
  async up(db) {
    await db.raw(`
      create table rankings_label_facts (
        label_id text primary key,
        user_id text not null,
        price_cents integer not null,
        purchased_at timestamptz,
        -- The UTC day the label counts on; null until its purchase is known.
        day date,
        refunded_at timestamptz
      )`);
    await db.raw('create index rankings_label_facts_user_day_idx on rankings_label_facts (user_id, day)');
  },
};
