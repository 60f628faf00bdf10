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
  /** Milliseconds clock; `Date.now` by default (fake timers move it). */
  now?: () => number;
}

export function createRateWindow(opts: RateWindowOptions): RateWindow {
  const rate = opts.ratePerSecond;
  if (!(Number.isFinite(rate) && rate > 0)) throw new Error(`ratePerSecond must be above 0, got ${rate}`);
  const limit = rate >= 1 ? Math.floor(rate) : 1;
  const windowMs = rate >= 1 ? 1000 : Math.ceil(1000 / rate);
  const now = opts.now ?? Date.now;
  // The times of the last `limit` starts, oldest first (a ring).
  const starts: number[] = [];

  const wait = () => {
    if (starts.length < limit) return 0;
    return Math.max(0, (starts[0] as number) + windowMs - now());
  };

  return {
    tryTake() {
      if (wait() > 0) return false;
      if (starts.length === limit) starts.shift();
      starts.push(now());
      return true;
    },
    msUntilToken: wait,
  };
}
