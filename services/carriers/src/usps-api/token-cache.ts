/** A token as issued: its value and when it stops working (ms since the epoch). */
export interface IssuedToken {
  value: string;
  expiresAt: number;
}

export interface TokenCache {
  /** A token that is good for a while yet: the cached one, or a new one (one request shared by every caller). */
  get(): Promise<string>;
  /**
   * The carrier refused `token` (401): drop it if it is still the cached one and get a new one. Callers refused
   * with the same token share one refresh; a caller whose token was already replaced gets the new one as it is.
   */
  refused(token: string): Promise<string>;
  /** Forgets the token (tests, a credentials change). */
  clear(): void;
}

export interface TokenCacheOptions {
  issue: () => Promise<IssuedToken>;
  now?: () => number;
  /**
   * How long before it expires a token is replaced; by default a tenth of its life, at most five minutes, so a call
   * never leaves with a token that dies on the way.
   */
  marginMs?: (lifetimeMs: number) => number;
}

const defaultMargin = (lifetimeMs: number) => Math.min(5 * 60_000, Math.max(0, lifetimeMs) / 10);

/** Caches one bearer token and replaces it before it expires; concurrent callers share one refresh. */
export function createTokenCache(opts: TokenCacheOptions): TokenCache {
  const now = opts.now ?? Date.now;
  const marginOf = opts.marginMs ?? defaultMargin;
  let current: { value: string; refreshAt: number } | null = null;
  let refreshing: Promise<string> | null = null;

  const refresh = (): Promise<string> => {
    refreshing ??= (async () => {
      try {
        const issuedAt = now();
        const token = await opts.issue();
        current = { value: token.value, refreshAt: token.expiresAt - marginOf(token.expiresAt - issuedAt) };
        return token.value;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  };

  return {
    async get() {
      if (current && now() < current.refreshAt) return current.value;
      return refresh();
    },
    async refused(token) {
      if (current?.value === token) current = null;
      if (current) return current.value;
      return refresh();
    },
    clear() {
      current = null;
    },
  };
}

/** The `exp` of a JWT, in ms since the epoch; null when the token is not a JWT or has none. Nothing is verified. */
export function jwtExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp * 1000 : null;
  } catch {
    return null;
  }
}
