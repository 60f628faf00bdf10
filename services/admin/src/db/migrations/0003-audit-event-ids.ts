import type { Migration } from '@flatship/kit';

/**
 * Each `impersonation.action` now carries an id the gateway made for that one action, and an entry is kept per id:
 * two actions alike to the millisecond (a burst of the same call) were one entry under the old unique index.
 * Entries recorded before, and events sent before ids existed, have none; among those the old rule still holds,
 * so such an event redelivered now is still recorded once.
 */
export const addAuditEventIds: Migration = {
  name: '0003_audit_event_ids',
  async up(db) {
    await db.raw('alter table audit_entries add column event_id uuid');
    await db.raw('create unique index audit_entries_event_id_key on audit_entries (event_id)');
    await db.raw('drop index audit_entries_event_key');
    await db.raw(`
      create unique index audit_entries_legacy_event_key on audit_entries (admin_id, user_id, at, method, path, status)
        where event_id is null`);
  },
};
