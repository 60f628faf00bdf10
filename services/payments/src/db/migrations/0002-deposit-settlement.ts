import type { Migration } from '@flatship/kit';

/**
 * Deposits as the BTCPay flow keeps them. A settled deposit has been credited
 * to the ledger, so the database itself refuses to move it back to another
 * status or change its amount; the reconciler's scan of open invoices gets a
 * small index of its own.
 */
export const depositSettlement: Migration = {
  name: '0002_deposit_settlement',
  async up(db) {
    await db.raw(`
      create function deposits_settled_is_final() returns trigger language plpgsql as $$
      begin
        if old.status = 'Settled'
          and (new.status is distinct from old.status or new.amount_cents is distinct from old.amount_cents) then
          raise exception 'deposit % is settled and cannot change', old.invoice_id
            using errcode = 'restrict_violation';
        end if;
        return new;
      end
      $$`);
    await db.raw(`
      create trigger deposits_settled_is_final before update on deposits
      for each row execute function deposits_settled_is_final()`);
    await db.raw(`create index deposits_open_idx on deposits (created_at) where status in ('New', 'Processing')`);
  },
};
