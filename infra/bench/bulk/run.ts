// Bulk pipeline benchmark: submits N-row Amazon orders through the public API of
// the embedded stack and prints how long the labels and files take, against the
// ceiling of the label renderer alone on one core, measured in the same run.
//
//   node --import tsx infra/bench/bulk/run.ts [--runs 3] [--rows 1000]
//   node --import tsx infra/bench/bulk/run.ts --topology distributed [--workers 2]
//
// A missed target is a measurement, not an error: the exit code is non-zero only
// when the benchmark itself could not run.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { type BusKind, startDistributedStack } from '../../src/testing/distributed';
import { createStackApi, logTails, registerFundedCustomer, startStack } from '../../src/testing/start-stack';
import { median } from '../stats';
import { startExtraWorkers } from './extra-workers';
import { connectSocket, runTimedOrder } from './order';
import { amazonRows } from './rows';
import { cpuTotals, lifetimePeaksMb, readStackProcesses, type StackProcesses, sampleRss } from './rss';

const HERE = dirname(fileURLToPath(import.meta.url));
const TARGET_SECONDS = 3;
const TARGET_RATIO = 0.8;
/** With a carrier that answers in 700 ms, 1,000 labels on one worker. */
const LATENCY_TARGET = { latencyMs: 700, secondsPer1000: 4 };
const RUN_TIMEOUT_MS = 180_000;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    rows: { type: 'string', default: '1000' },
    'ceiling-seconds': { type: 'string', default: '3' },
    // Service settings to try, e.g. --env LABEL_WORKER_CONCURRENCY=8 (the launcher passes them through).
    env: { type: 'string', multiple: true, default: [] },
    // Label-worker replicas to add beside the launcher's one, to measure scaling out.
    'extra-workers': { type: 'string', default: '0' },
    // 'embedded' (the launcher, as make start) or 'distributed' (every service its own process on Kafka,
    // one database role each, two gateways behind a round-robin front: infra/src/testing/distributed.ts).
    topology: { type: 'string', default: 'embedded' },
    // Label-worker replicas of the distributed topology.
    workers: { type: 'string', default: '1' },
    // The distributed topology's bus: kafka, or postgres to compare (every service then shares the privileged user).
    bus: { type: 'string', default: 'kafka' },
  },
});
const topology = args.topology;
if (topology !== 'embedded' && topology !== 'distributed') {
  throw new Error(`--topology must be embedded or distributed, got ${topology}`);
}
const bus: BusKind = (() => {
  if (args.bus === 'kafka' || args.bus === 'postgres') return args.bus;
  throw new Error(`--bus must be kafka or postgres, got ${args.bus}`);
})();
const workers = Number(args.workers);
if (!(Number.isInteger(workers) && workers >= 1))
  throw new Error(`--workers must be a whole number ≥ 1, got ${args.workers}`);
if (topology === 'distributed' && args['extra-workers'] !== '0') {
  throw new Error('--extra-workers is for the embedded topology; the distributed one takes --workers N');
}
const serviceEnv = Object.fromEntries(
  (args.env ?? []).map((pair) => {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`--env takes NAME=value, got ${pair}`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }),
);
const runs = Number(args.runs);
const rows = Number(args.rows);
const ceilingSeconds = Number(args['ceiling-seconds']);
const extraWorkers = Number(args['extra-workers']);
if (!(Number.isInteger(extraWorkers) && extraWorkers >= 0)) {
  throw new Error(`--extra-workers must be a whole number ≥ 0, got ${args['extra-workers']}`);
}
if (!(Number.isInteger(runs) && runs >= 1)) throw new Error(`--runs must be a whole number ≥ 1, got ${args.runs}`);
if (!(Number.isInteger(rows) && rows >= 1)) throw new Error(`--rows must be a whole number ≥ 1, got ${args.rows}`);

const log = (line: string) => process.stderr.write(`${line}\n`);
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface RunResult {
  seconds: number;
  labelsPerSecond: number;
  /** Submit → 202 (validation, pricing, charge, rows and events written). */
  acceptedSeconds: number;
  /** Submit → the first progress event showing every row settled. */
  settledSeconds: number | null;
  progressEvents: number;
  processed: number;
  failed: number;
  rssMb: Record<string, number>;
  /** CPU seconds each process spent from submit to the final event. */
  cpu: Record<string, number>;
}

async function renderCeiling(): Promise<{ perSecond: number; pinned: boolean }> {
  const script = join(HERE, 'renderer-ceiling.ts');
  const node = [process.execPath, '--import', 'tsx', script, String(ceilingSeconds)];
  const pinned = existsSync('/usr/bin/taskset') || existsSync('/bin/taskset');
  // Pinned to one core, so the figure is what one core can do, garbage collector threads included.
  const [cmd, ...rest] = pinned ? ['taskset', '-c', '0', ...node] : node;
  const { stdout } = await promisify(execFile)(cmd!, rest, { cwd: join(HERE, '..', '..', '..') });
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return { perSecond: (JSON.parse(last) as { perSecond: number }).perSecond, pinned };
}

/** What a run needs of a stack, whichever topology it has. */
interface BenchStack {
  url: string;
  adminEmail: string;
  adminPassword: string;
  processes(): Promise<StackProcesses>;
  logTails(): Promise<string>;
  stop(): Promise<void>;
}

async function startEmbedded(): Promise<BenchStack> {
  const stack = await startStack({ env: { LOG_LEVEL: 'warn', BUILD_WEB: 'never', ...serviceEnv } });
  let extras: Awaited<ReturnType<typeof startExtraWorkers>>;
  try {
    extras = await startExtraWorkers(stack.dataDir, extraWorkers, serviceEnv);
  } catch (e) {
    await stack.stop();
    throw e;
  }
  return {
    url: stack.url,
    adminEmail: stack.adminEmail,
    adminPassword: stack.adminPassword,
    async processes() {
      const procs = await readStackProcesses(stack.dataDir);
      Object.assign(procs.nodes, extras.pids);
      return procs;
    },
    logTails: () => logTails(stack.dataDir, 20),
    async stop() {
      await extras.stop();
      await stack.stop();
    },
  };
}

async function startDistributed(): Promise<BenchStack> {
  const stack = await startDistributedStack({ workers, gateways: 2, bus, logLevel: 'warn', env: serviceEnv });
  return {
    url: stack.url,
    adminEmail: stack.adminEmail,
    adminPassword: stack.adminPassword,
    async processes() {
      const nodes: Record<string, number> = {};
      for (const [name, p] of stack.processes) if (p.child?.pid) nodes[name] = p.child.pid;
      return { nodes, postgres: stack.postgresPid };
    },
    logTails: () => stack.logTails(20),
    stop: () => stack.stop(),
  };
}

async function main() {
  const cores = availableParallelism();
  const loadBefore = load();
  // Measured before the stack starts and again after it stops, keeping the better figure: on a
  // shared machine one measurement may land on a core someone else is busy with.
  log('Measuring the renderer ceiling…');
  const ceilingBefore = await renderCeiling();
  log(`Starting the stack (load average ${loadBefore})…`);
  const stack = topology === 'distributed' ? await startDistributed() : await startEmbedded();
  const results: RunResult[] = [];
  let lifetime: Record<string, number> = {};
  try {
    const api = createStackApi(stack.url);
    // Every row costs at most $8.95 (Priority Mail); fund all runs at once.
    const { id: userId, token } = await registerFundedCustomer(
      api,
      { email: stack.adminEmail, password: stack.adminPassword },
      {
        email: `bench-${Date.now()}@example.com`,
        password: 'bench-parcels-42',
        balance: Math.ceil(rows * runs * 9 + 100),
      },
    );
    const socket = await connectSocket(stack.url, token);
    const procs = await stack.processes();

    for (let run = 1; run <= runs; run++) {
      let rss: ReturnType<typeof sampleRss> | null = null;
      let cpuBefore: Record<string, number> = {};
      const order = await runTimedOrder(api, socket, {
        userId,
        token,
        orderData: amazonRows(rows, run),
        source: 'amazon',
        fileName: `amazon-orders-${run}.txt`,
        timeoutMs: RUN_TIMEOUT_MS,
        onStarted: () => {
          rss = sampleRss(procs);
          cpuBefore = cpuTotals(procs);
        },
      });
      const rssMb = (rss as ReturnType<typeof sampleRss> | null)?.stop() ?? {};
      const cpuAfter = cpuTotals(procs);
      const cpu = Object.fromEntries(Object.keys(cpuAfter).map((n) => [n, cpuAfter[n]! - (cpuBefore[n] ?? 0)]));
      const { last, seconds, acceptedSeconds, settledSeconds, progressEvents: events, orderId } = order;
      if (last.status !== 'completed') {
        throw new Error(`order ${orderId} ended ${last.status} with ${last.failedCount} failed rows; expected none`);
      }
      const result: RunResult = {
        seconds,
        labelsPerSecond: last.processedCount / seconds,
        acceptedSeconds,
        settledSeconds,
        progressEvents: events,
        processed: last.processedCount,
        failed: last.failedCount,
        rssMb,
        cpu,
      };
      results.push(result);
      log(
        `run ${run}/${runs}: ${fmt(seconds, 2)} s, ${fmt(result.labelsPerSecond)} labels/s (accepted ${fmt(result.acceptedSeconds, 2)} s, all rows settled ${result.settledSeconds === null ? '?' : fmt(result.settledSeconds, 2)} s, ${events} progress events; load ${load()})`,
      );
    }
    lifetime = lifetimePeaksMb(procs);
    socket.close();
  } catch (e) {
    log(await stack.logTails());
    throw e;
  } finally {
    await stack.stop();
  }

  log('Measuring the renderer ceiling again…');
  const ceilingAfter = await renderCeiling();
  const ceiling = ceilingAfter.perSecond > ceilingBefore.perSecond ? ceilingAfter : ceilingBefore;
  const loadAfter = load();

  const medSeconds = median(results.map((r) => r.seconds));
  const medRate = median(results.map((r) => r.labelsPerSecond));
  const capacity = ceiling.perSecond * cores;
  const ratio = medRate / capacity;
  const rssNames = Object.keys(results[0]!.rssMb);
  const peakRss = Object.fromEntries(rssNames.map((n) => [n, Math.max(...results.map((r) => r.rssMb[n] ?? 0))]));

  const out: string[] = [];
  out.push('');
  out.push(`Bulk pipeline benchmark — ${new Date().toISOString()}`);
  out.push(
    `machine: ${cores} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${fmt(totalmem() / 2 ** 30)} GiB; node ${process.version}`,
  );
  out.push(`load average (1/5/15 min): ${loadBefore} before, ${loadAfter} after`);
  out.push(`rows per order: ${rows}, runs: ${runs}`);
  const settings = Object.entries(serviceEnv).map(([k, v]) => `${k}=${v}`);
  out.push(
    `service settings: ${settings.length ? settings.join(' ') : 'defaults'}; label-worker processes: ${topology === 'distributed' ? workers : 1 + extraWorkers}`,
  );
  out.push(
    topology === 'distributed'
      ? `topology: distributed (${bus === 'kafka' ? "Kafka bus on librdkafka's mock cluster, one database role per service" : 'PostgreSQL bus'}, ${workers} label-worker replica${workers > 1 ? 's' : ''}, 2 gateways behind a round-robin front)`
      : 'topology: embedded (the launcher, PostgreSQL bus)',
  );
  const latencyMs = Number(serviceEnv.CARRIER_LATENCY_MS ?? 0);
  if (latencyMs > 0) {
    out.push(
      `carrier latency: ${latencyMs} ms per purchase; in flight per worker: ${serviceEnv.CARRIER_CONCURRENCY ?? '512 (default)'}; rate limit per carrier: ${serviceEnv.CARRIER_RATE_LIMIT ?? 'none (default)'}`,
    );
  }
  out.push('');
  out.push('run   seconds   labels/s   accepted s   settled s   progress events');
  results.forEach((r, i) => {
    out.push(
      `${String(i + 1).padEnd(5)} ${fmt(r.seconds, 2).padStart(7)}   ${fmt(r.labelsPerSecond).padStart(8)}   ${fmt(r.acceptedSeconds, 2).padStart(10)}   ${(r.settledSeconds === null ? '?' : fmt(r.settledSeconds, 2)).padStart(9)}   ${String(r.progressEvents).padStart(15)}`,
    );
  });
  out.push(`median ${fmt(medSeconds, 2).padStart(6)}   ${fmt(medRate).padStart(8)}`);
  out.push('');
  out.push(
    `renderer ceiling: ${fmt(ceiling.perSecond)} labels/s on one core${ceiling.pinned ? ' (pinned with taskset)' : ' (one process, not pinned)'}; best of ${fmt(ceilingBefore.perSecond)} before and ${fmt(ceilingAfter.perSecond)} after the runs`,
  );
  out.push(`ceiling × ${cores} cores: ${fmt(capacity)} labels/s`);
  out.push(`pipeline / (ceiling × cores): ${fmt(ratio, 2)}`);
  out.push('');
  out.push(
    `target: ${rows} labels with all three files in at most ${TARGET_SECONDS} s — ${medSeconds <= TARGET_SECONDS ? 'MET' : 'MISSED'} (median ${fmt(medSeconds, 2)} s)`,
  );
  out.push(
    `target: ratio ≥ ${TARGET_RATIO} — ${ratio >= TARGET_RATIO ? 'MET' : 'MISSED'} (${fmt(ratio, 2)}; needs ${fmt(capacity * TARGET_RATIO)} labels/s)`,
  );
  if (latencyMs > 0) {
    const per1000 = (medSeconds * 1000) / rows;
    const verdict =
      latencyMs === LATENCY_TARGET.latencyMs
        ? ` — ${per1000 <= LATENCY_TARGET.secondsPer1000 ? 'MET' : 'MISSED'} against ≤ ${LATENCY_TARGET.secondsPer1000} s per 1000 labels at ${LATENCY_TARGET.latencyMs} ms on one worker`
        : '';
    out.push(
      `carrier latency ${latencyMs} ms: median ${fmt(medSeconds, 2)} s for ${rows} labels, ${fmt(medRate)} labels/s, ${fmt(per1000, 2)} s per 1000 labels${verdict}`,
    );
  }
  out.push('');
  // CPU per process shows where the cores went: the renderer's share is the label worker's.
  out.push(
    'process                   peak RSS in runs (MB)   lifetime peak (MB)   CPU s per run (median)   share of all cores',
  );
  for (const name of rssNames) {
    const hwm = lifetime[name];
    const cpu = median(results.map((r) => r.cpu[name] ?? 0));
    out.push(
      `${name.padEnd(25)} ${fmt(peakRss[name]!).padStart(21)}   ${(hwm === undefined ? '–' : fmt(hwm)).padStart(18)}   ${fmt(cpu, 2).padStart(22)}   ${`${fmt((100 * cpu) / (medSeconds * cores), 0)}%`.padStart(17)}`,
    );
  }
  out.push('(RSS of node processes is VmRSS polled every 100 ms and VmHWM; postgres is the PSS sum of its processes)');
  process.stdout.write(`${out.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    log(`benchmark failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
