import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Invoice } from '@flatship/proto';
import { buildRunnables, describeBuild } from '../../build/build.mjs';
import { freePort } from '../net';
import { REPO_ROOT } from '../paths';
import { ADMIN_LINE, BTCPAY_LINE, READY_BLOCK_END, READY_LINE } from '../ready-block';
import { BTCPAY_STORE_ID } from '../services';
import type { Secrets } from '../state';

/** The built launcher, as `make start` runs it (the test setup builds whatever is stale first). */
export const LAUNCHER_ENTRY = join(REPO_ROOT, 'infra', 'dist', 'launcher.js');

export interface LauncherProcess {
  child: ChildProcess;
  /** Everything the launcher printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves once the launcher has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first output line matching `pattern`, or rejects on exit or timeout. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
}

/** Runs the launcher as a child, the way `make start` does, capturing its console. */
export function runLauncher(env: Record<string, string>): LauncherProcess {
  const child = spawn(process.execPath, [LAUNCHER_ENTRY], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    // The ipc channel makes the launcher shut down if the test process disappears.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let text = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    text += d.toString('utf8');
    for (const l of listeners) l();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
    for (const l of listeners) l();
  });
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = text.match(pattern);
          if (m) done(() => resolve(m));
          else if (hasExited) done(() => reject(new Error(`the launcher exited before printing ${pattern}`)));
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`the launcher did not print ${pattern} within ${timeoutMs / 1000} s`))),
          timeoutMs,
        );
        const done = (f: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          f();
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** The last lines of every log under DATA_DIR/logs, for failure messages that explain themselves. */
export async function logTails(dataDir: string, lines = 30): Promise<string> {
  const dir = join(dataDir, 'logs');
  if (!existsSync(dir)) return '(no logs were written)';
  const parts: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const content = (await readFile(join(dir, name), 'utf8')).trimEnd().split('\n').slice(-lines).join('\n');
    parts.push(`--- ${name} (last ${lines} lines) ---\n${content}`);
  }
  return parts.join('\n');
}

/** Stops a launcher the way Ctrl-C would, escalating if it hangs. */
export async function stopLauncher(launcher: LauncherProcess, timeoutMs = 30_000) {
  if (launcher.child.exitCode !== null || launcher.child.signalCode !== null) return launcher.exited;
  launcher.child.kill('SIGTERM');
  // A timer of its own, cleared at once: a pending one would keep a long-lived process (the test run's) open.
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  const result = await Promise.race([launcher.exited, hung]);
  clearTimeout(timer);
  if (result) return result;
  launcher.child.kill('SIGKILL');
  return launcher.exited;
}

/** How a test reaches the stack's BTCPay simulator, e.g. to settle an invoice without a browser. */
export interface StackBtcpay {
  /** The simulator's base URL (checkout links start with it). */
  url: string;
  /** Send as `Authorization: token {apiKey}` to the Greenfield API and the `/__sim` test hooks. */
  apiKey: string;
  storeId: string;
}

/**
 * Pays an invoice on the stack's simulator as if someone pressed Pay on its
 * checkout page (`amount` in dollars, required for a top-up), so the signed
 * webhooks reach payments through the gateway. Resolves with the settled invoice.
 */
export async function settleInvoice(btcpay: StackBtcpay, invoiceId: string, amount?: string) {
  return simulatorHook(btcpay, invoiceId, 'settle', amount === undefined ? {} : { amount });
}

/** Expires an unpaid invoice on the stack's simulator, sending InvoiceExpired. */
export async function expireInvoice(btcpay: StackBtcpay, invoiceId: string) {
  return simulatorHook(btcpay, invoiceId, 'expire', {});
}

async function simulatorHook(btcpay: StackBtcpay, invoiceId: string, action: string, body: object) {
  const res = await fetch(`${btcpay.url}/__sim/invoices/${encodeURIComponent(invoiceId)}/${action}`, {
    method: 'POST',
    headers: { authorization: `token ${btcpay.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Invoice;
  if (!res.ok) throw new Error(`${action} of invoice ${invoiceId} failed (${res.status}): ${JSON.stringify(answer)}`);
  return answer;
}

const READY_BLOCK_END_LINE = new RegExp(`^${READY_BLOCK_END.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm');

/**
 * Resolves with everything printed once the launcher's ready block is whole (up to its last line), however
 * the output happens to arrive; rejects if the launcher exits first or `timeoutMs` passes.
 */
export async function waitForReadyBlock(launcher: LauncherProcess, timeoutMs: number): Promise<string> {
  await launcher.waitFor(READY_BLOCK_END_LINE, timeoutMs);
  return launcher.output();
}

export interface RunningStack {
  url: string;
  /** Absent only when the simulator's code is not in the services root (launcher fixtures). */
  btcpay?: StackBtcpay;
  adminEmail: string;
  adminPassword: string;
  dataDir: string;
  launcher: LauncherProcess;
  stop(): Promise<void>;
}

export interface StartStackOptions {
  /** Extra launcher or service variables. */
  env?: Record<string, string>;
  /** Reuse a data directory (kept on stop) instead of a fresh temporary one (removed on stop). */
  dataDir?: string;
}

/**
 * Starts the whole product the way `make start` does, on a free port with
 * fresh data, for end-to-end tests. Internal ports are random so several
 * stacks can run side by side.
 */
export async function startStack(opts: StartStackOptions = {}): Promise<RunningStack> {
  // The test setup has built everything already; a script (a benchmark) gets the same guarantee here.
  await buildRunnables({ onlyStale: true, onStart: (todo) => process.stdout.write(`${describeBuild(todo)}\n`) });
  const ownsDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'flatship-stack-')));
  const port = await freePort();
  const adminEmail = opts.env?.ADMIN_EMAIL ?? 'admin@flatship.local';
  // An explicitly empty ADMIN_PASSWORD lets the launcher generate one, which is then read from its output.
  let adminPassword = opts.env?.ADMIN_PASSWORD ?? `Adm1n-${randomBytes(9).toString('base64url')}`;
  const launcher = runLauncher({
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    INTERNAL_PORTS: 'random',
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
    LOG_LEVEL: 'info',
    ...opts.env,
  });
  const cleanUp = async () => {
    await stopLauncher(launcher);
    if (ownsDir) await rm(dataDir, { recursive: true, force: true });
  };
  let url: string;
  let btcpay: StackBtcpay | undefined;
  try {
    await waitForReadyBlock(launcher, 90_000);
    const printed = launcher.output();
    url = printed.match(READY_LINE)![1]!;
    const btcpayUrl = printed.match(BTCPAY_LINE)?.[1];
    if (btcpayUrl) {
      const secrets = JSON.parse(await readFile(join(dataDir, 'secrets.json'), 'utf8')) as Secrets;
      btcpay = { url: btcpayUrl, apiKey: secrets.btcpayApiKey, storeId: BTCPAY_STORE_ID };
    }
    // Shown only on the first start of a data directory, when no password was chosen.
    if (!adminPassword) adminPassword = printed.match(ADMIN_LINE)?.[1] ?? '';
  } catch (e) {
    const tails = await logTails(dataDir);
    await cleanUp();
    throw new Error(`${(e as Error).message}\n--- launcher output ---\n${launcher.output()}\n${tails}`);
  }
  return { url, btcpay, adminEmail, adminPassword, dataDir, launcher, stop: cleanUp };
}

export interface ApiCall {
  method?: string;
  /** Sent as the `token` header. */
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
}

/**
 * Calls the product's public API at `baseUrl` as a script would: JSON in and
 * out, the token header, and an error naming the call and the answer when it
 * is not a success.
 */
export function createStackApi(baseUrl: string) {
  return async function api<T>(path: string, init: ApiCall = {}): Promise<T> {
    const res = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.token ? { token: init.token } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} → ${res.status} ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/**
 * Registers a customer through the public API, has the admin set their balance
 * (dollars) and signs them in: what a script needs before it buys labels.
 */
export async function registerFundedCustomer(
  api: ReturnType<typeof createStackApi>,
  admin: { email: string; password: string },
  customer: { email: string; password: string; balance: number; name?: string },
): Promise<{ id: string; token: string }> {
  const { email, password } = customer;
  const { user } = await api<{ user: { _id: string } }>('/api/auth/register', {
    method: 'POST',
    body: { name: customer.name ?? 'Harbor Goods', email, password, confirmPassword: password },
  });
  const signedIn = await api<{ token: string }>('/api/auth/login', {
    method: 'POST',
    body: { email: admin.email, password: admin.password },
  });
  await api(`/api/auth/users/details/${user._id}`, {
    method: 'POST',
    token: signedIn.token,
    body: { balance: customer.balance },
  });
  const { token } = await api<{ token: string }>('/api/auth/login', { method: 'POST', body: { email, password } });
  return { id: user._id, token };
}
