import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EpTracker } from './api';
import { readTracker, type TrackerReading, trackerProblem } from './tracking';

/**
 * EasyPost's webhook events (https://docs.easypost.com/docs/webhooks, "HMAC Validation"): with a `webhook_secret`
 * set on the webhook, each Event is POSTed with `X-Hmac-Signature: hmac-sha256-hex=<hex>`, the HMAC-SHA256 of the
 * body under the secret. The page says only to validate it with the client libraries' `validate_webhook`; what those
 * do is the algorithm: the secret Unicode-normalised (NFKD) and UTF-8 encoded, the digest hex, compared in constant
 * time.
 *
 * Where the libraries disagree: the Python client signs the body bytes exactly as received; the Node client first
 * rewrites every whole-number `"weight": N` to `N.0` (easypost-node issue 467: a body parsed and re-serialised by
 * JavaScript loses the `.0` EasyPost sent). Both are accepted here: the raw bytes first, then the Node client's
 * correction, so a route that hands us re-serialised JSON still verifies. A route should hand over the raw body.
 */
export type EasyPostWebhookEvent =
  | { ok: true; kind: 'tracker'; eventId: string; description: string; tracking: TrackerReading }
  /** A verified event that is not about a tracker (a batch, a refund…): acknowledge it and do nothing. */
  | { ok: true; kind: 'other'; eventId: string; description: string }
  /**
   * A verified tracker event whose tracker cannot be read (`problem` says which value, and why): acknowledge it, so
   * EasyPost does not send it again for a day, and keep the problem in the log.
   */
  | { ok: true; kind: 'unusable'; eventId: string; description: string; problem: string }
  | {
      ok: false;
      /**
       * `no_secret`: no webhook secret is configured, so nothing can be trusted; `unsigned`: no signature header;
       * `bad_signature`: it does not match; `malformed`: signed, but not an EasyPost event.
       */
      reason: 'no_secret' | 'unsigned' | 'bad_signature' | 'malformed';
    };

export const EASYPOST_SIGNATURE_HEADER = 'x-hmac-signature';

type HeaderBag = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

function headerOf(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [k, v] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : (v as string | undefined);
  }
  return undefined;
}

/** The signature EasyPost sends for `body` under `secret`. */
export function easyPostSignature(body: string | Uint8Array, secret: string): string {
  const key = Buffer.from(secret.normalize('NFKD'), 'utf8');
  const digest = createHmac('sha256', key)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
  return `hmac-sha256-hex=${digest}`;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The Node client's correction: `"weight": 136` back to `136.0`, as EasyPost wrote it. */
function withWholeWeightsAsFloats(text: string): string {
  return text.replace(/("weight":\s*)(\d+)(\s*)(?=,|\})/g, '$1$2.0$3');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Verifies and reads a tracker webhook: `body` exactly as received, the request's headers, and the configured
 * secret (`EASYPOST_WEBHOOK_SECRET`). Nothing is trusted unless the signature matches.
 */
export function parseEasyPostTrackerEvent(
  body: string | Uint8Array,
  headers: HeaderBag,
  secret: string | undefined,
): EasyPostWebhookEvent {
  if (!secret) return { ok: false, reason: 'no_secret' };
  const signature = headerOf(headers, EASYPOST_SIGNATURE_HEADER)?.trim();
  if (!signature) return { ok: false, reason: 'unsigned' };
  const raw = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  let signed: string | null = null;
  if (sameText(easyPostSignature(typeof body === 'string' ? body : Buffer.from(body), secret), signature)) signed = raw;
  else {
    const corrected = withWholeWeightsAsFloats(raw);
    if (corrected !== raw && sameText(easyPostSignature(corrected, secret), signature)) signed = corrected;
  }
  if (signed === null) return { ok: false, reason: 'bad_signature' };

  let event: unknown;
  try {
    event = JSON.parse(signed);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!isObject(event) || typeof event.description !== 'string') return { ok: false, reason: 'malformed' };
  const eventId = typeof event.id === 'string' ? event.id : '';
  const description = event.description;
  const result = event.result;
  if (!description.startsWith('tracker.')) return { ok: true, kind: 'other', eventId, description };
  if (!isObject(result)) return { ok: false, reason: 'malformed' };
  const problem = trackerProblem(result);
  if (problem) return { ok: true, kind: 'unusable', eventId, description, problem };
  const tracking = readTracker(result as EpTracker);
  if (!tracking) return { ok: false, reason: 'malformed' };
  return { ok: true, kind: 'tracker', eventId, description, tracking };
}
