import fastifyJwt from '@fastify/jwt';
import type { Role, TokenClaims, TokenState } from '@flatship/proto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from './errors';

/** Who is calling, once their token has been checked. */
export interface AuthContext {
  userId: string;
  role: Role;
  tokenVersion: number;
  /** The admin acting as this user (login-as), if any. */
  impersonatorId?: string;
  /** With `impersonatorId`: the admin's impersonation version the token was issued at (claim `iv`). */
  impersonationVersion?: number;
}

/** Where a service learns a user's current role, activation and token version. */
export interface TokenStateSource {
  get(userId: string): Promise<TokenState | null>;
  /**
   * The state read afresh, past any cache. Called when a token proves the cached state is behind: tokens
   * are signed with the versions current when they were issued, so a token at a newer version than the cache
   * holds means a change the cache has not heard of yet (its `user.changed` still on its way).
   */
  refresh?(userId: string): Promise<TokenState | null>;
}

export interface AuthPluginOptions {
  publicKey: string;
  /** Only the auth service signs tokens. */
  privateKey?: string;
  tokenTtl?: string;
  tokenState: TokenStateSource;
}

export const TOKEN_ALGORITHM = 'EdDSA';
/** Verified tokens remembered per process (least recently used dropped first). */
const TOKEN_CACHE_SIZE = 10_000;

export const AUTH_MESSAGES = {
  missing: 'Please log in to continue.',
  invalid: 'Your session is not valid. Please log in again.',
  expired: 'Your session has expired. Please log in again.',
  revoked: 'Your session has ended. Please log in again.',
  blocked: 'Your account has been blocked. Please contact support.',
  forbidden: 'You do not have permission to do this.',
} as const;

/**
 * The session token: header `token`, and nowhere else. A URL is kept in browser history, proxies and
 * logs, so a session token in a query string is never read; download links carry a download token
 * of their own instead (download-token.ts).
 */
export function extractToken(request: FastifyRequest): string | undefined {
  const header = request.headers.token;
  return typeof header === 'string' && header.length > 0 ? header : undefined;
}

/**
 * Registers @fastify/jwt with the public key (and the private key in the
 * auth service) and decorates:
 *  - `app.verifyAccessToken(token)` → AuthContext, throwing AppError (also used for socket handshakes);
 *  - `app.requireUser` / `app.requireAdmin` for route `onRequest` hooks, which set `request.auth`.
 * A token is accepted only when its signature and expiry are good AND its
 * version matches the user's current one AND the user is not blocked, so
 * blocking, a role change or a password change revokes older tokens.
 * A login-as token (claim `imp`) also needs its admin: still there, still an
 * admin, not blocked, and at the impersonation version the token names (claim
 * `iv`), so demoting, blocking or deleting the admin, or the admin going back
 * to their own account, ends it, through the same token state and the same
 * `user.changed` evictions as any other revocation.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: AuthPluginOptions) => {
    await app.register(fastifyJwt, {
      secret: opts.privateKey ? { public: opts.publicKey, private: opts.privateKey } : { public: opts.publicKey },
      sign: { algorithm: TOKEN_ALGORITHM, expiresIn: opts.tokenTtl ?? '7d' },
      // A token's signature is checked once, then remembered (by a hash of the whole token) until it
      // expires: every request of a session otherwise paid an EdDSA verification in the gateway and
      // again in the service. Failures are not remembered, and the token state below is still read on
      // every call, so a revoked or blocked user's token is refused as before.
      verify: { algorithms: [TOKEN_ALGORITHM], cache: TOKEN_CACHE_SIZE },
    });

    async function verifyAccessToken(token: string | undefined): Promise<AuthContext> {
      if (!token) throw new AppError('AUTH_MISSING_TOKEN', AUTH_MESSAGES.missing);
      let claims: TokenClaims;
      try {
        claims = app.jwt.verify<TokenClaims>(token);
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'FAST_JWT_EXPIRED') throw new AppError('AUTH_TOKEN_EXPIRED', AUTH_MESSAGES.expired);
        throw new AppError('AUTH_INVALID_TOKEN', AUTH_MESSAGES.invalid);
      }
      if (typeof claims.sub !== 'string' || typeof claims.ver !== 'number') {
        throw new AppError('AUTH_INVALID_TOKEN', AUTH_MESSAGES.invalid);
      }
      const imp = claims.imp;
      if (imp !== undefined && typeof imp !== 'string') throw new AppError('AUTH_INVALID_TOKEN', AUTH_MESSAGES.invalid);
      return authContextOf(opts.tokenState, { sub: claims.sub, ver: claims.ver, imp, iv: claims.iv });
    }

    app.decorate('verifyAccessToken', verifyAccessToken);
    app.decorateRequest('auth', null);
    app.decorate('requireUser', async (request: FastifyRequest, _reply: FastifyReply) => {
      request.auth = await verifyAccessToken(extractToken(request));
    });
    app.decorate('requireAdmin', async (request: FastifyRequest, _reply: FastifyReply) => {
      request.auth = await verifyAccessToken(extractToken(request));
      if (request.auth.role !== 'admin') throw new AppError('FORBIDDEN', AUTH_MESSAGES.forbidden);
    });
  },
  { name: 'flatship-auth' },
);

/**
 * Who a verified token (a session token, or a download link's) speaks for, by the current token states: the
 * user at the token's version and not blocked, and for a login-as token (`imp`) an admin who is still an
 * active admin at the impersonation version the token names (`iv`). One rule for every kind of token, so a
 * revocation ends them all alike.
 */
export async function authContextOf(
  tokenState: TokenStateSource,
  claims: { sub: string; ver: number; imp?: string | undefined; iv?: unknown },
): Promise<AuthContext> {
  const { imp } = claims;
  // Both read at once: a login-as request should not wait for one state and then the other.
  let [state, admin] = await Promise.all([tokenState.get(claims.sub), imp ? tokenState.get(imp) : null]);
  // Versions only grow, so a token ahead of the cache means the cache is behind, never that the token is stale.
  const iv = typeof claims.iv === 'number' ? claims.iv : undefined;
  const stateBehind = state !== null && state.tokenVersion < claims.ver;
  const adminBehind =
    imp !== undefined && admin !== null && iv !== undefined && (admin.impersonationVersion ?? -1) < iv;
  if (tokenState.refresh && (stateBehind || adminBehind)) {
    [state, admin] = await Promise.all([
      stateBehind ? tokenState.refresh(claims.sub) : state,
      adminBehind && imp ? tokenState.refresh(imp) : admin,
    ]);
  }
  if (!state || state.tokenVersion !== claims.ver) throw new AppError('AUTH_TOKEN_REVOKED', AUTH_MESSAGES.revoked);
  if (state.activation === 'block') throw new AppError('AUTH_ACCOUNT_BLOCKED', AUTH_MESSAGES.blocked);
  if (!imp) return { userId: state.id, role: state.role, tokenVersion: state.tokenVersion };
  // A login-as token without `iv` predates impersonation versions (and lived a week): it is not honoured. Nor is
  // one for an admin's account: a visit is a customer's session, and never carries an admin's rights.
  const isLiveVisit =
    state.role !== 'admin' &&
    admin !== null &&
    admin.role === 'admin' &&
    admin.activation === 'allow' &&
    typeof claims.iv === 'number' &&
    admin.impersonationVersion === claims.iv;
  if (!isLiveVisit) throw new AppError('AUTH_TOKEN_REVOKED', AUTH_MESSAGES.revoked);
  return {
    userId: state.id,
    role: state.role,
    tokenVersion: state.tokenVersion,
    impersonatorId: imp,
    impersonationVersion: claims.iv as number,
  };
}

/** The rule for every `{userId}` in a path: it must be the caller's own id, or the caller is an admin. */
export function assertSelfOrAdmin(auth: AuthContext | null, userId: string): AuthContext {
  if (!auth) throw new AppError('AUTH_MISSING_TOKEN', AUTH_MESSAGES.missing);
  if (auth.userId !== userId && auth.role !== 'admin') throw new AppError('FORBIDDEN', AUTH_MESSAGES.forbidden);
  return auth;
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('AUTH_MISSING_TOKEN', AUTH_MESSAGES.missing);
  return request.auth;
}

/**
 * Whether token state `a` is older than `b` for the same user. Every change that matters to a token raises
 * `tokenVersion` (a deletion too), and ending login-as visits raises `impersonationVersion`, so the pair orders
 * any two states of one user.
 */
export function isOlderTokenState(a: TokenState, b: TokenState): boolean {
  if (a.tokenVersion !== b.tokenVersion) return a.tokenVersion < b.tokenVersion;
  return (a.impersonationVersion ?? -1) < (b.impersonationVersion ?? -1);
}

/**
 * Caches token states briefly. Services other than auth fetch them over
 * internal HTTP; `user.changed` events update entries at once, and the short
 * TTL bounds staleness if an event is late. Events and reads arrive out of
 * order (an event relayed late, a read begun before a change), so an entry is
 * only replaced by a state at least as new. A user auth no longer knows is
 * deleted for good (ids are never reused): no event brings them back.
 */
export function createCachedTokenState(
  fetchState: (userId: string) => Promise<TokenState | null>,
  ttlMs = 5_000,
): Required<TokenStateSource> & {
  apply(state: TokenState & { deleted?: boolean }): void;
  evict(userId: string): void;
} {
  interface Entry {
    /** The state, or null when the user is deleted. */
    state: TokenState | null;
    /** What orders the next state: the last one seen (a deletion's too), or `gone` when auth answered 404. */
    seen: TokenState | 'gone';
    at: number;
  }
  const cache = new Map<string, Entry>();
  const keep = (userId: string, next: Entry, from: 'read' | 'event') => {
    const current = cache.get(userId);
    const outOfDate =
      current !== undefined &&
      ((current.seen === 'gone' && from === 'event') ||
        (current.seen !== 'gone' && next.seen !== 'gone' && isOlderTokenState(next.seen, current.seen)));
    if (current && outOfDate) {
      // A read that lost the race still confirms the newer entry is current.
      if (from === 'read') current.at = Date.now();
      return current.state;
    }
    cache.delete(userId);
    cache.set(userId, next);
    if (cache.size > 50_000) cache.delete(cache.keys().next().value as string);
    return next.state;
  };
  const read = async (userId: string) => {
    const state = await fetchState(userId);
    return keep(userId, { state, seen: state ?? 'gone', at: Date.now() }, 'read');
  };
  return {
    async get(userId) {
      const hit = cache.get(userId);
      if (hit && Date.now() - hit.at < ttlMs) return hit.state;
      return read(userId);
    },
    refresh: read,
    apply(state) {
      const { deleted, ...tokenState } = state;
      keep(state.id, { state: deleted ? null : tokenState, seen: tokenState, at: Date.now() }, 'event');
    },
    evict(userId) {
      cache.delete(userId);
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    verifyAccessToken(token: string | undefined): Promise<AuthContext>;
    requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}
