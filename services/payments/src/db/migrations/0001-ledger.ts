import type { Migration } from '@flatship/kit';

/**
 * Accounts, the append-only ledger and deposits (DESIGN.md §7). The account
 * balance is a cached sum of its ledger entries, updated in the same
 * transaction as each entry; the checks below are the last line of defence
 * should code ever get that wrong.
 */
export const createLedger: Migration = {
  name: '0001_ledger',
  async up(db) {
    await db.raw(`
      create table accounts (
        user_id uuid primary key,
        balance_cents bigint not null default 0 constraint accounts_balance_check check (balance_cents >= 0),
        updated_at timestamptz not null default now()
      )`);

    await db.raw(`
      create table ledger_entries (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references accounts (user_id),
        kind text not null constraint ledger_entries_kind_check
          check (kind in ('deposit', 'label_charge', 'label_refund', 'admin_adjustment')),
        amount_cents bigint not null,
        balance_after_cents bigint not null constraint ledger_entries_balance_after_check check (balance_after_cents >= 0),
        idempotency_key text not null constraint ledger_entries_idempotency_key_key unique,
        reference text,
        memo text,
        admin_id uuid,
        created_at timestamptz not null default now(),
        -- The sign of an amount follows from its kind, so a sum over the ledger cannot be fooled.
        constraint ledger_entries_amount_sign_check check (
          (kind = 'deposit' and amount_cents > 0)
          or (kind = 'label_charge' and amount_cents < 0)
          or (kind = 'label_refund' and amount_cents > 0 and reference is not null)
          or (kind = 'admin_adjustment' and amount_cents <> 0 and admin_id is not null)
        )
      )`);
    await db.raw('create index ledger_entries_user_idx on ledger_entries (user_id, created_at desc, id desc)');
    // Summaries sum per user and kind on every login and user listing.
    await db.raw('create index ledger_entries_user_kind_idx on ledger_entries (user_id, kind) include (amount_cents)');
    await db.raw(`create index ledger_entries_refunds_idx on ledger_entries (reference) where kind = 'label_refund'`);

    // Money history is never rewritten: corrections are new entries.
    await db.raw(`
      create function ledger_entries_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'ledger_entries is append-only: % is not allowed', tg_op
          using errcode = 'restrict_violation';
      end
      $$`);
    await db.raw(`
      create trigger ledger_entries_no_update_delete before update or delete on ledger_entries
      for each row execute function ledger_entries_append_only()`);
    await db.raw(`
      create trigger ledger_entries_no_truncate before truncate on ledger_entries
      for each statement execute function ledger_entries_append_only()`);

    await db.raw(`
      create table deposits (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null,
        invoice_id text not null constraint deposits_invoice_id_key unique,
        amount_cents bigint not null constraint deposits_amount_check check (amount_cents >= 0),
        status text not null,
        created_at timestamptz not null default now(),
        settled_at timestamptz
      )`);
    await db.raw('create index deposits_user_idx on deposits (user_id, created_at desc, id desc)');
  },
};
