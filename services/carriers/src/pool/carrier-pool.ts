import type { Carrier, CarrierCapability, LabelRequest, LabelResult } from '../port';

export interface CarrierPoolOptions {
  /** Purchases in flight at once, over every carrier; the rest wait their turn in arrival order. */
  concurrency: number;
}

/** A carrier whose purchases go through the pool; `inFlight` and `waiting` say how full it is. */
export interface CarrierPool extends Pick<Carrier, 'purchaseLabel'> {
  /** The carrier's, so a caller can still ask what it can give (its ZPL, say) before buying through the pool. */
  readonly capabilities?: readonly CarrierCapability[];
  readonly inFlight: number;
  readonly waiting: number;
}

interface Job {
  req: LabelRequest;
  resolve: (result: LabelResult) => void;
  reject: (err: unknown) => void;
}

/**
 * Bounds the purchases a process has in flight with its carriers, whoever asks for them: every caller's purchases
 * wait in one line and at most `concurrency` are at a carrier at once. A carrier's rate (`CARRIER_RATE_LIMIT`) is
 * kept by the carrier set, on the call that buys, where the carrier counts it (`CarrierSettings.rateLimits`). The
 * purchase itself is the carrier's, untouched: its idempotency key and its answer pass through as they are.
 */
export function createCarrierPool(
  carrier: Pick<Carrier, 'purchaseLabel'> & Partial<Pick<Carrier, 'capabilities'>>,
  opts: CarrierPoolOptions,
): CarrierPool {
  const { concurrency } = opts;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new Error(`carrier pool concurrency must be a whole number of 1 or more, got ${concurrency}`);
  }
  const line: Job[] = [];
  let inFlight = 0;

  function pump(): void {
    while (inFlight < concurrency && line.length > 0) {
      const job = line.shift() as Job;
      inFlight++;
      Promise.resolve()
        .then(() => carrier.purchaseLabel(job.req))
        .then(job.resolve, job.reject)
        .finally(() => {
          inFlight--;
          pump();
        });
    }
  }

  return {
    get capabilities() {
      return carrier.capabilities;
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return line.length;
    },
    purchaseLabel(req) {
      return new Promise<LabelResult>((resolve, reject) => {
        line.push({ req, resolve, reject });
        pump();
      });
    },
  };
}
