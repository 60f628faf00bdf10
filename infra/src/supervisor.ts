import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { sleep } from './net';

export interface ChildSpec {
  name: string;
  cwd: string;
  /** A JavaScript file, run with plain `node` (services are built to dist/main.js). */
  entry: string;
  /** Node and V8 options given before the entry, e.g. heap sizes. */
  nodeArgs?: readonly string[];
  env: Record<string, string>;
  port: number;
}

export interface SupervisorOptions extends BackoffOptions {
  logsDir: string;
  /** Where the one-line summaries of warnings, errors and restarts go. */
  print(line: string): void;
  /** A child that stops with this code has a configuration problem a restart cannot fix. */
  onFatal(name: string, reason: string): void;
  /** Called after every spawn, so the launcher can publish current pids. */
  onSpawn?(): void;
}

export interface BackoffOptions {
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  stableAfterMs?: number;
}

/**
 * How long to wait before restarting a process that stopped: 1 s doubling to
 * 30 s, back to 1 s once a run has lasted a minute (by default). `after`
 * takes when the run that just ended started.
 */
export function createRestartBackoff(opts: BackoffOptions = {}) {
  const initial = opts.initialBackoffMs ?? 1000;
  const max = opts.maxBackoffMs ?? 30_000;
  const stableAfter = opts.stableAfterMs ?? 60_000;
  let next = initial;
  return {
    after(startedAt: number): number {
      if (Date.now() - startedAt >= stableAfter) next = initial;
      const delay = next;
      next = Math.min(next * 2, max);
      return delay;
    },
  };
}

interface Supervised {
  spec: ChildSpec;
  child?: ChildProcess;
  startedAt: number;
  backoff: ReturnType<typeof createRestartBackoff>;
  restartTimer?: NodeJS.Timeout;
  restarts: number;
  log: WriteStream;
}

/** kit's runService exits with 78 (EX_CONFIG) when configuration is invalid. */
const EXIT_CONFIG = 78;
const LEVELS: Record<number, string> = { 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Turns one pino JSON line into a console summary when it is a warning or worse. */
export function summarise(name: string, line: string): string | null {
  let entry: { level?: unknown; msg?: unknown; err?: { message?: unknown } };
  try {
    entry = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof entry.level !== 'number' || entry.level < 40) return null;
  const label = LEVELS[Math.floor(entry.level / 10) * 10] ?? 'WARN';
  const detail =
    typeof entry.err?.message === 'string' && entry.err.message !== entry.msg ? `: ${entry.err.message}` : '';
  return `${name} ${label} ${String(entry.msg ?? '')}${detail}`;
}

/**
 * Runs each service as its own child process and keeps it running: output goes
 * to DATA_DIR/logs/<service>.log, and a child that dies is restarted with a
 * backoff (1 s doubling to 30 s, back to 1 s once it has stayed up a minute).
 */
export function createSupervisor(opts: SupervisorOptions) {
  const children = new Map<string, Supervised>();
  let stopping = false;

  function pipeLines(s: Supervised, stream: Readable | null, isStderr: boolean) {
    if (!stream) return;
    const rl = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
    rl.on('line', (line) => {
      // A child's last lines can arrive after its exit, once its log is closed at shutdown: those are dropped.
      if (!s.log.writableEnded) s.log.write(`${line}\n`);
      if (stopping) return;
      const summary = summarise(s.spec.name, line);
      if (summary) opts.print(summary);
      // Plain text on stderr is a crash trace or a configuration report: never hide it.
      else if (isStderr && line.trim() && !line.startsWith('{')) opts.print(`${s.spec.name}: ${line}`);
    });
  }

  function spawnChild(s: Supervised) {
    s.restartTimer = undefined;
    const child = spawn(
      process.execPath,
      [
        ...(process.env.FLATSHIP_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.FLATSHIP_PROFILE_DIR] : []),
        ...(s.spec.nodeArgs ?? []),
        s.spec.entry,
      ],
      {
        cwd: s.spec.cwd,
        env: s.spec.env,
        // The ipc channel lets a child notice the launcher vanished; its own
        // process group keeps a terminal Ctrl-C away from it so the launcher
        // decides the shutdown order.
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        detached: true,
      },
    );
    s.child = child;
    s.startedAt = Date.now();
    pipeLines(s, child.stdout, false);
    pipeLines(s, child.stderr, true);
    child.on('error', (e) => opts.print(`${s.spec.name}: could not start: ${e.message}`));
    child.once('exit', (code, signal) => onExit(s, child, code, signal));
    opts.onSpawn?.();
  }

  function onExit(s: Supervised, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null) {
    if (s.child === child) s.child = undefined;
    if (stopping) return;
    if (code === EXIT_CONFIG) {
      opts.onFatal(s.spec.name, `${s.spec.name} stopped: its configuration is invalid (see above)`);
      return;
    }
    const delay = s.backoff.after(s.startedAt);
    s.restarts++;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    opts.print(`${s.spec.name} ${how}; restarting in ${delay / 1000}s`);
    s.restartTimer = setTimeout(() => spawnChild(s), delay);
  }

  async function stopChild(s: Supervised, graceMs: number): Promise<void> {
    if (s.restartTimer) clearTimeout(s.restartTimer);
    const child = s.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      // 'close': the child has exited and its output has been read to the end, so the log takes all of it.
      const exited = new Promise<void>((r) => child.once('close', () => r()));
      child.kill('SIGTERM');
      const timedOut = await Promise.race([exited.then(() => false), sleep(graceMs).then(() => true)]);
      if (timedOut) {
        opts.print(`${s.spec.name} did not stop within ${graceMs / 1000}s; killing it`);
        child.kill('SIGKILL');
        await exited;
      }
    }
    await new Promise<void>((r) => s.log.end(r));
  }

  return {
    start(spec: ChildSpec) {
      const s: Supervised = {
        spec,
        startedAt: Date.now(),
        backoff: createRestartBackoff(opts),
        restarts: 0,
        log: createWriteStream(join(opts.logsDir, `${spec.name}.log`), { flags: 'a' }),
      };
      children.set(spec.name, s);
      spawnChild(s);
    },
    logPath: (name: string) => join(opts.logsDir, `${name}.log`),
    pids(): Record<string, number | null> {
      return Object.fromEntries([...children].map(([name, s]) => [name, s.child?.pid ?? null]));
    },
    /** SIGTERM to every child at once, SIGKILL to any still running after the grace period. */
    async stopAll(graceMs = 10_000): Promise<void> {
      stopping = true;
      await Promise.all([...children.values()].map((s) => stopChild(s, graceMs)));
    },
    /** Last resort when the launcher itself is dying. */
    killAll() {
      stopping = true;
      for (const s of children.values()) {
        if (s.restartTimer) clearTimeout(s.restartTimer);
        s.child?.kill('SIGKILL');
      }
    },
  };
}

export type Supervisor = ReturnType<typeof createSupervisor>;
