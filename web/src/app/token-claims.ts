import type { TokenClaims } from '@flatship/proto';

/**
 * The claims of a session token, read without checking its signature: only
 * for display (the servers check every token). Null for anything that is not
 * a readable JWT.
 */
export function readTokenClaims(token: string | null): Partial<TokenClaims & { exp: number }> | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json: unknown = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')));
    return json && typeof json === 'object' ? (json as Partial<TokenClaims & { exp: number }>) : null;
  } catch {
    return null;
  }
}

/** The admin acting through a Login As token (claim `imp`), if any. */
export function tokenImpersonatorId(token: string | null): string | null {
  const imp = readTokenClaims(token)?.imp;
  return typeof imp === 'string' && imp ? imp : null;
}

/** When the token stops being accepted (claim `exp`), or null when it names no time. */
export function tokenExpiresAt(token: string | null): Date | null {
  const exp = readTokenClaims(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? new Date(exp * 1000) : null;
}
