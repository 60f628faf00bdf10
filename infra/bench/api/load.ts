// The load generator of the API benchmark, run in a process of its own so its
// CPU is not the stack's and the stack's is not its own. Reads phases (JSON) on
// stdin, runs them one after the other, and prints one JSON line per event:
//   {"event":"measuring","phase":i}   warm-up over, the measured window starts
//   {"event":"result","phase":i,...}  the window is over: counts and latencies per kind
//
// Each phase is a closed loop: `connections` workers, each on its own kept-alive
// connection, send the next request as soon as the previous answer is read. The
// kind of each request follows a fixed weighted schedule, so a mixed phase sends
// its kinds in the same shares every run. A kind may name local addresses
// (127.x.y.z): its requests then leave from those in turn, as from different
// clients, each on its own connection (logins are rate-limited per address).
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadKind {
  name: string;
  weight: number;
  /** Taken in turn. */
  requests: LoadRequest[];
  /** Source addresses taken in turn, one connection each; absent: the worker's own connection. */
  localAddresses?: string[];
}

export interface LoadPhase {
  origin: string;
  connections: number;
  warmupMs: number;
  durationMs: number;
  kinds: LoadKind[];
}

export interface KindResult {
  count: number;
  statuses: Record<string, number>;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
}

export interface PhaseResult {
  seconds: number;
  total: number;
  perSecond: number;
  kinds: Record<string, KindResult>;
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** 1,000 slots holding each kind in proportion to its weight, interleaved evenly. */
function schedule(kinds: LoadKind[]): number[] {
  const total = kinds.reduce((s, k) => s + k.weight, 0);
  const slots: { at: number; kind: number }[] = [];
  kinds.forEach((k, kind) => {
    const n = Math.max(1, Math.round((1000 * k.weight) / total));
    for (let i = 0; i < n; i++) slots.push({ at: (i + 0.5) / n, kind });
  });
  return slots.sort((a, b) => a.at - b.at).map((s) => s.kind);
}

async function runPhase(phase: LoadPhase, index: number): Promise<PhaseResult> {
  const order = schedule(phase.kinds);
  const clientOpts = { pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 };
  const own = Array.from({ length: phase.connections }, () => new Client(phase.origin, clientOpts));
  const byAddress = new Map<string, Client>();
  const clientFor = (worker: number, kind: LoadKind, turn: number) => {
    if (!kind.localAddresses?.length) return own[worker]!;
    const address = kind.localAddresses[turn % kind.localAddresses.length]!;
    let client = byAddress.get(address);
    if (!client) {
      client = new Client(phase.origin, { ...clientOpts, localAddress: address });
      byAddress.set(address, client);
    }
    return client;
  };
  const latencies = phase.kinds.map(() => [] as number[]);
  const statuses = phase.kinds.map(() => ({}) as Record<string, number>);
  const errors = phase.kinds.map(() => 0);
  const turns = phase.kinds.map(() => 0);
  let next = 0;
  let measuring = false;
  let stopped = false;

  const worker = async (w: number) => {
    while (!stopped) {
      const k = order[next++ % order.length]!;
      const kind = phase.kinds[k]!;
      const turn = turns[k]!++;
      const req = kind.requests[turn % kind.requests.length]!;
      const counted = measuring;
      const start = performance.now();
      try {
        const res = await clientFor(w, kind, turn).request({
          method: req.method,
          path: req.path,
          headers: req.headers,
          body: req.body,
        });
        await res.body.dump({ limit: Number.POSITIVE_INFINITY });
        if (counted && measuring) {
          latencies[k]!.push(performance.now() - start);
          const s = String(res.statusCode);
          statuses[k]![s] = (statuses[k]![s] ?? 0) + 1;
        }
      } catch {
        if (counted && measuring) errors[k]!++;
      }
    }
  };

  const workers = own.map((_, w) => worker(w));
  await new Promise((r) => setTimeout(r, phase.warmupMs));
  process.stdout.write(`${JSON.stringify({ event: 'measuring', phase: index })}\n`);
  measuring = true;
  const start = performance.now();
  await new Promise((r) => setTimeout(r, phase.durationMs));
  measuring = false;
  const seconds = (performance.now() - start) / 1000;
  stopped = true;
  await Promise.all(workers);
  await Promise.all([...own, ...byAddress.values()].map((c) => c.close()));

  const kinds: Record<string, KindResult> = {};
  let total = 0;
  phase.kinds.forEach((kind, k) => {
    const sorted = Float64Array.from(latencies[k]!).sort();
    total += sorted.length + errors[k]!;
    kinds[kind.name] = {
      count: sorted.length,
      statuses: statuses[k]!,
      errors: errors[k]!,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      mean: sorted.reduce((s, x) => s + x, 0) / (sorted.length || 1),
    };
  });
  return { seconds, total, perSecond: total / seconds, kinds };
}

async function main() {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const phases = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LoadPhase[];
  for (const [i, phase] of phases.entries()) {
    const result = await runPhase(phase, i);
    process.stdout.write(`${JSON.stringify({ event: 'result', phase: i, ...result })}\n`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`load generator failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
