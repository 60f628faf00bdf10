import { type ChildProcess, spawn } from 'node:child_process';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How a service process ended, and when (ms since the epoch, taken when it exited). */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  at: number;
}

/** A service's entry point running as its own process, the way the launcher runs it. */
export interface ServiceProcess {
  /** What the process is called in failure messages: the workspace of a `dist/main.js`, else the file's name. */
  name: string;
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr in the order they arrived. */
  logs: () => string;
  /** What it wrote to stderr alone. */
  stderr: () => string;
  /** Its exit code (null when a signal ended it), once it has exited and its output is read. */
  exited: Promise<number | null>;
  /** The same end with the signal and the time it exited. */
  exit: Promise<ProcessExit>;
  /** Sends `signal` (SIGTERM by default) and resolves with the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export interface SpawnServiceOptions {
  /** Node options placed before the entry, e.g. `['--import', 'tsx']` for a TypeScript fixture. */
  nodeArgs?: string[];
  /** Overrides the name used in failure messages. */
  name?: string;
}

/** How long to wait, after the exit, for output still in the pipes. */
const OUTPUT_GRACE_MS = 1000;

function nameOf(entry: string): string {
  const dir = dirname(entry);
  if (basename(dir) === 'dist') return basename(dirname(dir));
  return basename(entry).replace(/\.[cm]?[jt]s$/, '');
}

/**
 * Starts `node <entry>` (a path or a file URL) with exactly `env` (plus PATH): nothing of the test runner's environment leaks in, so a
 * missing variable is really missing. Runnables are started from their built `dist/main.js` (the test setup rebuilds
 * stale bundles), as production runs them.
 */
export function spawnService(
  entryPath: string | URL,
  env: Record<string, string | undefined>,
  options: SpawnServiceOptions = {},
): ServiceProcess {
  const entry = entryPath instanceof URL ? fileURLToPath(entryPath) : entryPath;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const drained = [child.stdout, child.stderr].map(
    (stream) =>
      new Promise<void>((resolve) => {
        if (!stream) return resolve();
        stream.on('data', (d) => {
          out += d;
          if (stream === child.stderr) err += d;
        });
        stream.on('end', resolve);
        stream.on('close', resolve);
      }),
  );
  const exit = new Promise<ProcessExit>((resolve) => {
    child.on('exit', (code, signal) => {
      const ended = { code, signal, at: Date.now() };
      // 'exit' can come before the last output is read; wait for the pipes, but not for a grandchild holding them.
      const grace = new Promise<void>((r) => setTimeout(r, OUTPUT_GRACE_MS).unref());
      void Promise.race([Promise.all(drained), grace]).then(() => resolve(ended));
    });
  });
  const exited = exit.then((e) => e.code);
  return {
    name: options.name ?? nameOf(entry),
    child,
    logs: () => out,
    stderr: () => err,
    exit,
    exited,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface WaitUntilUpOptions {
  /** How long the process has to answer (30 s by default). */
  timeoutMs?: number;
  /** Time between two polls (100 ms by default). */
  intervalMs?: number;
  /** When an answer counts as up (a 2xx status by default). */
  isUp?: (res: Response) => boolean | Promise<boolean>;
}

/**
 * Polls `url` (a /healthz or /readyz) until `proc` answers it, and returns that answer. Fails with the process's
 * output when it exits first or does not answer in time; in the second case it is killed first.
 */
export async function waitUntilUp(
  url: string,
  proc: ServiceProcess,
  options: WaitUntilUpOptions = {},
): Promise<Response> {
  const { timeoutMs = 30_000, intervalMs = 100, isUp = (res: Response) => res.ok } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
      const { code, signal } = await proc.exit;
      throw new Error(`${proc.name} exited (${signal ?? `code ${code}`}) before ${url} answered:\n${proc.logs()}`);
    }
    const res = await fetch(url).catch(() => null);
    if (res && (await isUp(res))) return res;
    await res?.body?.cancel().catch(() => {});
    if (Date.now() > deadline) {
      await proc.stop('SIGKILL');
      throw new Error(`${proc.name} did not answer ${url} within ${timeoutMs} ms:\n${proc.logs()}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
