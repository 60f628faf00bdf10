import type { Migration } from '@flatship/kit';

/**
 * Deleted users stay in the table for the books (their orders, ledger and files name them) but can no
 * longer sign in, and their email is free to register again: emails are unique among live users only.
 */
export const softDeleteUsers: Migration = {
  name: '0005_soft_delete_users',
  async up(db) {
    await db.raw('alter table users add column deleted_at timestamptz');
    await db.raw('alter table users drop constraint users_email_key');
    await db.raw('create unique index users_email_live_key on users (email) where deleted_at is null');
    await db.raw('create index users_email_idx on users (email)');
  },
};
