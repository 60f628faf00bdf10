// Hot API paths benchmark: the same authenticated calls through the gateway and
// straight to the service that owns them, quotes at concurrency 50, and a mixed
// run of logins, verifies, quotes and address lists, on the embedded stack as
// `make start` runs it (default log level included).
//
//   node --import tsx infra/bench/api/run.ts [--runs 3] [--seconds 10] [--baseline /path/to/other/checkout]
//
// --baseline runs the same measurements first against another checkout's built
// stack (e.g. main), so before and after come from one sitting on one machine.
// Load comes from a process of its own (load.ts). Besides latencies and rates it
// prints the CPU seconds each process of the stack used per 1,000 requests, which
// stays meaningful on a machine busy with other work. A missed target is a
// measurement, not an error: the exit code is non-zero only when the benchmark
// itself could not run.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { buildRunnables, describeBuild } from '../../build/build.mjs';
import { freePort } from '../../src/net';
import { cpuTotals, readStackProcesses, type StackProcesses } from '../bulk/rss';
import { median } from '../stats';
import type { LoadKind, LoadPhase, LoadRequest, PhaseResult } from './load';

const HERE = dirname(fileURLToPath(import.meta.url));
const THIS_ROOT = resolve(HERE, '..', '..', '..');

const TARGETS = {
  overheadRatio: 1.2,
  quotesPerSecond: 3000,
  quotesP99Ms: 20,
  mixedPerSecond: 3000,
  mixedP99Ms: 50,
};

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '50' },
    // Sequential calls per latency comparison window (gateway and direct alternate, three windows each).
    'latency-seconds': { type: 'string', default: '2' },
    customers: { type: 'string', default: '64' },
    // Another checkout whose built stack is measured first (its infra/dist/launcher.js).
    baseline: { type: 'string' },
    // Only part of the runs: overhead, quotes, mixed (comma-separated).
    only: { type: 'string', default: 'overhead,quotes,mixed,login' },
  },
});
const runs = Number(args.runs);
const seconds = Number(args.seconds);
const warmup = Number(args.warmup);
const concurrency = Number(args.concurrency);
const latencySeconds = Number(args['latency-seconds']);
const customerCount = Number(args.customers);
const only = new Set(args.only.split(','));
for (const [name, v] of Object.entries({ runs, seconds, warmup, concurrency, latencySeconds, customerCount })) {
  if (!(Number.isFinite(v) && v > 0)) throw new Error(`--${name} must be a positive number`);
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * The mixed run's shares. A signed-in customer's app checks its session
 * (verify) on every page load, prices the order form as it is edited (quote)
 * and opens the address book with it; a login happens once per session, and a
 * token lasts 7 days, so logins are a small share: 1 in 500 calls. Each login
 * comes from its own client address with its own customer, as real users do, so
 * the per-address and per-email limits (20 a minute by default) are not what is
 * measured; argon2 makes each login cost tens of milliseconds of CPU (the login
 * run below measures it alone).
 */
const MIX = { verify: 35, quote: 40, addresses: 24.8, login: 0.2 };

/** Client addresses logins come from, each a different client to the gateway's rate limits. */
const loginAddress = (i: number) => `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;

interface Customer {
  id: string;
  email: string;
  password: string;
  token: string;
}

interface Stack {
  label: string;
  url: string;
  ports: { auth: number; pricing: number };
  processes: StackProcesses;
  stop(): Promise<void>;
}

/** Starts the launcher of the checkout at `root` as `make start` would, on free ports and fresh data. */
async function startTree(root: string, label: string): Promise<Stack> {
  const entry = join(root, 'infra', 'dist', 'launcher.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build that checkout first (make build-stale)`);
  const dataDir = await mkdtemp(join(tmpdir(), 'flatship-bench-api-'));
  const port = await freePort();
  const adminPassword = `Adm1n-${randomBytes(9).toString('base64url')}`;
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      INTERNAL_PORTS: 'random',
      ADMIN_EMAIL: 'admin@flatship.local',
      ADMIN_PASSWORD: adminPassword,
      BUILD_WEB: 'never',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(t);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error('the launcher was not ready within 120 s')), 120_000);
      const onData = (d: Buffer) => {
        output += d.toString('utf8');
        const m = output.match(/Flatship is running at (\S+)/);
        if (m) {
          clearTimeout(timer);
          resolveUrl(m[1]!);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the launcher exited:\n${output}`));
      });
    });
    // Keep draining its console so it never blocks on a full pipe.
    const run = JSON.parse(await readFile(join(dataDir, 'run.json'), 'utf8')) as {
      services: Record<string, { port: number }>;
    };
    const processes = await readStackProcesses(dataDir);
    const admin = { email: 'admin@flatship.local', password: adminPassword };
    const stack: Stack = {
      label,
      url,
      ports: { auth: run.services.auth!.port, pricing: run.services['services-pricing']!.port },
      processes,
      stop,
    };
    Object.assign(stack, { admin });
    return stack;
  } catch (e) {
    await stop();
    throw e;
  }
}

const agents = new Map<string, Agent>();
/** JSON over HTTP from a given client address (so setup never trips the per-address limits). */
async function call<T>(
  url: string,
  init: { method?: 'GET' | 'POST'; token?: string; body?: unknown; from?: string } = {},
): Promise<T> {
  const from = init.from ?? '127.0.0.1';
  let dispatcher = agents.get(from);
  if (!dispatcher) {
    dispatcher = new Agent({ localAddress: from });
    agents.set(from, dispatcher);
  }
  const res = await request(url, {
    method: init.method ?? 'GET',
    dispatcher,
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { token: init.token } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300)
    throw new Error(`${init.method ?? 'GET'} ${url} → ${res.statusCode} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const ADDRESS = {
  address_id: 'Warehouse',
  name: 'Dana Seller',
  street: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  country: 'US',
};

/** Registers `n` customers, each from its own address, with a token and two saved addresses. */
async function createCustomers(stack: Stack, n: number): Promise<{ customers: Customer[]; serviceName: string }> {
  const customers: Customer[] = [];
  const stamp = Date.now().toString(36);
  for (let i = 0; i < n; i++) {
    const from = loginAddress(1000 + i);
    const email = `bench-api-${stamp}-${i}@example.com`;
    const password = `bench-parcels-${i}-42`;
    const { user } = await call<{ user: { _id: string } }>(`${stack.url}/api/auth/register`, {
      method: 'POST',
      from,
      body: { name: `Bench Shop ${i}`, email, password, confirmPassword: password },
    });
    const { token } = await call<{ token: string }>(`${stack.url}/api/auth/login`, {
      method: 'POST',
      from,
      body: { email, password },
    });
    for (const id of ['Warehouse', 'Store']) {
      await call(`${stack.url}/api/auth/save-address/${user._id}`, {
        method: 'POST',
        token,
        body: { ...ADDRESS, address_id: id },
      });
    }
    customers.push({ id: user._id, email, password, token });
  }
  const services = await call<{ data?: { name: string; enabled?: boolean }[] } | { name: string }[]>(
    `${stack.url}/api/userServices/${customers[0]!.id}`,
    { token: customers[0]!.token },
  ).catch(() => null);
  const list = Array.isArray(services) ? services : (services?.data ?? []);
  const serviceName = list.find((s) => (s as { enabled?: boolean }).enabled !== false)?.name ?? 'USPS Priority Mail';
  return { customers, serviceName };
}

/** The four calls, per customer, against `origin` (the gateway or a service: the paths are the same). */
function requestsOf(customers: Customer[], serviceName: string) {
  const json = { 'content-type': 'application/json' };
  return {
    verify: customers.map(
      (c): LoadRequest => ({ method: 'GET', path: '/api/auth/verify', headers: { token: c.token } }),
    ),
    quote: customers.map(
      (c, i): LoadRequest => ({
        method: 'POST',
        path: '/api/orders/price/v2/bulk',
        headers: { ...json, token: c.token },
        body: JSON.stringify({
          userId: c.id,
          shipments: [
            { service_name: serviceName, package: { package_weight: 1 + (i % 9) } },
            { service_name: serviceName, package: { package_weight: '3.5' } },
          ],
        }),
      }),
    ),
    addresses: customers.map(
      (c): LoadRequest => ({ method: 'GET', path: `/api/auth/get-address/${c.id}`, headers: { token: c.token } }),
    ),
    login: customers.map(
      (c): LoadRequest => ({
        method: 'POST',
        path: '/api/auth/login',
        headers: json,
        body: JSON.stringify({ email: c.email, password: c.password }),
      }),
    ),
  };
}

interface Measured {
  result: PhaseResult;
  /** CPU seconds per process within the measured window. */
  cpu: Record<string, number>;
  /** The load generator's own CPU seconds in the window. */
  loaderCpu: number;
}

/** Runs phases in the load generator's process, reading each process's CPU around every measured window. */
async function runLoad(phases: LoadPhase[], procs: StackProcesses): Promise<Measured[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'load.ts')], {
    cwd: THIS_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.end(JSON.stringify(phases));
  const loaderProcs = () => ({ nodes: { loader: child.pid! }, postgres: -1 });
  const out: Measured[] = [];
  let before: Record<string, number> = {};
  let loaderBefore = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.startsWith('{')) continue;
    const msg = JSON.parse(line) as { event: string } & PhaseResult;
    if (msg.event === 'measuring') {
      before = cpuTotals(procs);
      loaderBefore = cpuTotals(loaderProcs()).loader ?? 0;
    } else if (msg.event === 'result') {
      const after = cpuTotals(procs);
      const loaderCpu = (cpuTotals(loaderProcs()).loader ?? 0) - loaderBefore;
      out.push({
        result: msg,
        cpu: Object.fromEntries(Object.keys(after).map((n) => [n, after[n]! - (before[n] ?? 0)])),
        loaderCpu,
      });
    }
  }
  const code = await new Promise<number | null>((r) =>
    child.exitCode === null ? child.once('exit', (c) => r(c)) : r(child.exitCode),
  );
  if (code !== 0 || out.length !== phases.length) throw new Error(`the load generator failed (exit ${code})`);
  return out;
}

interface StackFigures {
  label: string;
  overhead: {
    call: string;
    gateway: number;
    direct: number;
    gatewayP99: number;
    directP99: number;
    /** CPU ms per call: the gateway process alone, and every process of the stack, each way. */
    gatewayCpuMs: number;
    stackCpuGateway: number;
    stackCpuDirect: number;
  }[];
  quotes: Measured[];
  mixed: Measured[];
  login: Measured | null;
  problems: string[];
}

const phase = (origin: string, connections: number, kinds: LoadKind[], durationS: number, warmupS: number) => ({
  origin,
  connections,
  warmupMs: warmupS * 1000,
  durationMs: durationS * 1000,
  kinds,
});

/** Statuses other than the expected one, and transport errors, in a result. */
function unexpected(result: PhaseResult, ok: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [name, k] of Object.entries(result.kinds)) {
    const bad = Object.entries(k.statuses).filter(([s]) => s !== (ok[name] ?? '200'));
    if (bad.length || k.errors) {
      out.push(`${name}: ${bad.map(([s, n]) => `${n}× ${s}`).join(', ')}${k.errors ? ` ${k.errors} errors` : ''}`);
    }
  }
  return out;
}

interface Prepared {
  stack: Stack;
  figures: StackFigures;
  reqs: ReturnType<typeof requestsOf>;
  gateway: string;
  auth: string;
  pricing: string;
}

async function prepare(root: string, label: string): Promise<Prepared> {
  log(`[${label}] starting the stack from ${root} (load average ${load()})…`);
  const stack = await startTree(root, label);
  try {
    const { customers, serviceName } = await createCustomers(stack, customerCount);
    log(`[${label}] ${customers.length} customers ready; quoting "${serviceName}"`);
    return {
      stack,
      reqs: requestsOf(customers, serviceName),
      gateway: stack.url.replace(/\/$/, ''),
      auth: `http://127.0.0.1:${stack.ports.auth}`,
      pricing: `http://127.0.0.1:${stack.ports.pricing}`,
      figures: { label, overhead: [], quotes: [], mixed: [], login: null, problems: [] },
    };
  } catch (e) {
    await stack.stop();
    throw e;
  }
}

const OVERHEAD_CALLS = [
  { call: 'GET /api/auth/verify', kind: 'verify', owner: 'auth' },
  { call: 'POST /api/orders/price/v2/bulk', kind: 'quote', owner: 'pricing' },
  { call: 'GET /api/auth/get-address/{userId}', kind: 'addresses', owner: 'auth' },
] as const;

/** One window of one call at a time through the gateway, then one straight to the service. */
async function overheadWindow(p: Prepared, c: (typeof OVERHEAD_CALLS)[number], first: boolean) {
  const kinds: LoadKind[] = [{ name: c.kind, weight: 1, requests: p.reqs[c.kind] }];
  const [gw, direct] = await runLoad(
    [
      phase(p.gateway, 1, kinds, latencySeconds, first ? 1 : 0.2),
      phase(p[c.owner], 1, kinds, latencySeconds, first ? 1 : 0.2),
    ],
    p.stack.processes,
  );
  for (const m of [gw!, direct!]) p.figures.problems.push(...unexpected(m.result, {}).map((x) => `${c.call}: ${x}`));
  // The gateway's own CPU per call, and the whole stack's per call each way: what the hop costs, whatever the load.
  const perCall = (m: Measured, name?: string) =>
    (name ? (m.cpu[name] ?? 0) : Object.values(m.cpu).reduce((a, b) => a + b, 0)) / (m.result.total || 1);
  return {
    gateway: gw!.result.kinds[c.kind]!,
    direct: direct!.result.kinds[c.kind]!,
    gatewayCpuMs: 1000 * perCall(gw!, 'gateway'),
    stackCpuMs: { gateway: 1000 * perCall(gw!), direct: 1000 * perCall(direct!) },
  };
}

/** The mixed run's kinds (see MIX). */
function mixedKinds(p: Prepared): LoadKind[] {
  // Logins take turns over addresses and customers far enough apart that no address or email
  // reaches its per-minute limit: each is used a few times in the whole run.
  const loginFrom = Array.from({ length: 200 }, (_, i) => loginAddress(i));
  return [
    { name: 'verify', weight: MIX.verify, requests: p.reqs.verify },
    { name: 'quote', weight: MIX.quote, requests: p.reqs.quote },
    { name: 'addresses', weight: MIX.addresses, requests: p.reqs.addresses },
    { name: 'login', weight: MIX.login, requests: p.reqs.login, localAddresses: loginFrom },
  ];
}

/**
 * Every stack is started first; then each measurement takes turns between them
 * window by window (the order flipped every round), so a change in what else
 * the machine is doing falls on both alike.
 */
async function measureAll(stacks: Prepared[]) {
  const rounds = <T>(n: number, each: (p: Prepared, round: number) => Promise<T>) =>
    (async () => {
      for (let r = 0; r < n; r++) {
        const order = r % 2 ? [...stacks].reverse() : stacks;
        for (const p of order) await each(p, r);
      }
    })();

  if (only.has('overhead')) {
    for (const c of OVERHEAD_CALLS) {
      const windows = new Map<Prepared, Awaited<ReturnType<typeof overheadWindow>>[]>();
      await rounds(3, async (p, r) => {
        const w = await overheadWindow(p, c, r < 2);
        windows.set(p, [...(windows.get(p) ?? []), w]);
      });
      for (const p of stacks) {
        const ws = windows.get(p)!;
        const o = {
          call: c.call,
          gateway: median(ws.map((w) => w.gateway.p50)),
          direct: median(ws.map((w) => w.direct.p50)),
          gatewayP99: median(ws.map((w) => w.gateway.p99)),
          directP99: median(ws.map((w) => w.direct.p99)),
          gatewayCpuMs: median(ws.map((w) => w.gatewayCpuMs)),
          stackCpuGateway: median(ws.map((w) => w.stackCpuMs.gateway)),
          stackCpuDirect: median(ws.map((w) => w.stackCpuMs.direct)),
        };
        p.figures.overhead.push(o);
        log(
          `[${p.figures.label}] ${c.call}: p50 ${fmt(o.gateway, 2)} ms through the gateway, ${fmt(o.direct, 2)} direct`,
        );
      }
    }
  }

  if (only.has('quotes')) {
    await rounds(runs, async (p) => {
      const kinds: LoadKind[] = [{ name: 'quote', weight: 1, requests: p.reqs.quote }];
      const [m] = await runLoad([phase(p.gateway, concurrency, kinds, seconds, warmup)], p.stack.processes);
      p.figures.quotes.push(m!);
      p.figures.problems.push(...unexpected(m!.result, {}).map((x) => `quotes: ${x}`));
      log(`[${p.figures.label}] quotes at ${concurrency}: ${fmt(m!.result.perSecond, 0)}/s (load ${load()})`);
    });
  }

  if (only.has('mixed')) {
    await rounds(runs, async (p) => {
      const [m] = await runLoad([phase(p.gateway, concurrency, mixedKinds(p), seconds, warmup)], p.stack.processes);
      p.figures.mixed.push(m!);
      p.figures.problems.push(...unexpected(m!.result, {}).map((x) => `mixed: ${x}`));
      log(`[${p.figures.label}] mixed at ${concurrency}: ${fmt(m!.result.perSecond, 0)}/s (load ${load()})`);
    });
  }

  if (only.has('login')) {
    // Logins alone, 4 at a time, each from its own address: what one costs (argon2 dominates).
    await rounds(1, async (p) => {
      const loginFrom = Array.from({ length: 200 }, (_, i) => loginAddress(300 + i));
      const kinds: LoadKind[] = [{ name: 'login', weight: 1, requests: p.reqs.login, localAddresses: loginFrom }];
      p.figures.login = (await runLoad([phase(p.gateway, 4, kinds, 4, 1)], p.stack.processes))[0] ?? null;
      p.figures.problems.push(...unexpected(p.figures.login!.result, {}).map((x) => `login: ${x}`));
    });
  }
}

function per1000(m: Measured): Record<string, number> {
  const n = m.result.total / 1000;
  return Object.fromEntries(
    [...Object.entries(m.cpu), ['load generator', m.loaderCpu] as const].map(([k, v]) => [k, v / n]),
  );
}

function report(all: StackFigures[]): string {
  const cores = availableParallelism();
  const out: string[] = [];
  out.push('');
  out.push(`API benchmark — ${new Date().toISOString()}`);
  out.push(`machine: ${cores} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}); node ${process.version}`);
  out.push(`load average (1/5/15 min) at the end: ${load()}`);
  out.push(
    `embedded stack as make start runs it (LOG_LEVEL info); ${customerCount} customers; ${runs} runs of ${seconds} s after ${warmup} s warm-up; medians`,
  );
  out.push(
    `mixed run shares: verify ${MIX.verify}%, quote ${MIX.quote}%, address list ${MIX.addresses}%, login ${MIX.login}% (each login from its own client address)`,
  );

  if (all.some((f) => f.overhead.length)) {
    out.push('');
    out.push('Gateway overhead: one call at a time, p50 (p99) in ms, through the gateway and straight to the service');
    for (const f of all) {
      for (const o of f.overhead) {
        const ratio = o.gateway / o.direct;
        out.push(
          `  ${f.label.padEnd(9)} ${o.call.padEnd(36)} gateway ${fmt(o.gateway, 2).padStart(6)} (${fmt(o.gatewayP99, 2)})   direct ${fmt(o.direct, 2).padStart(6)} (${fmt(o.directP99, 2)})   ratio ${fmt(ratio, 2)}× — ${ratio <= TARGETS.overheadRatio ? 'MET' : 'MISSED'} (≤ ${TARGETS.overheadRatio}×)`,
        );
        out.push(
          `  ${''.padEnd(9)} ${''.padEnd(36)} CPU ms per call: gateway process ${fmt(o.gatewayCpuMs, 3)}; whole stack ${fmt(o.stackCpuGateway, 3)} through the gateway, ${fmt(o.stackCpuDirect, 3)} direct (${fmt(o.stackCpuGateway / o.stackCpuDirect, 2)}×)`,
        );
      }
    }
  }

  const loadTable = (title: string, key: 'quotes' | 'mixed', target: { rate: number; p99: number }) => {
    if (!all.some((f) => f[key].length)) return;
    out.push('');
    out.push(title);
    for (const f of all) {
      const ms = f[key];
      if (!ms.length) continue;
      const rates = ms.map((m) => m.result.perSecond);
      const rate = median(rates);
      const kindNames = Object.keys(ms[0]!.result.kinds);
      const allP99 = median(ms.map((m) => Math.max(...Object.values(m.result.kinds).map((k) => k.p99))));
      // The p99 over every request of the run: the slowest kind's p99 weighted by nothing is an upper bound;
      // the overall one is read from each kind's share.
      const overallP99 = median(
        ms.map((m) => {
          const ks = Object.values(m.result.kinds).filter((k) => k.count > 0);
          const total = ks.reduce((s, k) => s + k.count, 0);
          // The smallest latency x such that at least 99% of requests were at or under it, approximated by the
          // kinds' own p99s weighted by count (a kind with a tiny share, logins, cannot move it alone).
          const sorted = ks.map((k) => ({ p99: k.p99, w: k.count / total })).sort((a, b) => a.p99 - b.p99);
          let acc = 0;
          for (const k of sorted) {
            acc += k.w;
            if (acc >= 0.99) return k.p99;
          }
          return sorted.at(-1)?.p99 ?? Number.NaN;
        }),
      );
      const p99 = key === 'quotes' ? allP99 : overallP99;
      const met = rate >= target.rate && p99 < target.p99;
      out.push(
        `  ${f.label.padEnd(9)} ${fmt(rate, 0).padStart(6)} req/s (runs: ${rates.map((r) => fmt(r, 0)).join(', ')}), p99 ${fmt(p99, 1)} ms — ${met ? 'MET' : 'MISSED'} (≥ ${target.rate}/s, p99 < ${target.p99} ms)`,
      );
      for (const name of kindNames) {
        const k = (m: Measured) => m.result.kinds[name]!;
        const statuses: Record<string, number> = {};
        let errors = 0;
        for (const m of ms) {
          for (const [s, n] of Object.entries(k(m).statuses)) statuses[s] = (statuses[s] ?? 0) + n;
          errors += k(m).errors;
        }
        out.push(
          `    ${name.padEnd(10)} ${fmt(median(ms.map((m) => k(m).count / m.result.seconds)), 0).padStart(6)}/s   p50 ${fmt(median(ms.map((m) => k(m).p50)), 2).padStart(7)} ms   p99 ${fmt(median(ms.map((m) => k(m).p99)), 2).padStart(7)} ms   statuses ${Object.entries(
            statuses,
          )
            .map(([s, n]) => `${s}×${n}`)
            .join(' ')}${errors ? `, ${errors} errors` : ''}`,
        );
      }
      const cpuRows = ms.map(per1000);
      const names = Object.keys(cpuRows[0]!);
      out.push(
        `    CPU s per 1,000 requests: ${names
          .map((n) => `${n} ${fmt(median(cpuRows.map((r) => r[n] ?? 0)), 3)}`)
          .join(', ')}`,
      );
      const stackCpu = median(
        cpuRows.map((r) => Object.entries(r).reduce((s, [n, v]) => (n === 'load generator' ? s : s + v), 0)),
      );
      out.push(
        `    stack total ${fmt(stackCpu, 3)} CPU s per 1,000 → at most ${fmt((cores * 1000) / stackCpu, 0)} req/s on ${cores} cores with nothing else running (${fmt(((cores - median(cpuRows.map((r) => r['load generator'] ?? 0)) * 3) * 1000) / stackCpu, 0)} beside this load generator)`,
      );
    }
  };
  loadTable(`Quotes through the gateway, concurrency ${concurrency}`, 'quotes', {
    rate: TARGETS.quotesPerSecond,
    p99: TARGETS.quotesP99Ms,
  });
  loadTable(`Mixed traffic through the gateway, concurrency ${concurrency}`, 'mixed', {
    rate: TARGETS.mixedPerSecond,
    p99: TARGETS.mixedP99Ms,
  });

  if (all.some((f) => f.login)) {
    out.push('');
    out.push('Logins alone (4 at a time, each from its own address): argon2id, 19 MiB, 2 passes');
    for (const f of all) {
      if (!f.login) continue;
      const k = f.login.result.kinds.login!;
      const cpu = per1000(f.login);
      out.push(
        `  ${f.label.padEnd(9)} ${fmt(f.login.result.perSecond, 1)} logins/s, p50 ${fmt(k.p50, 1)} ms, p99 ${fmt(k.p99, 1)} ms; auth ${fmt(cpu.auth ?? 0, 1)} CPU s per 1,000 logins, gateway ${fmt(cpu.gateway ?? 0, 2)}`,
      );
    }
  }
  const problems = all.flatMap((f) => f.problems.map((p) => `${f.label}: ${p}`));
  out.push('');
  out.push(
    problems.length ? `unexpected answers:\n  ${problems.join('\n  ')}` : 'unexpected answers: none (every call 200)',
  );
  return out.join('\n');
}

async function main() {
  await buildRunnables({ onlyStale: true, onStart: (todo) => log(describeBuild(todo)) });
  const stacks: Prepared[] = [];
  try {
    if (args.baseline) stacks.push(await prepare(resolve(args.baseline), 'baseline'));
    stacks.push(await prepare(THIS_ROOT, args.baseline ? 'this tree' : 'stack'));
    await measureAll(stacks);
  } finally {
    for (const p of stacks) await p.stack.stop();
    await Promise.all([...agents.values()].map((a) => a.close()));
  }
  process.stdout.write(`${report(stacks.map((p) => p.figures))}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    log(`benchmark failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
