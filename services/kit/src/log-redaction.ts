/**
 * What keeps secrets (session and download tokens, reset tokens, the internal
 * secret, API keys) out of log lines. Two layers, both in the one logger every
 * process uses:
 *  - `redactUrl` is how a request's URL is logged: the path, with any segment
 *    that is or hides a token replaced, and never the query string. Whatever a
 *    client puts after `?` (a download link's token, a reset link's, a
 *    percent-encoded or repeated `token`, any other name) cannot reach a line.
 *  - `scrubLogLine` runs on every finished line before it is written, for what
 *    arrives some other way (an error message or stack quoting a URL, a field
 *    logged by hand): JWTs, plain or percent-encoded; carrier API keys with a
 *    known shape (EasyPost's EZAK…/EZTK…); the value of every URL
 *    parameter or `name: value` pair named like a secret; every JSON string
 *    field named like one. It only ever replaces text inside a JSON string, so
 *    the line stays valid JSON.
 */

export const REDACTED = '[redacted]';

// A JWT's header is base64url JSON, so it starts with `{"` → `eyJ`; then the payload and the signature.
const JWT = /eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){1,2}/g;
const HAS_JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]/;
// EasyPost API keys: EZAK (production) or EZTK (test) and a run of hex or letters, wherever they turn up.
const EASYPOST_KEY = /\bEZ[AT]K[A-Za-z0-9]{16,}/g;
// A run of URL text with at least one escape in it (an escaped token, or a token's name escaped).
const ENCODED_RUN = /(?:[A-Za-z0-9_.~+-]|%[0-9A-Fa-f]{2})*%[0-9A-Fa-f]{2}(?:[A-Za-z0-9_.~+-]|%[0-9A-Fa-f]{2})*/g;
// `?name=value`, `&name=value`, `;name=value` in a URL quoted anywhere in a line.
const URL_PARAM = /([?&;])([^=&#?;\s"\\]{1,100})=([^&#;\s"\\]*)/g;
// `authorization: token abc`, `secret=abc` in free text (an error message).
const NAMED_VALUE =
  /\b(authorization|cookie|password|secret|token|api[_-]?key)(\s*[:=]\s*)(?:(?:bearer|token|basic)\s+)?[^\s"\\&,;]+/gi;
// A JSON string field whose name ends like a secret's: "token", "downloadToken", "webhookSecret", "apiKey", …
const SECRET_FIELD =
  /"([^"\\]{0,60}?(?:token|secret|password|passwd|authorization|cookie|api[_-]?key|signature))":"(?:[^"\\]|\\.)*"/gi;
const SECRET_NAME = /token|secret|passw|api.?key|auth|session|signature|sig$|jwt|cookie|code/i;
// Every rule below needs one of these in the line; most lines have none and are written as they are.
const SUSPECT = /eyJ|EZ[AT]K|%[0-9A-Fa-f]{2}|token|secret|passw|api.?key|auth|session|signature|sig=|jwt|cookie|code=/i;
// A path with none of these holds no token (and is most paths).
const PLAIN_PATH = /^[^%=?;]*$/;

/** `%xx` escapes undone, up to three times over (a name escaped twice is still that name to someone). */
function decodeLeniently(text: string): string {
  let out = text;
  for (let i = 0; i < 3 && out.includes('%'); i++) {
    const next = out.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === out) break;
    out = next;
  }
  return out;
}

/** A path segment that is a token, or carries one (`;token=…`, an escaped `?token=…`). */
function hidesSecret(segment: string): boolean {
  const decoded = decodeLeniently(segment);
  return HAS_JWT.test(decoded) || decoded.includes('=') || decoded.includes('?');
}

/** A request URL as it may be logged: the path (secret-looking segments replaced) and no query string. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (PLAIN_PATH.test(path) && !HAS_JWT.test(path)) return q === -1 ? path : `${path}?${REDACTED}`;
  const shown = path
    .split('/')
    .map((segment) => (hidesSecret(segment) ? REDACTED : segment))
    .join('/');
  return q === -1 ? shown : `${shown}?${REDACTED}`;
}

/** A finished log line with every secret in it replaced (see the top of this file). */
export function scrubLogLine(line: string): string {
  if (!SUSPECT.test(line)) return line;
  let out = line;
  if (out.includes('eyJ')) out = out.replace(JWT, REDACTED);
  if (out.includes('EZ')) out = out.replace(EASYPOST_KEY, REDACTED);
  if (out.includes('%')) {
    out = out.replace(ENCODED_RUN, (run) => (HAS_JWT.test(decodeLeniently(run)) ? REDACTED : run));
  }
  if (out.includes('=')) {
    out = out.replace(URL_PARAM, (whole, sep: string, name: string) =>
      SECRET_NAME.test(decodeLeniently(name)) ? `${sep}${name}=${REDACTED}` : whole,
    );
  }
  out = out.replace(NAMED_VALUE, (_whole, name: string, sep: string) => `${name}${sep}${REDACTED}`);
  return out.replace(SECRET_FIELD, (_whole, name: string) => `"${name}":"${REDACTED}"`);
}
