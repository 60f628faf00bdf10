import type { Migration } from '@flatship/kit';

export const createUsers: Migration = {
  name: '0001_users',
  async up(db) {
    await db.raw(`
      create table users (
        id uuid primary key default gen_random_uuid(),
        name text not null,
        email text not null constraint users_email_key unique,
        password_hash text not null,
        role text not null default 'user' constraint users_role_check check (role in ('admin', 'friend', 'user')),
        activation text not null default 'allow'
          constraint users_activation_check check (activation in ('allow', 'block')),
        token_version integer not null default 1 constraint users_token_version_check check (token_version >= 1),
        referral_code text not null constraint users_referral_code_check check (referral_code <> ''),
        referred_by uuid references users (id) on delete set null,
        avatar text not null default '',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        -- Uniqueness of emails is only meaningful if every writer normalises them. Only ASCII
        -- capitals are checked: lower() of other letters depends on the server's locale.
        constraint users_email_normalised_check check (email <> '' and email = btrim(email) and email !~ '[A-Z]')
      )`);
    // Codes are typed by people in any case, so "abc" and "ABC" must not both exist.
    await db.raw('create unique index users_referral_code_upper_key on users (upper(referral_code))');
    await db.raw('create index users_referred_by_idx on users (referred_by, created_at desc)');
    await db.raw(`create index users_admins_idx on users (id) where role = 'admin'`);
  },
};
