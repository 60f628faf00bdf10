import type { Migration } from '@flatship/kit';

/**
 * The account row keeps running totals next to its balance: deposits, label charges and label refunds
 * (admin adjustments move only the balance) and the seq of the user's latest entry. They change in the same
 * transaction and savepoint as each entry, so a user's money is one row to read however long the ledger;
 * the ledger stays the record they are derived from, and this backfills them from it.
 */
export const accountTotals: Migration = {
  name: '0004_account_totals',
  async up(db) {
    // Entries written while the totals are summed would be missed: hold writers off until this commits.
    await db.raw('lock table ledger_entries in share mode');
    await db.raw(`
      alter table accounts
        add column total_deposit_cents bigint not null default 0
          constraint accounts_total_deposit_check check (total_deposit_cents >= 0),
        add column total_charged_cents bigint not null default 0
          constraint accounts_total_charged_check check (total_charged_cents >= 0),
        add column total_refunded_cents bigint not null default 0
          constraint accounts_total_refunded_check check (total_refunded_cents >= 0),
        add column last_entry_seq bigint not null default 0`);
    await db.raw(`
      update accounts a
         set total_deposit_cents = s.deposit,
             total_charged_cents = s.charged,
             total_refunded_cents = s.refunded,
             last_entry_seq = s.seq
        from (
          select user_id,
                 coalesce(sum(amount_cents) filter (where kind = 'deposit'), 0) as deposit,
                 coalesce(-sum(amount_cents) filter (where kind = 'label_charge'), 0) as charged,
                 coalesce(sum(amount_cents) filter (where kind = 'label_refund'), 0) as refunded,
                 max(seq) as seq
            from ledger_entries
           group by user_id
        ) s
       where s.user_id = a.user_id`);
  },
};
