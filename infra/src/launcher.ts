import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { ConfigError } from '@flatship/kit';
import { type LauncherConfig, loadLauncherConfig } from './config';
import { dataDirProblem, LaunchError } from './launch-error';
import { freePort, inUseBy, isPortFree, isProcessAlive, sleep } from './net';
import { httpUrl, productUrl, publicUrl, REPO_ROOT, reachableHost } from './paths';
import { type RunningDatabase, startDatabase } from './postgres';
import { READY_BLOCK_END } from './ready-block';
import {
  BTCPAY,
  btcpayPublicUrl,
  GATEWAY,
  GATEWAY_METRICS_PORT,
  mainFile,
  nodeArgsOf,
  OWNED_VARIABLES,
  POSTGRES_PORT,
  presentServices,
  type StackContext,
  unbuiltServices,
} from './services';
import { createStateStore, generatePassword } from './state';
import { createRestartBackoff, createSupervisor, type Supervisor } from './supervisor';
import { buildWeb, webBuildReason } from './web-build';

const say = (line: string) => process.stdout.write(`${line}\n`);
const complain = (line: string) => process.stderr.write(`${line}\n`);

/** A second stop signal sooner than this after the first is the same request arriving twice. */
const REPEATED_SIGNAL_MS = 1000;

/** Refuses a second launcher on the same data, which would corrupt nothing but confuse everything. */
async function takeLock(dataDir: string): Promise<string> {
  const lockPath = join(dataDir, 'launcher.pid');
  if (existsSync(lockPath)) {
    const pid = Number((await readFile(lockPath, 'utf8')).trim());
    if (pid && pid !== process.pid && isProcessAlive(pid)) {
      throw new LaunchError(`Flatship is already running from ${dataDir} (launcher pid ${pid}); stop it first`);
    }
  }
  await writeFile(lockPath, `${process.pid}\n`);
  return lockPath;
}

/** The environment a service inherits: the launcher's own, minus every variable the launcher decides itself. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !OWNED_VARIABLES.has(k)) env[k] = v;
  return env;
}

/**
 * One line for the console. A problem the person can fix says what to do; anything
 * unexpected keeps its stack trace in logs/launcher.log, where the line points.
 */
async function explain(e: unknown, logsDir: string): Promise<string> {
  if (e instanceof LaunchError) return e.message;
  const message = e instanceof Error ? e.message : String(e);
  const logPath = join(logsDir, 'launcher.log');
  try {
    const stack = e instanceof Error ? (e.stack ?? message) : message;
    await appendFile(logPath, `${new Date().toISOString()} start-up failed: ${stack}\n`);
    return `could not start: ${message.split('\n')[0]} (details in ${logPath})`;
  } catch {
    return `could not start: ${message.split('\n')[0]}`;
  }
}

/**
 * GET /readyz through node:http rather than fetch, whose HTTP client (undici) would cost the launcher, which
 * stays running beside the services, its start-up time and memory for a handful of requests.
 */
function readyzStatus(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const req = httpGet({ host, port, path: '/readyz', timeout: 2000, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (body.length < 200) body += chunk;
      });
      res.on('error', (e) => resolve(`did not answer (${e.message})`));
      res.on('end', () => {
        if (res.statusCode === 200) resolve(null);
        else resolve(`answers ${res.statusCode}${body ? `: ${body.slice(0, 200)}` : ''}`);
      });
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 2 s')));
    req.on('error', (e) =>
      resolve(
        (e as NodeJS.ErrnoException).code === 'ECONNREFUSED' ? 'is not listening yet' : `did not answer (${e.message})`,
      ),
    );
  });
}

/** Polls /readyz of each service until all answer 200; returns what is still not ready at the deadline. */
async function waitUntilReady(
  targets: { name: string; host: string; port: number }[],
  deadline: number,
  isAborted: () => boolean,
) {
  const pending = new Map(targets.map((t) => [t.name, { host: t.host, port: t.port, why: 'has not answered yet' }]));
  while (pending.size > 0 && Date.now() < deadline && !isAborted()) {
    await Promise.all(
      [...pending].map(async ([name, p]) => {
        const why = await readyzStatus(p.host, p.port);
        if (why === null) pending.delete(name);
        else p.why = why;
      }),
    );
    // Each round is one small local request per process still starting; polling often gets the URL out sooner.
    if (pending.size > 0) await sleep(50);
  }
  return [...pending].map(([name, p]) => ({ name, why: p.why }));
}

async function launch(config: LauncherConfig) {
  const { dataDir } = config;
  const logsDir = join(dataDir, 'logs');
  const runPath = join(dataDir, 'run.json');
  let lockPath: string;
  try {
    await mkdir(logsDir, { recursive: true });
    lockPath = await takeLock(dataDir);
  } catch (e) {
    throw dataDirProblem(dataDir, e) ?? e;
  }

  let supervisor: Supervisor | undefined;
  let db: RunningDatabase | undefined;
  let shuttingDown: Promise<never> | undefined;
  let runFileWrites = Promise.resolve();

  const shutdown = (code: number): Promise<never> => {
    shuttingDown ??= (async () => {
      await supervisor?.stopAll(10_000);
      await db?.stop();
      await runFileWrites;
      await rm(runPath, { force: true });
      await rm(lockPath, { force: true });
      process.exit(code);
    })();
    return shuttingDown;
  };
  let firstSignalAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    // make passes a SIGTERM on to its children, so a signal to the whole process group (a closing
    // terminal, `kill -- -PGID`) arrives twice at once: that is one request, not an impatient second one.
    if (shuttingDown && Date.now() - firstSignalAt < REPEATED_SIGNAL_MS) return;
    if (shuttingDown) {
      // A second Ctrl-C means "now": no more waiting for graceful exits.
      supervisor?.killAll();
      if (db) process.kill(db.pid, 'SIGQUIT');
      process.exit(130);
    }
    firstSignalAt = Date.now();
    say(`Stopping Flatship (${signal})…`);
    void shutdown(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // Started by a test harness with an ipc channel: leave nothing behind when it goes away.
  if (process.send) process.on('disconnect', () => onSignal('SIGTERM'));

  try {
    const services = presentServices(config.servicesRoot);
    if (!services.some((s) => s.name === GATEWAY)) {
      throw new LaunchError(`the gateway is missing (${join(config.servicesRoot, 'gateway/src/main.ts')})`);
    }
    const unbuilt = unbuiltServices(config.servicesRoot, services);
    if (unbuilt.length > 0) {
      throw new LaunchError(
        `not built: ${unbuilt.join(', ')}; run \`npm run build\` (make start builds whatever changed by itself)`,
      );
    }
    if (!(await isPortFree(config.PORT, config.HOST))) {
      throw new LaunchError(
        `PORT ${config.PORT} is already ${inUseBy(config.PORT)} on ${config.HOST}; stop it or choose another port, e.g. make start PORT=9080`,
      );
    }
    const taken = new Set<number>([config.PORT]);
    /** A service's usual port when it is free (saying so when it is not), else any free one. */
    const pickPort = async (name: string, usual: number): Promise<number> => {
      let port: number | undefined;
      if (config.INTERNAL_PORTS === 'fixed') {
        if (taken.has(usual)) port = undefined;
        else if (await isPortFree(usual)) port = usual;
        else complain(`${name}: its usual port ${usual} is ${inUseBy(usual)}; it uses a free port instead`);
      }
      while (port === undefined || taken.has(port)) port = await freePort();
      taken.add(port);
      return port;
    };

    if (config.BUILD_WEB === 'auto') {
      const reason = await webBuildReason(REPO_ROOT);
      if (reason) {
        say(`Building the web app (${reason})…`);
        await buildWeb(REPO_ROOT, join(logsDir, 'web-build.log'));
      }
    }

    const store = createStateStore(dataDir);
    const { secrets } = await store.loadOrCreateSecrets();
    const state = await store.readState();

    const pgPort = await pickPort('postgres', POSTGRES_PORT);
    const ports: Record<string, number> = {};
    for (const def of services)
      ports[def.name] = def.name === GATEWAY ? config.PORT : await pickPort(def.name, def.port);

    // The gateway's /metrics is on a listener of its own (never its public port).
    const gatewayMetricsPort = services.some((s) => s.name === GATEWAY)
      ? await pickPort('gateway-metrics', GATEWAY_METRICS_PORT)
      : undefined;

    const writeRunFile = () => {
      const pids = supervisor?.pids() ?? {};
      const run = {
        launcherPid: process.pid,
        postgres: { pid: db?.pid ?? null, port: pgPort, log: join(logsDir, 'postgres.log') },
        services: Object.fromEntries(
          services.map((s) => [
            s.name,
            { pid: pids[s.name] ?? null, port: ports[s.name], log: supervisor?.logPath(s.name) },
          ]),
        ),
      };
      // Written whole then renamed, one write at a time, so a reader never sees half a file.
      const tmp = `${runPath}.${process.pid}.tmp`;
      runFileWrites = runFileWrites
        .then(() => writeFile(tmp, `${JSON.stringify(run, null, 2)}\n`))
        .then(() => rename(tmp, runPath))
        .catch(() => {});
    };

    const startPostgres = () => startDatabase({ dataDir, password: secrets.pgPassword, port: pgPort });
    db = await startPostgres();
    if (state.pgPort !== db.port) await store.updateState({ pgPort: db.port });

    // PostgreSQL is supervised like the services: restarted on the same port and data with a backoff,
    // while the services wait for it and carry on by themselves.
    const pgBackoff = createRestartBackoff();
    const superviseDatabase = (running: RunningDatabase, startedAt: number) => {
      void running.exited.then(async ({ code, signal }) => {
        if (shuttingDown) return;
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        // A failed restart attempt is a run that did not last: the next wait doubles.
        for (let attemptAt = startedAt; !shuttingDown; attemptAt = Date.now()) {
          const delay = pgBackoff.after(attemptAt);
          complain(`postgres ${how}; restarting in ${delay / 1000}s (its log: ${running.logPath})`);
          await sleep(delay);
          if (shuttingDown) return;
          try {
            const next = await startPostgres();
            if (shuttingDown) {
              await next.stop();
              return;
            }
            db = next;
            writeRunFile();
            complain(`postgres restarted (pid ${next.pid})`);
            superviseDatabase(next, Date.now());
            return;
          } catch (e) {
            complain(`postgres could not be restarted: ${(e as Error).message}`);
          }
        }
      });
    };
    superviseDatabase(db, Date.now());

    const hasAuth = services.some((s) => s.name === 'auth');
    // Only a password nobody chose needs showing; the auth service ignores it once any admin exists.
    const generatedPassword = !config.ADMIN_PASSWORD && !state.admin && hasAuth ? generatePassword() : undefined;

    // Services a browser talks to listen where the gateway does; the rest only on loopback.
    const hostOf = (def: { isPublic?: boolean }) => (def.isPublic ? reachableHost(config.HOST) : '127.0.0.1');
    const ctx: StackContext = {
      databaseUrl: db.url,
      jwtPublicKey: secrets.jwtPublicKey,
      jwtPrivateKey: secrets.jwtPrivateKey,
      internalSecret: secrets.internalSecret,
      logLevel: config.LOG_LEVEL,
      host: config.HOST,
      port: config.PORT,
      publicUrl: productUrl(config.HOST, config.PORT, config.PUBLIC_URL),
      staticDir: join(REPO_ROOT, 'web', 'dist'),
      filesDir: join(dataDir, 'files'),
      adminEmail: config.ADMIN_EMAIL,
      adminPassword: config.ADMIN_PASSWORD ?? generatedPassword,
      urls: Object.fromEntries(
        services.filter((s) => s.name !== GATEWAY).map((s) => [s.name, httpUrl(hostOf(s), ports[s.name]!)]),
      ),
      ...(gatewayMetricsPort ? { gatewayMetricsPort } : {}),
      btcpay: {
        apiKey: secrets.btcpayApiKey,
        webhookSecret: secrets.btcpayWebhookSecret,
        dataFile: join(dataDir, 'btcpay-invoices.json'),
        publicUrl: btcpayPublicUrl(config.HOST, ports[BTCPAY] ?? 0),
      },
    };

    const sup = createSupervisor({
      logsDir,
      print: complain,
      onFatal: (_name, reason) => {
        if (shuttingDown) return;
        complain(reason);
        void shutdown(1);
      },
      onSpawn: writeRunFile,
    });
    supervisor = sup;
    const env = baseEnv();
    for (const def of services) {
      const port = ports[def.name]!;
      sup.start({
        name: def.name,
        cwd: join(config.servicesRoot, def.dir),
        entry: mainFile(config.servicesRoot, def),
        nodeArgs: nodeArgsOf(def),
        env: { ...env, ...def.env(ctx, { port }) },
        port,
      });
    }

    const deadline = Date.now() + config.READY_TIMEOUT_MS;
    const aborted = () => shuttingDown !== undefined;
    const backends = services
      .filter((s) => s.name !== GATEWAY)
      .map((s) => ({ name: s.name, host: hostOf(s), port: ports[s.name]! }));
    // A wildcard listener answers on loopback; one bound to a specific interface only there.
    const gatewayHost = reachableHost(config.HOST);
    // Everyone is polled together; the gateway is ready only once the others are, so while any of them is not,
    // only they are named.
    let notReady = await waitUntilReady(
      [...backends, { name: GATEWAY, host: gatewayHost, port: config.PORT }],
      deadline,
      aborted,
    );
    if (notReady.some(({ name }) => name !== GATEWAY)) notReady = notReady.filter(({ name }) => name !== GATEWAY);
    if (aborted()) return;
    if (notReady.length > 0) {
      const reasons = notReady.map(({ name, why }) => `${name} ${why} (its log: ${sup.logPath(name)})`);
      complain(
        `flatship: gave up after ${config.READY_TIMEOUT_MS / 1000} s, stopping everything: ${reasons.join('; ')}. More time: READY_TIMEOUT_MS=120000`,
      );
      await shutdown(1);
      return;
    }

    // One block, always closed by the same last line, so whoever reads it (a person, a script) knows it is whole.
    const block = [`Flatship is running at ${publicUrl(config.HOST, config.PORT)}`];
    if (ports[BTCPAY])
      block.push(`BTCPay simulator: ${ctx.btcpay.publicUrl} (test payments only; nothing real is paid)`);
    const firstAdmin = hasAuth && !state.admin;
    if (firstAdmin && generatedPassword) {
      block.push(
        `Admin sign-in: ${config.ADMIN_EMAIL} / ${generatedPassword} (shown once; set ADMIN_PASSWORD to choose your own)`,
      );
    }
    block.push(READY_BLOCK_END);
    say(block.join('\n'));
    if (firstAdmin) {
      await store.updateState({ admin: { email: config.ADMIN_EMAIL, recordedAt: new Date().toISOString() } });
    }
  } catch (e) {
    if (shuttingDown) return;
    complain(`flatship: ${await explain(e, logsDir)}`);
    await shutdown(1);
  }
}

async function main() {
  let config: LauncherConfig;
  try {
    config = loadLauncherConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      complain(
        `flatship: ${e.problems.join('; ')}. Fix the variable or unset it to use its default (docs/configuration.md lists every setting)`,
      );
      process.exit(78);
    }
    throw e;
  }
  try {
    await launch(config);
  } catch (e) {
    // Only failures before anything was started get here (data directory unusable, already running).
    complain(`flatship: ${await explain(e, join(config.dataDir, 'logs'))}`);
    process.exit(1);
  }
}

await main();
