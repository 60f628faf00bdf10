import type { Migration } from '@flatship/kit';

/**
 * A price list may say $0 (staff, giveaways), so a label may be charged $0 and refunded $0. Such a label still
 * gets its charge entry, under the same key as any other: whether a label was charged, and whether its refund
 * has been given, stays a question the ledger answers, and the sum of a user's entries is still the balance.
 * Deposits stay positive and adjustments non-zero.
 */
export const freeLabels: Migration = {
  name: '0005_free_labels',
  async up(db) {
    await db.raw(`
      alter table ledger_entries
        drop constraint ledger_entries_amount_sign_check,
        add constraint ledger_entries_amount_sign_check check (
          (kind = 'deposit' and amount_cents > 0)
          or (kind = 'label_charge' and amount_cents <= 0)
          or (kind = 'label_refund' and amount_cents >= 0 and reference is not null)
          or (kind = 'admin_adjustment' and amount_cents <> 0 and admin_id is not null)
        )`);
  },
};
