import type { Migration } from '@flatship/kit';
import { migrateOutbox } from '@flatship/kit/bus';
import { PAYMENTS_SCHEMA } from './schema';

/**
 * `account.changed` goes through an outbox written in the same transaction as the ledger entry. Each entry
 * gets a number that only grows (`seq`), so a consumer can tell a newer figure from an older one.
 */
export const accountChanges: Migration = {
  name: '0003_account_changes',
  async up(db) {
    await migrateOutbox(db, PAYMENTS_SCHEMA);
    await db.raw('alter table ledger_entries add column seq bigint generated always as identity');
    await db.raw('create unique index ledger_entries_seq_key on ledger_entries (seq)');
  },
};
