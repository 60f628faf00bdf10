import type { Carrier, LabelRequest, LabelResult } from '../port';
import { courierOfService } from '../registry';
import { createRateWindow, type RateWindow } from './rate-window';

export interface CarrierPoolOptions {
  /** Purchases in flight at once, over every carrier; the rest wait their turn in arrival order. */
  concurrency: number;
  /** Purchases started with each carrier in any one second (a sliding window); 0 (the default) is no limit. */
  ratePerSecond?: number;
  /** The carrier a request goes to, whose rate it counts against (default: the courier selling its service). */
  carrierOf?: (req: LabelRequest) => string;
  /** Milliseconds clock for the rate limit; `Date.now` by default. */
  now?: () => number;
}

/** A carrier whose purchases go through the pool; `inFlight` and `waiting` say how full it is. */
export interface CarrierPool extends Pick<Carrier, 'purchaseLabel'> {
  readonly inFlight: number;
  readonly waiting: number;
}

interface Job {
  seq: number;
  req: LabelRequest;
  resolve: (result: LabelResult) => void;
  reject: (err: unknown) => void;
}

const defaultCarrierOf = (req: LabelRequest) => courierOfService(req.serviceUid) ?? req.serviceUid;

/**
 * Bounds the purchases a process has in flight with its carriers, whoever asks
 * for them: every caller's purchases wait in one line and at most
 * `concurrency` are at a carrier at once. With a rate, each carrier gets at most
 * that many new purchases in any one second (a sliding window: never a saved-up
 * burst on top); a purchase waiting for its carrier's rate lets the next one, for
 * another carrier, go first, so one throttled carrier never holds up the
 * others. The purchase itself is the carrier's, untouched: its idempotency key
 * and its answer pass through as they are.
 */
export function createCarrierPool(carrier: Pick<Carrier, 'purchaseLabel'>, opts: CarrierPoolOptions): CarrierPool {
  const { concurrency } = opts;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new Error(`carrier pool concurrency must be a whole number of 1 or more, got ${concurrency}`);
  }
  const rate = opts.ratePerSecond ?? 0;
  if (!(Number.isFinite(rate) && rate >= 0)) throw new Error(`carrier rate limit must be 0 or more, got ${rate}`);
  const carrierOf = opts.carrierOf ?? defaultCarrierOf;
  const now = opts.now ?? Date.now;

  const queues = new Map<string, Job[]>();
  const buckets = new Map<string, RateWindow>();
  let inFlight = 0;
  let waiting = 0;
  let nextSeq = 0;
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Number.POSITIVE_INFINITY;

  const bucketOf = (name: string) => {
    let bucket = buckets.get(name);
    if (!bucket) {
      bucket = createRateWindow({ ratePerSecond: rate, now });
      buckets.set(name, bucket);
    }
    return bucket;
  };

  const start = (job: Job) => {
    inFlight++;
    waiting--;
    Promise.resolve()
      .then(() => carrier.purchaseLabel(job.req))
      .then(job.resolve, job.reject)
      .finally(() => {
        inFlight--;
        pump();
      });
  };

  /** The next job allowed to start: the oldest whose carrier has a token; null when none may start yet. */
  const nextJob = (): Job | null => {
    const heads = [...queues.entries()]
      .filter(([, q]) => q.length > 0)
      .sort(([, a], [, b]) => (a[0] as Job).seq - (b[0] as Job).seq);
    for (const [name, q] of heads) {
      if (rate === 0 || bucketOf(name).tryTake()) return q.shift() as Job;
    }
    return null;
  };

  const wakeLater = () => {
    let wait = Number.POSITIVE_INFINITY;
    for (const [name, q] of queues) if (q.length > 0) wait = Math.min(wait, bucketOf(name).msUntilToken());
    if (!Number.isFinite(wait)) return;
    const at = now() + Math.max(1, wait);
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = null;
        timerAt = Number.POSITIVE_INFINITY;
        pump();
      },
      Math.max(1, wait),
    );
  };

  function pump(): void {
    while (inFlight < concurrency && waiting > 0) {
      const job = nextJob();
      if (!job) {
        wakeLater();
        return;
      }
      start(job);
    }
  }

  return {
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiting;
    },
    purchaseLabel(req) {
      return new Promise<LabelResult>((resolve, reject) => {
        const name = carrierOf(req);
        let q = queues.get(name);
        if (!q) {
          q = [];
          queues.set(name, q);
        }
        q.push({ seq: nextSeq++, req, resolve, reject });
        waiting++;
        pump();
      });
    },
  };
}
