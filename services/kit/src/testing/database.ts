import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
// Brings in the `pgAdminUrl` typing of `inject` for packages that import only this module.
import type {} from './global-setup';

/**
 * Creates a fresh, empty database on the run's PostgreSQL (or on the cluster
 * `adminUrl` names) and returns its URL. Every test file gets its own
 * database, so files run in parallel without seeing each other's rows.
 */
export async function createTestDatabase(
  prefix = 't',
  adminUrl: string = inject('pgAdminUrl'),
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
