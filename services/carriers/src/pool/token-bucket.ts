/**
 * A token bucket: `ratePerSecond` tokens a second, at most `burst` saved up
 * (default: one second's worth, at least 1). Taking is synchronous so a
 * scheduler can ask several buckets in turn; `msUntilToken` says when to ask
 * again.
 */
export interface TokenBucket {
  /** Takes a token when one is there; false (and nothing taken) otherwise. */
  tryTake(): boolean;
  /** Milliseconds until a token will be there; 0 when one is. */
  msUntilToken(): number;
}

export interface TokenBucketOptions {
  ratePerSecond: number;
  burst?: number;
  /** Milliseconds clock; `Date.now` by default (fake timers move it). */
  now?: () => number;
}

export function createTokenBucket(opts: TokenBucketOptions): TokenBucket {
  const rate = opts.ratePerSecond;
  if (!(Number.isFinite(rate) && rate > 0)) throw new Error(`ratePerSecond must be above 0, got ${rate}`);
  const burst = opts.burst ?? Math.max(1, rate);
  if (!(Number.isFinite(burst) && burst >= 1)) throw new Error(`burst must be 1 or more, got ${burst}`);
  const now = opts.now ?? Date.now;
  let tokens = burst;
  let at = now();

  const refill = () => {
    const t = now();
    if (t > at) tokens = Math.min(burst, tokens + ((t - at) * rate) / 1000);
    at = t;
  };

  return {
    tryTake() {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    msUntilToken() {
      refill();
      return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / rate);
    },
  };
}
