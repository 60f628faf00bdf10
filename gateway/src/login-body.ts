import { notUtf8JsonProblem } from '@flatship/kit';
import { normaliseEmail } from '@flatship/proto';

/** A login body as the gateway read it, and the only form in which auth will see it. */
export interface LoginAttempt {
  /** The account the attempt is against, normalised as auth looks it up: the per-email limit's key. */
  email: string;
  /** The body forwarded to auth: the parsed object written out again as plain UTF-8 JSON. */
  json: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8Json(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [mediaType = '', ...params] = contentType.split(';');
  if (mediaType.trim().toLowerCase() !== 'application/json') return false;
  return params.every((param) => {
    const at = param.indexOf('=');
    if (at === -1 || param.slice(0, at).trim().toLowerCase() !== 'charset') return true;
    const charset = param
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    return charset === 'utf-8' || charset === 'utf8';
  });
}

/**
 * What is wrong with a body declared as UTF-8 JSON whose bytes are not UTF-8 (the message naming the field that
 * holds them, as the services word it), or null; any other body is for `readLoginBody` to judge.
 */
export function notUtf8LoginBody(contentType: string | undefined, body: unknown): string | null {
  if (!Buffer.isBuffer(body) || !isUtf8Json(contentType)) return null;
  return notUtf8JsonProblem(body);
}

/**
 * Reads a POST /api/auth/login body, or returns null when it is not UTF-8
 * JSON holding an object with a string `email`.
 *
 * The per-email limit only protects an account if every attempt auth checks
 * was counted against that account. Two parsers never agree on everything
 * (a byte order mark, a charset, a repeated key), so auth does not get the
 * client's bytes: it gets what was read here, written out again, and a body
 * that cannot be read here is refused rather than passed on uncounted.
 */
export function readLoginBody(contentType: string | undefined, body: unknown): LoginAttempt | null {
  if (!Buffer.isBuffer(body) || !isUtf8Json(contentType)) return null;
  let parsed: unknown;
  try {
    // The decoder drops one leading byte order mark, as Fastify's JSON parser does.
    parsed = JSON.parse(utf8.decode(body));
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const email = (parsed as { email?: unknown }).email;
  if (typeof email !== 'string') return null;
  return { email: normaliseEmail(email), json: JSON.stringify(parsed) };
}
