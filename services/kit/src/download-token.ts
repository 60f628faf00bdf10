import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type AuthContext, authContextOf, extractToken, type TokenStateSource } from './auth';
import { AppError } from './errors';

/**
 * Download links. A browser opens a file in a new tab, where no header can be
 * set, so the link itself must say who may read it. It never carries the
 * session token (7 days, every route): it carries a download token, which
 *  - is good for one path only (one label PDF, one file of one bulk order),
 *  - lives minutes (orders' DOWNLOAD_TOKEN_TTL_MS, 5 by default),
 *  - names the user and their token version, so everything that ends a
 *    session (blocking, deletion, a role or password change, and the end of
 *    the admin's rights for a login-as session) ends it too,
 *  - is an HS256 JWT keyed from INTERNAL_SECRET (HKDF, a label of its own), so
 *    orders can issue it and the gateway and orders can check it without a
 *    key of their own; it can never pass as a session token (those are EdDSA
 *    only) nor a session token as one.
 */
export interface DownloadClaims {
  aud: typeof DOWNLOAD_AUDIENCE;
  sub: string;
  ver: number;
  /** The one path (percent-decoded, no query) the token opens. */
  path: string;
  /** The admin acting as the user (login-as), if any. */
  imp?: string;
  /** With `imp`: the admin's impersonation version the visit was made at, so Back to admin ends its links too. */
  iv?: number;
  iat: number;
  exp: number;
}

export const DOWNLOAD_AUDIENCE = 'flatship-download';
/** Default lifetime of a download token. */
export const DOWNLOAD_TOKEN_TTL_MS = 5 * 60_000;

export const DOWNLOAD_MESSAGES = {
  invalid: 'This download link is not valid. Please download the file again.',
  expired: 'This download link has expired. Please download the file again.',
} as const;

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

const invalid = () => new AppError('DOWNLOAD_LINK_INVALID', DOWNLOAD_MESSAGES.invalid);

/** The signing key, derived from the internal secret every service and the gateway share. */
export function downloadTokenKey(internalSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', internalSecret, 'flatship', 'download-token/v1', 32));
}

function mac(key: Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** A token for `claims.path`, good for `ttlMs` from `now`. */
export function signDownloadToken(
  key: Buffer,
  claims: { sub: string; ver: number; path: string; imp?: string; iv?: number },
  ttlMs: number,
  now = Date.now(),
): { token: string; expiresAt: Date } {
  const iat = Math.floor(now / 1000);
  const exp = Math.ceil((now + ttlMs) / 1000);
  const body: DownloadClaims = { aud: DOWNLOAD_AUDIENCE, ...claims, iat, exp };
  const data = `${HEADER}.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
  return { token: `${data}.${mac(key, data).toString('base64url')}`, expiresAt: new Date(exp * 1000) };
}

/** The claims of a token this key signed, not expired; otherwise DOWNLOAD_LINK_INVALID or _EXPIRED. */
export function readDownloadToken(key: Buffer, token: string, now = Date.now()): DownloadClaims {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) throw invalid();
  const given = Buffer.from(parts[2] ?? '', 'base64url');
  const expected = mac(key, `${parts[0]}.${parts[1]}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let claims: Partial<DownloadClaims>;
  try {
    claims = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8')) as Partial<DownloadClaims>;
  } catch {
    throw invalid();
  }
  if (
    claims.aud !== DOWNLOAD_AUDIENCE ||
    typeof claims.sub !== 'string' ||
    typeof claims.ver !== 'number' ||
    typeof claims.path !== 'string' ||
    typeof claims.exp !== 'number' ||
    (claims.imp !== undefined && typeof claims.imp !== 'string') ||
    (claims.iv !== undefined && typeof claims.iv !== 'number')
  ) {
    throw invalid();
  }
  if (claims.exp * 1000 <= now) throw new AppError('DOWNLOAD_LINK_EXPIRED', DOWNLOAD_MESSAGES.expired);
  return claims as DownloadClaims;
}

/** The path of a request URL as a download token names it (percent-decoded, no query), or null when unreadable. */
export function downloadPathOf(url: string): string | null {
  const q = url.indexOf('?');
  try {
    return decodeURIComponent(q === -1 ? url : url.slice(0, q));
  } catch {
    return null;
  }
}

/** The `?token=` of a download link; one value only (a repeated one is refused, not guessed at). */
export function queryTokenOf(request: FastifyRequest): string | undefined {
  const q = (request.query as Record<string, unknown> | undefined)?.token;
  if (q === undefined || q === '') return undefined;
  if (typeof q !== 'string') throw invalid();
  return q;
}

export interface DownloadTokenPluginOptions {
  internalSecret: string;
  /** The same source the auth plugin reads. */
  tokenState: TokenStateSource;
  /** Lifetime of the tokens this process issues (default 5 minutes). */
  ttlMs?: number;
}

/**
 * Decorates (after `authPlugin`):
 *  - `app.issueDownloadToken(auth, path)`, a token for the caller and that path;
 *  - `app.verifyDownloadToken(token, path)` → AuthContext, refusing a token for another path;
 *  - `app.requireDownloader`, the `onRequest` hook of download routes: a download token for this
 *    very path in `?token=`, or else a session token in the `token` header as on every route.
 *    A session token in the query is refused like any token that is not for this path.
 */
export const downloadTokenPlugin = fp(
  async (app: FastifyInstance, opts: DownloadTokenPluginOptions) => {
    const key = downloadTokenKey(opts.internalSecret);
    const ttlMs = opts.ttlMs ?? DOWNLOAD_TOKEN_TTL_MS;

    async function verifyDownloadToken(token: string, path: string | null): Promise<AuthContext> {
      const claims = readDownloadToken(key, token);
      if (path === null || claims.path !== path) throw invalid();
      // A link made while signed in as the user is worth no more than the visit it came from.
      return authContextOf(opts.tokenState, claims);
    }

    app.decorate('issueDownloadToken', (auth: AuthContext, path: string) =>
      signDownloadToken(
        key,
        {
          sub: auth.userId,
          ver: auth.tokenVersion,
          path,
          ...(auth.impersonatorId ? { imp: auth.impersonatorId, iv: auth.impersonationVersion } : {}),
        },
        ttlMs,
      ),
    );
    app.decorate('verifyDownloadToken', verifyDownloadToken);
    app.decorate('requireDownloader', async (request: FastifyRequest, _reply: FastifyReply) => {
      const fromQuery = queryTokenOf(request);
      request.auth = fromQuery
        ? await verifyDownloadToken(fromQuery, downloadPathOf(request.url))
        : await app.verifyAccessToken(extractToken(request));
    });
  },
  { name: 'flatship-download-token', dependencies: ['flatship-auth'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    issueDownloadToken(auth: AuthContext, path: string): { token: string; expiresAt: Date };
    verifyDownloadToken(token: string, path: string | null): Promise<AuthContext>;
    requireDownloader(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}
