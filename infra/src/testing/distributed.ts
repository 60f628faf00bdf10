import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKafkaMockCluster, startThrowawayPostgres } from '@flatship/kit/testing';
import pg from 'pg';
import { type DatabaseRoleName, ROLE_OF_SERVICE, setupDatabase } from '../db-setup';
import { freePort, sleep } from '../net';
import { httpUrl, REPO_ROOT } from '../paths';
import {
  GATEWAY,
  mainFile,
  OWNED_VARIABLES,
  SERVICE_REGISTRY,
  type ServiceDefinition,
  type StackContext,
} from '../services';
import { generatePassword, generateSecrets } from '../state';
import { type RoundRobinFront, startRoundRobin } from './round-robin';

export type BusKind = 'kafka' | 'postgres';

export interface DistributedStackOptions {
  /** label-worker replicas (default 2). */
  workers?: number;
  /** gateway replicas behind the round-robin front (default 2). */
  gateways?: number;
  /**
   * `kafka` (default): librdkafka's mock cluster, every service on its own
   * database role. `postgres`: the embedded bus, which lives in a schema every
   * service shares, so all of them use the privileged user (for comparisons).
   */
  bus?: BusKind;
  /** Extra variables for every service, e.g. CARRIER_LATENCY_MS. */
  env?: Record<string, string>;
  logLevel?: string;
}

/** One running process of the stack: `auth`, `label-worker-2`, `gateway-1`… */
export interface StackProcess {
  name: string;
  definition: ServiceDefinition;
  port: number;
  url: string;
  /** A gateway's management listener (/metrics): each replica has its own, picked like its port. */
  metricsPort?: number;
  child?: ChildProcess;
}

export interface DistributedStack {
  /** The round-robin front over every gateway replica: what a browser would be given. */
  url: string;
  front: RoundRobinFront;
  /** Each gateway replica's own URL, in order (`gateway-1` first). */
  gatewayUrls: string[];
  adminEmail: string;
  adminPassword: string;
  /** The privileged user's URL of the product database, for checks a test makes across schemas. */
  databaseAdminUrl: string;
  /** Each service role's URL. */
  roleUrls: Record<DatabaseRoleName, string>;
  kafkaBrokers?: string;
  /** The postmaster's pid (its backends are its children). */
  postgresPid: number;
  logsDir: string;
  processes: Map<string, StackProcess>;
  /** Sends `signal` (SIGKILL by default) and resolves once the process has gone. */
  kill(name: string, signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Starts a stopped process again on the same port and configuration; resolves once /readyz answers 200. */
  start(name: string): Promise<void>;
  /** SIGTERM, wait for it to exit by itself, start it again, wait for /readyz: one step of a rolling restart. */
  restart(name: string): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last lines of every process's log, for failure messages. */
  logTails(lines?: number): Promise<string>;
  stop(): Promise<void>;
}

/**
 * How a runnable is started: `node <workspace>/dist/main.js`, the bundle
 * production runs (the test setup rebuilds the stale ones first).
 */
export function serviceCommand(def: ServiceDefinition): string[] {
  return [mainFile(REPO_ROOT, def)];
}

/**
 * What differs from a production Kafka: the mock cluster hands out no producer
 * ids, so producers are not idempotent (acks=all still); a killed consumer
 * loses its partitions after 5 s rather than 30 s, so failover fits a test
 * (consumers then heartbeat every 1.67 s), and a rebalance of a group that had
 * members lasts the session timeout less a second on the mock, which every
 * restart of a shared group's member pays; and a group's leader sends the
 * assignment 1 s late when there are other members, since the mock
 * coordinator refuses a member's SyncGroup that arrives after the leader's
 * (that member would stop and be started again, costing another rebalance).
 */
const MOCK_CLUSTER_SETTINGS = {
  KAFKA_IDEMPOTENT: 'false',
  KAFKA_SESSION_TIMEOUT_MS: '5000',
  KAFKA_LEADER_SYNC_DELAY_MS: '1000',
};

const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 35_000;

async function isReady(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** The postmaster is the parent of the backend serving a connection. */
async function postmasterPid(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const stat = await readFile(`/proc/${rows[0]!.pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } finally {
    await client.end();
  }
}

const exitOf = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve({ code: child.exitCode, signal: child.signalCode })
    : new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );

/**
 * Starts the product as it runs in production, on this machine: PostgreSQL
 * with one login role per service (set up by `setupDatabase`), the Kafka bus
 * on librdkafka's mock cluster, every service as its own process with its own
 * configuration (built by the launcher's SERVICE_REGISTRY), `workers`
 * label-worker replicas and `gateways` gateway replicas behind a round-robin
 * front. Payments runs without BTCPay (deposits off); the carrier is the sandbox.
 */
export async function startDistributedStack(opts: DistributedStackOptions = {}): Promise<DistributedStack> {
  const workers = opts.workers ?? 2;
  const gateways = opts.gateways ?? 2;
  const bus = opts.bus ?? 'kafka';
  const dir = await mkdtemp(join(tmpdir(), 'flatship-distributed-'));
  const logsDir = join(dir, 'logs');
  await mkdir(logsDir, { recursive: true });

  const cleanups: (() => Promise<void>)[] = [];
  const processes = new Map<string, StackProcess>();
  let front: RoundRobinFront | undefined;

  const stopProcess = async (p: StackProcess, graceMs: number) => {
    const child = p.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = exitOf(child);
    child.kill('SIGTERM');
    if ((await Promise.race([exited, sleep(graceMs).then(() => null)])) === null) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  const stopAll = async () => {
    await front?.close();
    // Gateways and workers first, as a deployment scales them down before what they depend on.
    const all = [...processes.values()];
    const edge = all.filter((p) => p.definition.name === GATEWAY || p.definition.name === 'label-worker');
    await Promise.all(edge.map((p) => stopProcess(p, STOP_GRACE_MS)));
    await Promise.all(all.filter((p) => !edge.includes(p)).map((p) => stopProcess(p, STOP_GRACE_MS)));
    for (const c of cleanups.reverse()) await c().catch(() => {});
    if (!process.env.KEEP_DISTRIBUTED_STACK) await rm(dir, { recursive: true, force: true });
  };

  const logTails = async (lines = 30) => {
    if (!existsSync(logsDir)) return '(no logs were written)';
    const parts: string[] = [];
    for (const name of (await readdir(logsDir)).sort()) {
      const content = (await readFile(join(logsDir, name), 'utf8')).trimEnd().split('\n').slice(-lines).join('\n');
      parts.push(`--- ${name} (last ${lines} lines) ---\n${content}`);
    }
    return parts.join('\n');
  };

  try {
    const pg = await startThrowawayPostgres();
    cleanups.push(() => pg.stop());
    const databaseAdminUrl = new URL(pg.adminUrl);
    databaseAdminUrl.pathname = '/flatship';
    const passwords = Object.fromEntries(
      Object.keys(ROLE_OF_SERVICE).map((s) => [ROLE_OF_SERVICE[s], randomBytes(12).toString('base64url')]),
    ) as Record<DatabaseRoleName, string>;
    const { urls: roleUrls } = await setupDatabase({ adminUrl: databaseAdminUrl.toString(), passwords });
    const postgresPid = await postmasterPid(databaseAdminUrl.toString());

    let kafkaBrokers: string | undefined;
    if (bus === 'kafka') {
      const kafka = await startKafkaMockCluster();
      cleanups.push(() => kafka.stop());
      kafkaBrokers = kafka.brokers.join(',');
    }

    const secrets = generateSecrets();
    const adminEmail = 'admin@flatship.local';
    const adminPassword = generatePassword();
    const definitions = SERVICE_REGISTRY.filter((d) => d.name !== 'btcpay');
    const isReplicated = (d: ServiceDefinition) => d.name === 'label-worker' || d.name === GATEWAY;
    const replicas = (d: ServiceDefinition) =>
      d.name === 'label-worker' ? workers : d.name === GATEWAY ? gateways : 1;
    for (const definition of definitions) {
      const count = replicas(definition);
      for (let i = 1; i <= count; i++) {
        const name = isReplicated(definition) ? `${definition.name}-${i}` : definition.name;
        const port = await freePort();
        const metricsPort = definition.name === GATEWAY ? await freePort() : undefined;
        processes.set(name, { name, definition, port, url: httpUrl('127.0.0.1', port), metricsPort });
      }
    }
    front = await startRoundRobin(() =>
      [...processes.values()].filter((p) => p.definition.name === GATEWAY).map((p) => p.port),
    );
    const urlOf = (service: string) => [...processes.values()].find((p) => p.definition.name === service)?.url;
    const ctx: StackContext = {
      databaseUrl: databaseAdminUrl.toString(),
      jwtPublicKey: secrets.jwtPublicKey,
      jwtPrivateKey: secrets.jwtPrivateKey,
      internalSecret: secrets.internalSecret,
      logLevel: opts.logLevel ?? 'info',
      host: '127.0.0.1',
      port: 0,
      publicUrl: front.url,
      staticDir: join(REPO_ROOT, 'web', 'dist'),
      filesDir: join(dir, 'files'),
      adminEmail,
      adminPassword,
      // Only what services call; nobody waits on the workers' or the other gateways' readiness.
      urls: Object.fromEntries(
        ['auth', 'payments', 'services-pricing', 'orders', 'admin'].map((s) => [s, urlOf(s) ?? '']),
      ),
      btcpay: { apiKey: '', webhookSecret: '', dataFile: '', publicUrl: '' },
    };

    const inherited: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !OWNED_VARIABLES.has(k)) inherited[k] = v;
    const envOf = (p: StackProcess): Record<string, string> => {
      const env: Record<string, string> = {
        ...inherited,
        ...opts.env,
        ...p.definition.env(ctx, { port: p.port }),
        ...(p.metricsPort ? { METRICS_PORT: String(p.metricsPort) } : {}),
        EVENT_BUS: bus,
        ...(kafkaBrokers ? { KAFKA_BROKERS: kafkaBrokers, KAFKA_CLIENT_ID: p.name, ...MOCK_CLUSTER_SETTINGS } : {}),
      };
      delete env.READY_ALSO;
      const role = ROLE_OF_SERVICE[p.definition.name];
      if (bus === 'kafka') {
        // In production each service logs in as its own role; the gateway needs no database on Kafka.
        if (role) env.DATABASE_URL = roleUrls[role];
        else delete env.DATABASE_URL;
      }
      return env;
    };

    const spawnProcess = (p: StackProcess) => {
      const log = openSync(join(logsDir, `${p.name}.log`), 'a');
      try {
        p.child = spawn(process.execPath, serviceCommand(p.definition), {
          cwd: join(REPO_ROOT, p.definition.dir),
          env: envOf(p),
          // The ipc channel makes a service shut down by itself if this process disappears.
          stdio: ['ignore', log, log, 'ipc'],
        });
      } finally {
        closeSync(log);
      }
    };
    const waitReady = async (list: StackProcess[]) => {
      const deadline = Date.now() + READY_TIMEOUT_MS;
      let pending = list;
      while (pending.length > 0) {
        const dead = pending.find((p) => p.child && (p.child.exitCode !== null || p.child.signalCode !== null));
        if (dead) {
          const log = await readFile(join(logsDir, `${dead.name}.log`), 'utf8').catch(() => '');
          const tail = log.trimEnd().split('\n').slice(-15).join('\n');
          throw new Error(
            `${dead.name} exited (code ${dead.child?.exitCode}) before it was ready; its log ends:\n${tail}`,
          );
        }
        if (Date.now() > deadline) {
          throw new Error(`not ready after ${READY_TIMEOUT_MS / 1000} s: ${pending.map((p) => p.name).join(', ')}`);
        }
        const ready = await Promise.all(pending.map((p) => isReady(p.url)));
        pending = pending.filter((_, i) => !ready[i]);
        if (pending.length > 0) await sleep(250);
      }
    };

    const all = [...processes.values()];
    for (const p of all) spawnProcess(p);
    await waitReady(all);

    const get = (name: string) => {
      const p = processes.get(name);
      if (!p) throw new Error(`no process named ${name} (there are ${[...processes.keys()].join(', ')})`);
      return p;
    };
    const kill = async (name: string, signal: NodeJS.Signals = 'SIGKILL') => {
      const child = get(name).child;
      if (!child) throw new Error(`${name} is not running`);
      const exited = exitOf(child);
      child.kill(signal);
      return exited;
    };
    const start = async (name: string) => {
      const p = get(name);
      if (p.child && p.child.exitCode === null && p.child.signalCode === null) throw new Error(`${name} is running`);
      spawnProcess(p);
      await waitReady([p]);
    };

    return {
      url: front.url,
      front,
      gatewayUrls: all.filter((p) => p.definition.name === GATEWAY).map((p) => p.url),
      adminEmail,
      adminPassword,
      databaseAdminUrl: databaseAdminUrl.toString(),
      roleUrls,
      kafkaBrokers,
      postgresPid,
      logsDir,
      processes,
      kill,
      start,
      async restart(name) {
        const exited = await kill(name, 'SIGTERM');
        await start(name);
        return exited;
      },
      logTails,
      stop: stopAll,
    };
  } catch (e) {
    const tails = await logTails(40);
    await stopAll();
    throw new Error(`${(e as Error).message}\n${tails}`);
  }
}
