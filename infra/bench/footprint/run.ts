/**
 * The embedded stack's start time and idle memory, as `make start` runs it: the built launcher
 * (infra/dist/launcher.js) with a temporary DATA_DIR, random internal ports, a free PORT and
 * BUILD_WEB=never. Each run starts it twice: on a fresh data directory (PostgreSQL initialised,
 * every migration applied), then again on the same, now set-up directory (the issue's row:
 * dependencies and builds present). Start time runs from spawn to the "Flatship is running at"
 * line, and to the first successful GET through the gateway (GET /api/auth/client-config).
 * After the stack has been idle for --settle seconds, each process's memory is read from
 * /proc/<pid>/smaps_rollup (pids from DATA_DIR/run.json): RSS, PSS and anonymous memory, with
 * PostgreSQL as the sum over the postmaster and all its children.
 *
 *   node --import tsx infra/bench/footprint/run.ts [--runs 3] [--settle 10] [--baseline /work/main]
 *     [--env NAME=value]...
 *
 * --baseline runs another checkout's built launcher (same options) interleaved with this one's,
 * so both are measured under the same load. A measurement, not a test: exits 0 whenever it ran.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildRunnables, describeBuild } from '../../build/build.mjs';
import { freePort, sleep } from '../../src/net';
import {
  FOOTPRINT_LIMIT_MB,
  FOOTPRINT_TARGET_MB,
  type Mem,
  POSTGRES_TREE,
  stackMemory,
} from '../../src/testing/footprint';
import { cpuSeconds } from '../bulk/rss';
import { median } from '../stats';

const TARGET_MB = 600;
const TARGET_START_S = 5;
const ROOT = resolve(import.meta.dirname, '../../..');
const READY_LINE = /Flatship is running at (\S+)/;

function option(name: string, fallback: string | undefined): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}
const runs = Number(option('runs', '3'));
const settleMs = Number(option('settle', '10')) * 1000;
const baseline = option('baseline', undefined);
const extraEnv: Record<string, string> = {};
process.argv.forEach((arg, i) => {
  if (arg !== '--env') return;
  const [k, ...v] = (process.argv[i + 1] ?? '').split('=');
  if (k) extraEnv[k] = v.join('=');
});

interface Tree {
  label: string;
  root: string;
}
const trees: Tree[] = [{ label: baseline ? 'this tree' : 'stack', root: ROOT }];
if (baseline) {
  const root = resolve(baseline);
  if (!existsSync(join(root, 'infra/dist/launcher.js'))) {
    console.error(`${root}/infra/dist/launcher.js is missing: build that tree first (make build-stale there)`);
    process.exit(1);
  }
  trees.push({ label: 'baseline', root });
}

// ---------- /proc readers ----------

const POSTGRES = POSTGRES_TREE;

/** Memory (kB) of every process of the stack, and the CPU seconds all of them have used. */
async function stackMemoryAndCpu(
  dataDir: string,
): Promise<{ mem: Record<string, Mem>; backends: number; cpu: number }> {
  const { mem, pids, backends } = await stackMemory(dataDir);
  let cpu = 0;
  for (const pid of [...Object.values(pids.node), ...pids.postgres]) cpu += cpuSeconds(pid, true);
  return { mem, backends, cpu };
}

// ---------- one start ----------

interface StartResult {
  readyS: number;
  firstGetS: number;
  /** CPU seconds every process of the stack had used when it was ready. */
  cpuAtReady: number;
  mem: Record<string, Mem>;
  backends: number;
}

async function stopLauncher(child: ChildProcess, exited: Promise<unknown>) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const done = await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)]);
  if (!done) {
    child.kill('SIGKILL');
    await exited;
  }
}

async function startOnce(tree: Tree, dataDir: string): Promise<StartResult> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [join(tree.root, 'infra/dist/launcher.js')], {
    cwd: tree.root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      INTERNAL_PORTS: 'random',
      BUILD_WEB: 'never',
      ADMIN_PASSWORD: 'Bench-footprint-1',
      LOG_LEVEL: 'info',
      ...extraEnv,
    },
    // The ipc channel makes the launcher stop its stack if this process goes away.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  let output = '';
  let readyS: number | undefined;
  const ready = new Promise<void>((resolveReady, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString('utf8');
      if (readyS === undefined && READY_LINE.test(output)) {
        readyS = (performance.now() - started) / 1000;
        resolveReady();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => reject(new Error(`the launcher exited before it was ready:\n${output}`)));
  });
  let cpuAtReady = 0;
  // The first answer through the gateway, polled from the moment of spawn.
  const firstGet = (async () => {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/auth/client-config`, {
          signal: AbortSignal.timeout(1000),
        });
        if (res.ok) return (performance.now() - started) / 1000;
      } catch {}
      if (child.exitCode !== null) throw new Error('the launcher exited');
      await sleep(25);
    }
  })();
  try {
    await Promise.race([ready, sleep(120_000).then(() => Promise.reject(new Error(`not ready in 120 s:\n${output}`)))]);
    cpuAtReady = (await stackMemoryAndCpu(dataDir)).cpu;
    const firstGetS = await firstGet;
    await sleep(settleMs);
    const { mem, backends } = await stackMemoryAndCpu(dataDir);
    return { readyS: readyS!, firstGetS, cpuAtReady, mem, backends };
  } finally {
    await stopLauncher(child, exited);
  }
}

// ---------- figures ----------

const mb = (kb: number) => (kb / 1024).toFixed(0);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The issue's measure: every Node process's RSS, PostgreSQL as PSS (its backends share their buffers). */
const issueTotal = (mem: Record<string, Mem>) =>
  Object.entries(mem).reduce((sum, [name, m]) => sum + (name === POSTGRES ? m.pss : m.rss), 0);
const pssTotal = (mem: Record<string, Mem>) => Object.values(mem).reduce((sum, m) => sum + m.pss, 0);

function medianMem(results: StartResult[]): Record<string, Mem> {
  const names = [...new Set(results.flatMap((r) => Object.keys(r.mem)))];
  return Object.fromEntries(
    names.map((n) => {
      const of = (k: keyof Mem) => median(results.map((r) => r.mem[n]?.[k] ?? 0));
      return [n, { rss: of('rss'), pss: of('pss'), anon: of('anon') }];
    }),
  );
}

// ---------- run ----------

await buildRunnables({ onlyStale: true, onStart: (todo) => console.log(describeBuild(todo)) });
console.log(
  `footprint: ${runs} run(s) of fresh + set-up starts, ${settleMs / 1000} s idle before reading memory; ${trees.map((t) => `${t.label} = ${t.root}`).join(', ')}`,
);
console.log(`load average before: ${load()}`);

const results = new Map<Tree, { fresh: StartResult[]; setUp: StartResult[] }>(
  trees.map((t) => [t, { fresh: [], setUp: [] }]),
);
for (let i = 1; i <= runs; i++) {
  // Interleaved, and the order alternates, so neither tree always runs on a warmer machine.
  const order = i % 2 === 1 ? trees : [...trees].reverse();
  for (const tree of order) {
    const dataDir = await mkdtemp(join(tmpdir(), 'flatship-bench-footprint-'));
    try {
      const fresh = await startOnce(tree, dataDir);
      const setUp = await startOnce(tree, dataDir);
      results.get(tree)!.fresh.push(fresh);
      results.get(tree)!.setUp.push(setUp);
      const line = (what: string, r: StartResult) =>
        `${what} ready ${r.readyS.toFixed(2)} s, first GET ${r.firstGetS.toFixed(2)} s, CPU ${r.cpuAtReady.toFixed(1)} s, idle ${mb(issueTotal(r.mem))} MB (all PSS ${mb(pssTotal(r.mem))} MB)`;
      console.log(`run ${i} ${tree.label}: ${line('fresh', fresh)}; ${line('set-up', setUp)}; load ${load()}`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
}

console.log(`\nload average after: ${load()}`);
for (const tree of trees) {
  const { fresh, setUp } = results.get(tree)!;
  const all = [...fresh, ...setUp];
  const mem = medianMem(setUp);
  console.log(`\n== ${tree.label} (${tree.root}) ==`);
  console.log(
    `start, set-up data dir (the issue's row, target ≤ ${TARGET_START_S} s): ready ${median(setUp.map((r) => r.readyS)).toFixed(2)} s, first GET through the gateway ${median(setUp.map((r) => r.firstGetS)).toFixed(2)} s, CPU seconds of the whole stack until ready ${median(setUp.map((r) => r.cpuAtReady)).toFixed(1)}`,
  );
  console.log(
    `start, fresh data dir (initdb + migrations): ready ${median(fresh.map((r) => r.readyS)).toFixed(2)} s, first GET ${median(fresh.map((r) => r.firstGetS)).toFixed(2)} s, CPU ${median(fresh.map((r) => r.cpuAtReady)).toFixed(1)} s`,
  );
  console.log(`idle memory after ${settleMs / 1000} s, median of the set-up starts (MB):`);
  console.log(`  ${'process'.padEnd(18)} ${'RSS'.padStart(6)} ${'PSS'.padStart(6)} ${'anon'.padStart(6)}`);
  for (const [name, m] of Object.entries(mem)) {
    console.log(`  ${name.padEnd(18)} ${mb(m.rss).padStart(6)} ${mb(m.pss).padStart(6)} ${mb(m.anon).padStart(6)}`);
  }
  console.log(`  PostgreSQL backends (children of the postmaster): ${median(setUp.map((r) => r.backends))}`);
  console.log(
    `  total, Node RSS + PostgreSQL PSS (the issue's measure, target ≤ ${TARGET_MB} MB): ${mb(median(setUp.map((r) => issueTotal(r.mem))))} MB; all PSS (target ≤ ${FOOTPRINT_TARGET_MB} MB, make test fails above ${FOOTPRINT_LIMIT_MB}): ${mb(median(setUp.map((r) => pssTotal(r.mem))))} MB; anonymous: ${mb(median(setUp.map((r) => Object.values(r.mem).reduce((s, m) => s + m.anon, 0))))} MB`,
  );
  console.log(
    `  after a fresh start: ${mb(median(fresh.map((r) => issueTotal(r.mem))))} MB (all PSS ${mb(median(fresh.map((r) => pssTotal(r.mem))))} MB); all ${all.length} starts: ${mb(median(all.map((r) => issueTotal(r.mem))))} MB`,
  );
}
