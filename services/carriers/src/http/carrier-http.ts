import { setTimeout as delay } from 'node:timers/promises';
import type { PurchaseGate } from '../pool/rate-slots';

/**
 * The one way carrier adapters call their carrier over HTTP: a time-out on every call, 429 and 5xx answers
 * tried again with a back-off that honours Retry-After, and each call reported for metrics. A call that may
 * have taken effect at the carrier (a purchase without an idempotency key) is never sent twice: the adapter
 * says so with `retry: 'never'` and resolves a time-out by asking the carrier what happened.
 */

/** One call as metrics see it. */
export interface CarrierCallObservation {
  /** The plugin id (`usps`, `easypost`). */
  carrier: string;
  /** What the call was for (`label`, `oauth`, `refund`…), a fixed set per adapter. */
  operation: string;
  /** The HTTP status of the last answer; 0 when none came (time-out, network). */
  status: number;
  outcome: 'ok' | 'client_error' | 'server_error' | 'rate_limited' | 'timeout' | 'network';
  /** Answers of 429 met on the way, the last included, retried or not. */
  rateLimited: number;
  seconds: number;
}

export interface CarrierHttpOptions {
  /** The plugin id, for metrics and errors. */
  carrier: string;
  baseUrl: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Attempts after the first for a retryable answer (default 3). */
  maxRetries?: number;
  /** First back-off; doubled each time, with jitter (default 250 ms). */
  retryBaseMs?: number;
  /** The longest wait between attempts, Retry-After included; a longer Retry-After ends the retries (default 10 s). */
  maxRetryDelayMs?: number;
  observe?: (o: CarrierCallObservation) => void;
  /** For tests: the fetch and the pause to use. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface CarrierHttpRequest {
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to the base URL, starting with `/`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Sent as JSON unless a string or bytes. */
  body?: unknown;
  /**
   * `safe`: the call may be sent again after a time-out, a network failure, a 429 or a 5xx (reads, and writes
   * the carrier de-duplicates, e.g. by an idempotency key). `rate-limit-only`: sent again only after a 429, which
   * says the call was not taken. `never`: sent once.
   */
  retry: 'safe' | 'rate-limit-only' | 'never';
  timeoutMs?: number;
  /**
   * The carrier's rate for a call it limits: every attempt, retries included, waits its turn, and a 429 pauses the
   * carrier's calls for its Retry-After (or the back-off), in every process sharing the gate's slots (`RateGate`).
   */
  gate?: PurchaseGate;
}

export interface CarrierHttpResponse {
  status: number;
  headers: Headers;
  body: Buffer;
  text(): string;
  /** The body as JSON; a body that is not JSON throws `CarrierHttpError` of kind `malformed`. */
  json<T = unknown>(): T;
}

export type CarrierHttpErrorKind = 'timeout' | 'network' | 'rate_limited' | 'server_error' | 'malformed';

/** A call that got no usable answer, after the retries its kind allows. Never shown to a customer as it is. */
export class CarrierHttpError extends Error {
  constructor(
    readonly kind: CarrierHttpErrorKind,
    message: string,
    readonly status = 0,
    readonly body = '',
  ) {
    super(message);
    this.name = 'CarrierHttpError';
  }
}

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

/** Retry-After in milliseconds (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export interface CarrierHttp {
  request(req: CarrierHttpRequest): Promise<CarrierHttpResponse>;
}

export function createCarrierHttp(opts: CarrierHttpOptions): CarrierHttp {
  const doFetch = opts.fetch ?? fetch;
  const sleep = opts.sleep ?? ((ms: number) => delay(ms).then(() => {}));
  const random = opts.random ?? Math.random;
  const maxRetries = opts.maxRetries ?? 3;
  const retryBaseMs = opts.retryBaseMs ?? 250;
  const maxRetryDelayMs = opts.maxRetryDelayMs ?? 10_000;
  const base = opts.baseUrl.replace(/\/+$/, '');

  const urlOf = (req: CarrierHttpRequest) => {
    const url = new URL(`${base}${req.path}`);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  };

  const bodyOf = (req: CarrierHttpRequest): { body?: BodyInit; type?: string } => {
    if (req.body === undefined) return {};
    if (typeof req.body === 'string') return { body: req.body };
    if (Buffer.isBuffer(req.body)) return { body: new Uint8Array(req.body) };
    return { body: JSON.stringify(req.body), type: 'application/json' };
  };

  return {
    async request(req) {
      const started = process.hrtime.bigint();
      let rateLimited = 0;
      const report = (status: number, outcome: CarrierCallObservation['outcome']) =>
        opts.observe?.({
          carrier: opts.carrier,
          operation: req.operation,
          status,
          outcome,
          rateLimited,
          seconds: Number(process.hrtime.bigint() - started) / 1e9,
        });
      const { body, type } = bodyOf(req);
      const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
      if (type && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = type;

      for (let attempt = 0; ; attempt++) {
        const timeoutMs = req.timeoutMs ?? opts.timeoutMs;
        let res: Response;
        let bytes: Buffer;
        await req.gate?.take();
        try {
          res = await doFetch(urlOf(req), {
            method: req.method,
            headers,
            ...(body === undefined ? {} : { body }),
            signal: AbortSignal.timeout(timeoutMs),
          });
          bytes = Buffer.from(await res.arrayBuffer());
        } catch (err) {
          const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
          const kind = timedOut ? 'timeout' : 'network';
          if (req.retry === 'safe' && attempt < maxRetries) {
            await sleep(backoff(attempt));
            continue;
          }
          report(0, kind);
          throw new CarrierHttpError(
            kind,
            timedOut
              ? `${opts.carrier} ${req.operation}: no answer within ${timeoutMs} ms`
              : `${opts.carrier} ${req.operation}: ${(err as Error).message}`,
          );
        }
        if (res.status === 429) rateLimited++;
        if (RETRYABLE_STATUS.has(res.status)) {
          const mayRetry = req.retry === 'safe' || (req.retry === 'rate-limit-only' && res.status === 429);
          const after = retryAfterMs(res.headers.get('retry-after'));
          const wait = after ?? backoff(attempt);
          if (res.status === 429) req.gate?.pause(wait);
          if (mayRetry && attempt < maxRetries && wait <= maxRetryDelayMs) {
            await sleep(wait);
            continue;
          }
          const kind = res.status === 429 ? 'rate_limited' : 'server_error';
          report(res.status, kind);
          throw new CarrierHttpError(
            kind,
            `${opts.carrier} ${req.operation}: HTTP ${res.status}`,
            res.status,
            bytes.toString('utf8').slice(0, 2000),
          );
        }
        report(res.status, res.status < 400 ? 'ok' : 'client_error');
        return responseOf(res, bytes, `${opts.carrier} ${req.operation}`);
      }
    },
  };

  function backoff(attempt: number): number {
    // Full jitter: anywhere up to the doubled step, so callers throttled together do not come back together.
    const step = Math.min(maxRetryDelayMs, retryBaseMs * 2 ** attempt);
    return Math.round(step / 2 + (random() * step) / 2);
  }
}

function responseOf(res: Response, bytes: Buffer, what: string): CarrierHttpResponse {
  return {
    status: res.status,
    headers: res.headers,
    body: bytes,
    text: () => bytes.toString('utf8'),
    json<T>() {
      try {
        return JSON.parse(bytes.toString('utf8')) as T;
      } catch {
        throw new CarrierHttpError(
          'malformed',
          `${what}: the answer is not JSON`,
          res.status,
          bytes.toString('utf8').slice(0, 2000),
        );
      }
    },
  };
}
