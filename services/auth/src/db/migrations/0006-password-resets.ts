import type { Migration } from '@flatship/kit';

export const createPasswordResets: Migration = {
  name: '0006_password_resets',
  async up(db) {
    // Only the SHA-256 of a link's token is kept: someone who reads this table cannot use a link.
    await db.raw(`
      create table password_resets (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references users (id) on delete cascade,
        token_hash text not null constraint password_resets_token_hash_key unique,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      )`);
    await db.raw('create index password_resets_user_idx on password_resets (user_id) where used_at is null');
  },
};
