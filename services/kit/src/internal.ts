import { timingSafeEqual } from 'node:crypto';
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
 * HTTP client for /internal calls between services. Carries the request id
 * (given, or the current one: `currentRequestId`) so one user action can be
 * followed through every service's log, and turns the
 * callee's `{ code, message }` back into an AppError.
 */
export function createInternalClient(opts: { baseUrl: string; secret: string; timeoutMs?: number }): InternalClient {
  return {
    async request<T>(method: string, path: string, o: { body?: unknown; requestId?: string; timeoutMs?: number } = {}) {
      const headers: Record<string, string> = { [INTERNAL_SECRET_HEADER]: opts.secret, accept: 'application/json' };
      // Without one given, the id of the request (or bus message) this call is made for.
      const requestId = o.requestId ?? currentRequestId();
      if (requestId) headers[REQUEST_ID_HEADER] = requestId;
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      let res: Response;
      try {
        res = await fetch(new URL(path, opts.baseUrl), {
          method,
          headers,
          body: o.body === undefined ? undefined : JSON.stringify(o.body),
          signal: AbortSignal.timeout(o.timeoutMs ?? opts.timeoutMs ?? 10_000),
        });
      } catch (e) {
        throw new AppError('SERVICE_UNAVAILABLE', `A required service is unavailable (${(e as Error).message})`);
      }
      const text = await res.text();
      const data = text ? (JSON.parse(text) as unknown) : undefined;
      if (!res.ok) {
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
