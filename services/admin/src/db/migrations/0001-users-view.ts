import type { Migration } from '@flatship/kit';

/**
 * The user table as admins page, search and sort it: auth's profile and access fields and payments' money
 * (cents), kept current by `user.changed` and `account.changed`. A row can exist with money only (the money
 * event came first); it is listed once its profile has arrived (`profile_updated_at`).
 */
export const createUsersView: Migration = {
  name: '0001_users_view',
  async up(db) {
    await db.raw('create extension if not exists pg_trgm');
    await db.raw(`
      create table users_view (
        id uuid primary key,
        name text not null default '',
        email text not null default '',
        avatar text not null default '',
        role text not null default 'user',
        activation text not null default 'allow',
        referral_code text not null default '',
        referred_by uuid,
        created_at timestamptz not null default now(),
        profile_updated_at timestamptz,
        deleted_at timestamptz,
        balance_cents bigint not null default 0,
        total_deposit_cents bigint not null default 0,
        total_spent_cents bigint not null default 0,
        money_seq bigint
      )`);
    // When the table was last filled from auth's export and payments' figures (the seed).
    await db.raw(
      'create table users_view_seed (id boolean primary key default true check (id), completed_at timestamptz not null)',
    );
    const listed = 'where deleted_at is null and profile_updated_at is not null';
    // One index per sort column, each ending in id so a page is an index range whatever the order.
    for (const [name, expr] of [
      ['name', 'lower(name)'],
      ['email', 'email'],
      ['role', 'role'],
      ['activation', 'activation'],
      ['referral_code', 'upper(referral_code)'],
      ['balance', 'balance_cents'],
      ['deposit', 'total_deposit_cents'],
      ['spent', 'total_spent_cents'],
      ['created', 'created_at'],
    ]) {
      await db.raw(`create index users_view_by_${name}_idx on users_view ((${expr}), id) ${listed}`);
    }
    // Search is "contains, any case" on name, email or referral code: trigram indexes answer ILIKE '%…%'.
    for (const column of ['name', 'email', 'referral_code']) {
      await db.raw(
        `create index users_view_${column}_trgm_idx on users_view using gin (${column} gin_trgm_ops) ${listed}`,
      );
    }
  },
};
