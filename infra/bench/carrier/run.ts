// Real-postage benchmark: N-label bulk orders bought from EasyPost's API through the
// embedded stack, against the loopback fake EasyPost (services/carriers/src/testing) in a
// process of its own (fake-process.ts),
// answering every call --latency ms late and 429 to buys above --limit a second,
// with the label worker's CARRIER_RATE_LIMIT set to that limit. Prints, per run, the
// time to the finished order (files included), the busiest second the fake saw,
// its 429s and the failed rows, against the floor of rows / limit seconds and
// against the carrier alone (the same purchases from this process, no services),
// measured in the same run.
//
//   node --import tsx infra/bench/carrier/run.ts [--runs 3] [--rows 1000] [--latency 300] [--limit 50] [--extra-workers 0]
//
// --extra-workers N runs N label-worker replicas beside the launcher's one: the limit
// is one for all of them (slots shared through the orders database), not one each.
//
// A missed target is a measurement, not an error: the exit code is non-zero only
// when the benchmark itself could not run.
import { fork } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import {
  createCarrierPool,
  createCarrierSet,
  createProcessMemory,
  easyPostSettings,
  type LabelRequest,
} from '@flatship/carriers';
import { createStackApi, logTails, registerFundedCustomer, startStack } from '../../src/testing/start-stack';
import { startExtraWorkers } from '../bulk/extra-workers';
import { connectSocket, runTimedOrder } from '../bulk/order';
import { amazonRows } from '../bulk/rows';
import { median } from '../stats';
import type { FakeProcessReply } from './fake-process';

/** The bar: 1.1 × the floor of rows / limit seconds. */
const TARGET_OVER_FLOOR = 1.1;
const RUN_TIMEOUT_MS = 180_000;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    rows: { type: 'string', default: '1000' },
    latency: { type: 'string', default: '300' },
    limit: { type: 'string', default: '50' },
    'extra-workers': { type: 'string', default: '0' },
  },
});
const whole = (name: string, text: string | undefined, min: number) => {
  const n = Number(text);
  if (!(Number.isInteger(n) && n >= min)) throw new Error(`--${name} must be a whole number ≥ ${min}, got ${text}`);
  return n;
};
const runs = whole('runs', args.runs, 1);
const rows = whole('rows', args.rows, 1);
const latencyMs = whole('latency', args.latency, 0);
const limit = whole('limit', args.limit, 1);
const extraWorkers = whole('extra-workers', args['extra-workers'], 0);

const log = (line: string) => process.stderr.write(`${line}\n`);
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Window {
  /** Buy requests that reached the fake, accepted or not. */
  buys: number;
  /** Buy requests for a shipment already asked to be bought (a 429 retried, or a row bought twice). */
  repeatBuys: number;
  /** The first shipment create's arrival, ms by the fake's clock. */
  firstCreateAt: number;
  /** The first and last buy's arrival, ms by the fake's clock. */
  firstBuyAt: number;
  lastBuyAt: number;
  /** The shortest time between a buy and the one `limit` buys later: below 1000 ms, the fake saw too many. */
  tightestSecond: number;
  /** The most buy requests that reached the fake within any one second. */
  busiestSecond: number;
  throttled: number;
}

/** The fake EasyPost, running in its own process (fake-process.ts). */
interface Fake {
  url: string;
  testKey: string;
  /** Its request count, the arrival times of the buys and the first create from request `from` on, and its 429s so far. */
  stats(from?: number): Promise<Extract<FakeProcessReply, { stats: unknown }>['stats']>;
  close(): Promise<void>;
}

async function startFake(): Promise<Fake> {
  const child = fork(
    new URL('./fake-process.ts', import.meta.url),
    ['--latency', String(latencyMs), '--limit', String(limit)],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const next = <K extends 'ready' | 'stats' | 'closed'>(key: K) =>
    new Promise<Extract<FakeProcessReply, Record<K, unknown>>[K]>((resolve, reject) => {
      const onMessage = (m: FakeProcessReply) => {
        if (!(key in m)) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve((m as Record<K, unknown>)[key] as Extract<FakeProcessReply, Record<K, unknown>>[K]);
      };
      const onExit = (code: number | null) => reject(new Error(`the fake EasyPost exited (${code}) before ${key}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await next('ready');
  return {
    ...ready,
    async stats(from = Number.MAX_SAFE_INTEGER) {
      const answer = next('stats');
      child.send({ stats: from });
      return answer;
    },
    async close() {
      const closed = next('closed');
      child.send({ close: true });
      await closed;
    },
  };
}

/** What the fake saw from a point of its request log on. */
async function windowOf(fake: Fake, fromIndex: number, throttledBefore: number): Promise<Window> {
  const seen = await fake.stats(fromIndex);
  const times = [...seen.buyArrivals].sort((a, b) => a - b);
  let busiest = 0;
  let lo = 0;
  for (let hi = 0; hi < times.length; hi++) {
    while ((times[hi] as number) - (times[lo] as number) >= 1000) lo++;
    busiest = Math.max(busiest, hi - lo + 1);
  }
  let tightest = Number.POSITIVE_INFINITY;
  for (let i = 0; i + limit < times.length; i++)
    tightest = Math.min(tightest, (times[i + limit] as number) - (times[i] as number));
  return {
    buys: times.length,
    repeatBuys: seen.buyShipments.length - new Set(seen.buyShipments).size,
    firstCreateAt: seen.firstCreateAt ?? Number.NaN,
    firstBuyAt: times[0] ?? Number.NaN,
    lastBuyAt: times.at(-1) ?? Number.NaN,
    tightestSecond: tightest,
    busiestSecond: busiest,
    throttled: seen.throttled - throttledBefore,
  };
}

/** The carrier alone: the same number of purchases from this process, through the same rate limit and pool. */
async function carrierAlone(fake: Fake, run: number): Promise<{ seconds: number; failed: number }> {
  const set = createCarrierSet('easypost', {
    easypost: easyPostSettings({ EASYPOST_API_KEY: fake.testKey, EASYPOST_API_BASE_URL: fake.url }),
    rateLimits: { default: 0, byCarrier: { easypost: limit } },
    memory: createProcessMemory(),
  });
  const pool = createCarrierPool(set, { concurrency: 512 });
  const items = amazonRows(rows, 100 + run);
  const started = performance.now();
  try {
    const results = await Promise.all(
      items.map((item, i) =>
        pool.purchaseLabel({
          idempotencyKey: `alone-${run}-${i}-${Date.now()}`,
          serviceUid: i % 3 === 0 ? 'usps_priority_mail' : 'usps_ground_advantage',
          from: {
            name: 'Harbor Goods',
            street1: '100 Congress Ave',
            city: 'Austin',
            state: 'TX',
            zip: '78701',
            country: 'US',
          },
          to: {
            name: String(item.receiver.receiver_name),
            street1: String(item.receiver.receiver_address1),
            city: String(item.receiver.receiver_city),
            state: String(item.receiver.receiver_state_province),
            zip: String(item.receiver.receiver_zip_postal),
            country: 'US',
          },
          parcel: { length: 10, width: 8, height: 4, weightLb: 2 },
        } satisfies LabelRequest),
      ),
    );
    return { seconds: (performance.now() - started) / 1000, failed: results.filter((r) => !r.ok).length };
  } finally {
    await set.close();
  }
}

interface RunResult {
  /** When the order was submitted, ms by the clock the fake uses. */
  startedAt: number;
  seconds: number;
  settledSeconds: number | null;
  failed: number;
  fake: Window;
  alone: { seconds: number; failed: number; fake: Window };
}

async function main() {
  const cores = availableParallelism();
  const loadBefore = load();
  const fake = await startFake();
  log(`Fake EasyPost at ${fake.url}: ${latencyMs} ms an answer, 429 above ${limit} buys a second`);
  log(`Starting the stack (load average ${loadBefore})…`);
  const carrierEnv = {
    CARRIERS: 'easypost',
    EASYPOST_API_KEY: fake.testKey,
    EASYPOST_API_BASE_URL: fake.url,
    CARRIER_RATE_LIMIT: `easypost=${limit}`,
  };
  const stack = await startStack({ env: { LOG_LEVEL: 'warn', BUILD_WEB: 'never', ...carrierEnv } });
  const results: RunResult[] = [];
  let extras: Awaited<ReturnType<typeof startExtraWorkers>> | null = null;
  try {
    extras = await startExtraWorkers(stack.dataDir, extraWorkers, carrierEnv);
    const api = createStackApi(stack.url);
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
    for (let run = 1; run <= runs; run++) {
      // The carrier alone first, while the stack idles, so the two never share the fake's second.
      let { requests: from, throttled } = await fake.stats();
      const aloneRun = await carrierAlone(fake, run);
      const alone = { ...aloneRun, fake: await windowOf(fake, from, throttled) };

      ({ requests: from, throttled } = await fake.stats());
      let startedAt = 0;
      const order = await runTimedOrder(api, socket, {
        onStarted: () => {
          startedAt = Date.now();
        },
        userId,
        token,
        orderData: amazonRows(rows, run),
        source: 'amazon',
        fileName: `amazon-orders-${run}.txt`,
        timeoutMs: RUN_TIMEOUT_MS,
      });
      const result: RunResult = {
        seconds: order.seconds,
        settledSeconds: order.settledSeconds,
        failed: order.last.failedCount,
        fake: await windowOf(fake, from, throttled),
        startedAt,
        alone,
      };
      results.push(result);
      log(
        `run ${run}/${runs}: order ${fmt(result.seconds, 2)} s (rows settled ${result.settledSeconds === null ? '?' : fmt(result.settledSeconds, 2)} s), ${result.failed} failed, buys ${result.fake.buys} (${result.fake.repeatBuys} repeated), busiest second ${result.fake.busiestSecond}, 429s ${result.fake.throttled}; carrier alone ${fmt(alone.seconds, 2)} s; load ${load()}`,
      );
    }
    socket.close();
  } catch (e) {
    log(await logTails(stack.dataDir, 20));
    throw e;
  } finally {
    await extras?.stop();
    await stack.stop();
    await fake.close();
  }

  const floor = rows / limit;
  const target = floor * TARGET_OVER_FLOOR;
  const med = median(results.map((r) => r.seconds));
  const medAlone = median(results.map((r) => r.alone.seconds));
  const busiest = Math.max(...results.map((r) => r.fake.busiestSecond));
  const throttled = results.reduce((n, r) => n + r.fake.throttled, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);

  const out: string[] = [];
  out.push('');
  out.push(`Real-postage benchmark (EasyPost through the stack) — ${new Date().toISOString()}`);
  out.push(
    `machine: ${cores} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${fmt(totalmem() / 2 ** 30)} GiB; node ${process.version}`,
  );
  out.push(`load average (1/5/15 min): ${loadBefore} before, ${load()} after`);
  out.push(
    `fake EasyPost: ${latencyMs} ms an answer (create, buy, label file: three a label), 429 above ${limit} buys in a second`,
  );
  out.push(
    `stack: embedded, ${1 + extraWorkers} label worker${extraWorkers > 0 ? 's' : ''}, CARRIER_RATE_LIMIT=easypost=${limit}; ${rows} rows an order, ${runs} runs`,
  );
  out.push('');
  out.push(
    `run   order s   settled s   first create s   first buy s   last buy s   failed   buys   repeated   busiest second   tightest ${limit} buys ms   429s   carrier alone s`,
  );
  results.forEach((r, i) => {
    const at = (ms: number) => fmt((ms - r.startedAt) / 1000, 2);
    const cells = [
      String(i + 1).padEnd(5),
      fmt(r.seconds, 2).padStart(7),
      (r.settledSeconds === null ? '?' : fmt(r.settledSeconds, 2)).padStart(9),
      at(r.fake.firstCreateAt).padStart(14),
      at(r.fake.firstBuyAt).padStart(11),
      at(r.fake.lastBuyAt).padStart(10),
      String(r.failed).padStart(6),
      String(r.fake.buys).padStart(4),
      String(r.fake.repeatBuys).padStart(8),
      String(r.fake.busiestSecond).padStart(14),
      String(Math.round(r.fake.tightestSecond)).padStart(`tightest ${limit} buys ms`.length),
      String(r.fake.throttled).padStart(4),
      fmt(r.alone.seconds, 2).padStart(15),
    ];
    out.push(cells.join('   '));
  });
  out.push(
    `median: order ${fmt(med, 2)} s; carrier alone ${fmt(medAlone, 2)} s; order / alone ${fmt(med / medAlone, 2)}`,
  );

  out.push('');
  out.push(
    `floor: ${rows} labels / ${limit} a second = ${fmt(floor, 1)} s; median order / floor = ${fmt(med / floor, 3)}`,
  );
  out.push(
    `target: the order in ≤ ${fmt(target, 1)} s (${TARGET_OVER_FLOOR} × floor) — ${med <= target ? 'MET' : 'MISSED'} (median ${fmt(med, 2)} s)`,
  );
  out.push(`target: 0 rows failed — ${failed === 0 ? 'MET' : 'MISSED'} (${failed})`);
  out.push(
    `target: the fake never sees more than ${limit} buys in a second — ${busiest <= limit ? 'MET' : 'MISSED'} (busiest ${busiest}; ${throttled} answered 429)`,
  );
  const aloneBusiest = Math.max(...results.map((r) => r.alone.fake.busiestSecond));
  out.push(
    `carrier alone: median ${fmt(medAlone, 2)} s, busiest second ${aloneBusiest}, ${results.reduce((n, r) => n + r.alone.failed, 0)} failed`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    log(`benchmark failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
