/**
 * A sliding window of starts: at most `ratePerSecond` in any one second, counted from the starts themselves, as a
 * carrier counts the calls it allows (EasyPost's and USPS's limits are calls per second). Unlike a token bucket, which
 * lets a saved-up second go at once and then keeps refilling, it never allows more than the rate in any window, so a
 * carrier answering 429 above its limit never sees one. A rate below 1 allows one start per 1/rate seconds; a
 * fractional rate above 1 is rounded down. Taking is synchronous, so a scheduler can ask several windows in turn;
 * `msUntilToken` says when to ask again.
 */
export interface RateWindow {
  /** Counts a start when the window allows one; false (and nothing counted) otherwise. */
  tryTake(): boolean;
  /** Milliseconds until a start will be allowed; 0 when one is. */
  msUntilToken(): number;
}

export interface RateWindowOptions {
  ratePerSecond: number;
  /**
   * Milliseconds added to the window (default 0). A call started here reaches the carrier a little later, and not
   * always equally later; a guard keeps the call after the rate from landing inside the carrier's second.
   */
  guardMs?: number;
  /**
   * Spread the starts evenly, one every window / rate (default false: the rate may start at once). A burst of calls
   * sent together reaches the carrier over a spread of its own making (connections, parsing, the carrier's queue),
   * so the carrier's second can see the end of one burst and the start of the next; calls sent one at a time reach
   * it as they were sent.
   */
  even?: boolean;
  /** Milliseconds clock; `Date.now` by default (fake timers move it). */
  now?: () => number;
}

export function createRateWindow(opts: RateWindowOptions): RateWindow {
  const rate = opts.ratePerSecond;
  if (!(Number.isFinite(rate) && rate > 0)) throw new Error(`ratePerSecond must be above 0, got ${rate}`);
  const limit = rate >= 1 ? Math.floor(rate) : 1;
  const guardMs = opts.guardMs ?? 0;
  if (!(Number.isFinite(guardMs) && guardMs >= 0)) throw new Error(`guardMs must be 0 or more, got ${guardMs}`);
  const windowMs = (rate >= 1 ? 1000 : Math.ceil(1000 / rate)) + guardMs;
  const now = opts.now ?? Date.now;
  // The times of the last `limit` starts, oldest first (a ring).
  const starts: number[] = [];

  const spacingMs = opts.even ? windowMs / limit : 0;
  // The time the next start is due when spreading evenly. While starts keep coming it moves on by the spacing from
  // where it was, not from when a timer happened to fire, so timers firing a little late do not add up over a
  // thousand starts; after a pause it starts again from the start that ends it.
  let due = Number.NEGATIVE_INFINITY;
  const wait = () => {
    const t = now();
    const spaced = Math.max(0, due - t);
    if (starts.length < limit) return spaced;
    return Math.max(spaced, (starts[0] as number) + windowMs - t);
  };

  return {
    tryTake() {
      if (wait() > 0) return false;
      const t = now();
      if (starts.length === limit) starts.shift();
      starts.push(t);
      if (spacingMs > 0) due = (due < t - spacingMs ? t : due) + spacingMs;
      return true;
    },
    msUntilToken: wait,
  };
}

/** Calls wait their turn at a rate window, in arrival order. */
export interface RateGate {
  /** Resolves when the window allows the call, which is then counted. */
  take(): Promise<void>;
  /** Calls waiting for their turn. */
  readonly waiting: number;
}

/**
 * A rate window callers await: each `take` resolves, oldest first, as soon as the window has room. One timer
 * wakes the line when the oldest counted call leaves the window.
 */
export function createRateGate(opts: RateWindowOptions): RateGate {
  const window = createRateWindow(opts);
  const line: (() => void)[] = [];
  let timer: NodeJS.Timeout | null = null;

  const pump = () => {
    while (line.length > 0 && window.tryTake()) (line.shift() as () => void)();
    if (line.length > 0 && !timer) {
      timer = setTimeout(
        () => {
          timer = null;
          pump();
        },
        Math.max(1, window.msUntilToken()),
      );
    }
  };

  return {
    take() {
      return new Promise<void>((resolve) => {
        line.push(resolve);
        pump();
      });
    },
    get waiting() {
      return line.length;
    },
  };
}
