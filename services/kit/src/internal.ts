import { timingSafeEqual } from 'node:crypto';
import http, { type ClientRequest } from 'node:http';
import https from 'node:https';
import type { ErrorCode } from '@flatship/proto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors';
import { currentRequestId, REQUEST_ID_HEADER } from './request-context';

export const INTERNAL_SECRET_HEADER = 'x-internal-secret';

/** onRequest hook for /internal routes: only callers holding the shared secret. */
export function requireInternal(secret: string) {
  const expected = Buffer.from(secret);
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const given = request.headers[INTERNAL_SECRET_HEADER];
    const buf = Buffer.from(typeof given === 'string' ? given : '');
    if (buf.length !== expected.length || !timingSafeEqual(buf, expected)) {
      throw new AppError('FORBIDDEN', 'Internal route');
    }
  };
}

export interface InternalClient {
  request<T>(
    method: string,
    path: string,
    opts?: { body?: unknown; requestId?: string; timeoutMs?: number },
  ): Promise<T>;
}

/**
 * The attempt failed, before any answer, only because the kept-alive connection it reused had
 * just been closed by the other side: the request never reached it, so it is sent again.
 */
const staleConnection = (req: ClientRequest, e: unknown) =>
  req.reusedSocket && (e as NodeJS.ErrnoException).code === 'ECONNRESET';

/**
 * HTTP client for /internal calls between services. Carries the request id
 * (given, or the current one: `currentRequestId`) so one user action can be
 * followed through every service's log, and turns the
 * callee's `{ code, message }` back into an AppError.
 *
 * On node:http with kept-alive connections rather than fetch: these calls sit
 * on hot paths (the session check asks payments on every page load), and
 * fetch spent about 0.6 ms of CPU more per call.
 */
export function createInternalClient(opts: { baseUrl: string; secret: string; timeoutMs?: number }): InternalClient {
  const base = new URL(opts.baseUrl);
  const transport = base.protocol === 'https:' ? https : http;
  // Idle connections are closed well before the services' own keep-alive timeout (72 s), so a
  // request rarely meets one the service is closing; one that does is sent again on a new one.
  const agent = new transport.Agent({ keepAlive: true, timeout: 30_000 });

  function send(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
    retried = false,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      let answered = false;
      const req = transport.request(url, { method, headers, agent }, (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', fail);
      });
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      function fail(e: Error) {
        clearTimeout(timer);
        if (!retried && !answered && staleConnection(req, e)) {
          send(method, url, headers, body, timeoutMs, true).then(resolve, reject);
          return;
        }
        reject(new AppError('SERVICE_UNAVAILABLE', `A required service is unavailable (${e.message})`));
      }
      req.on('error', fail);
      req.end(body);
    });
  }

  return {
    async request<T>(method: string, path: string, o: { body?: unknown; requestId?: string; timeoutMs?: number } = {}) {
      const headers: Record<string, string> = { [INTERNAL_SECRET_HEADER]: opts.secret, accept: 'application/json' };
      // Without one given, the id of the request (or bus message) this call is made for.
      const requestId = o.requestId ?? currentRequestId();
      if (requestId) headers[REQUEST_ID_HEADER] = requestId;
      const body = o.body === undefined ? undefined : JSON.stringify(o.body);
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const res = await send(method, new URL(path, base), headers, body, o.timeoutMs ?? opts.timeoutMs ?? 10_000);
      const data = res.text ? (JSON.parse(res.text) as unknown) : undefined;
      if (res.status < 200 || res.status >= 300) {
        const err = data as { code?: string; message?: string } | undefined;
        throw new AppError(
          (err?.code as ErrorCode) ?? 'INTERNAL',
          err?.message ?? `Internal call failed (${res.status})`,
        );
      }
      return data as T;
    },
  };
}
