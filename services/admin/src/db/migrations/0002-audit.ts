import type { Migration } from '@flatship/kit';

/**
 * What admins changed while signed in as a user (`impersonation.action`). Redelivered events carry the same
 * fields, so the unique index makes recording them idempotent.
 */
export const createAudit: Migration = {
  name: '0002_audit_entries',
  async up(db) {
    await db.raw(`
      create table audit_entries (
        id uuid primary key default gen_random_uuid(),
        at timestamptz not null,
        admin_id uuid not null,
        user_id uuid not null,
        method text not null,
        path text not null,
        status integer not null
      )`);
    await db.raw(
      'create unique index audit_entries_event_key on audit_entries (admin_id, user_id, at, method, path, status)',
    );
    await db.raw('create index audit_entries_at_idx on audit_entries (at desc, id desc)');
    await db.raw('create index audit_entries_user_idx on audit_entries (user_id, at desc)');
    await db.raw('create index audit_entries_admin_idx on audit_entries (admin_id, at desc)');
  },
};
