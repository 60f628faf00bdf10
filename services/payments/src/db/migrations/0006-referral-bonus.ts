import type { Migration } from '@flatship/kit';

/**
 * The referral bonus: a ledger kind of its own, the program's settings (one row, with the history of every change
 * and the admin who made it), and one decision per referred user and side. The decision's primary key and the
 * ledger's idempotency key (`referral-bonus:{referred user}:{side}`) each make sure a side is paid at most once,
 * however often the deposit event that triggers it is delivered.
 */
export const referralBonus: Migration = {
  name: '0006_referral_bonus',
  async up(db) {
    // Existing rows satisfy the wider checks; NOT VALID + VALIDATE keeps writers waiting only for the swap.
    await db.raw(`
      alter table ledger_entries
        drop constraint ledger_entries_kind_check,
        add constraint ledger_entries_kind_check
          check (kind in ('deposit', 'label_charge', 'label_refund', 'admin_adjustment', 'referral_bonus')) not valid,
        drop constraint ledger_entries_amount_sign_check,
        add constraint ledger_entries_amount_sign_check check (
          (kind = 'deposit' and amount_cents > 0)
          or (kind = 'label_charge' and amount_cents <= 0)
          or (kind = 'label_refund' and amount_cents >= 0 and reference is not null)
          or (kind = 'admin_adjustment' and amount_cents <> 0 and admin_id is not null)
          or (kind = 'referral_bonus' and amount_cents > 0 and reference is not null)
        ) not valid`);
    await db.raw('alter table ledger_entries validate constraint ledger_entries_kind_check');
    await db.raw('alter table ledger_entries validate constraint ledger_entries_amount_sign_check');

    // The ceilings of proto's REFERRAL_BONUS_LIMITS as they were when this shipped ($100 and $10,000).
    const bonus = 'between 0 and 10000';
    const minimum = 'between 0 and 1000000';
    await db.raw(`
      create table referral_bonus_settings (
        id boolean primary key default true constraint referral_bonus_settings_single_row check (id),
        referrer_bonus_cents integer not null check (referrer_bonus_cents ${bonus}),
        referred_bonus_cents integer not null check (referred_bonus_cents ${bonus}),
        minimum_deposit_cents integer not null check (minimum_deposit_cents ${minimum}),
        updated_at timestamptz,
        updated_by uuid
      )`);
    // Off (no bonus either side) until an admin sets one; a $10 minimum first deposit once they do.
    await db('referral_bonus_settings').insert({
      referrer_bonus_cents: 0,
      referred_bonus_cents: 0,
      minimum_deposit_cents: 1000,
    });
    // Every change, with the admin who made it: the settings decide who is paid, so who set them is kept.
    await db.raw(`
      create table referral_bonus_settings_changes (
        id bigint generated always as identity primary key,
        admin_id uuid not null,
        referrer_bonus_cents integer not null,
        referred_bonus_cents integer not null,
        minimum_deposit_cents integer not null,
        changed_at timestamptz not null default now()
      )`);

    await db.raw(`
      create table referral_bonuses (
        referred_user_id uuid not null,
        side text not null constraint referral_bonuses_side_check check (side in ('referrer', 'referred')),
        beneficiary_id uuid not null,
        status text not null constraint referral_bonuses_status_check check (status in ('credited', 'withheld')),
        reason text constraint referral_bonuses_reason_check check (
          (status = 'withheld' and reason in ('blocked', 'deleted')) or (status = 'credited' and reason is null)
        ),
        amount_cents bigint not null check (amount_cents > 0),
        invoice_id text not null,
        ledger_entry_id uuid references ledger_entries (id),
        decided_at timestamptz not null default now(),
        constraint referral_bonuses_pkey primary key (referred_user_id, side),
        constraint referral_bonuses_withheld_unpaid check (status = 'credited' or ledger_entry_id is null)
      )`);
  },
};
