import type { Migration } from '@flatship/kit';

/**
 * When the user took their referrer's code (`referred_at`): a referral bonus is paid on a first deposit that settled
 * after it, never on one that settled before. Links made before this was kept take the time the user joined, the
 * earliest it can have been, so they keep the bonus they were promised.
 */
export const addReferredAt: Migration = {
  name: '0009_referred_at',
  async up(db) {
    await db.raw('alter table users add column referred_at timestamptz');
    await db.raw('update users set referred_at = created_at where referred_by is not null');
    await db.raw(`
      alter table users add constraint users_referred_at_check
        check ((referred_by is null) = (referred_at is null))`);
  },
};
