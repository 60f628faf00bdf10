import type { Migration } from '@flatship/kit';

/**
 * The version every login-as token an admin issues carries (claim `iv`). Moving it on ends all of them at once,
 * without touching the admin's own sessions (`token_version`).
 */
export const addImpersonationVersion: Migration = {
  name: '0007_impersonation_version',
  async up(db) {
    await db.raw(`
      alter table users add column impersonation_version integer not null default 1
        constraint users_impersonation_version_check check (impersonation_version >= 1)`);
  },
};
