import type { Migration } from '@flatship/kit';

/** Events written in the same transaction as the change they announce (see db/outbox.ts). */
export const createOutbox: Migration = {
  name: '0002_outbox',
  async up(db) {
    await db.raw(`
      create table if not exists outbox (
        id bigserial primary key,
        topic text not null,
        key text not null,
        value jsonb,
        headers jsonb not null default '{}',
        created_at timestamptz not null default now()
      )`);
  },
};
