import ky, { HTTPError, TimeoutError } from 'ky';
import { tokenStorage } from './token-storage';

/**
 * The error every API helper throws. `status` is 0 when the server was never
 * reached (offline, DNS, timeout); `isServerMessage` tells whether `message`
 * came from the server's `{ code, message }` body and may be shown as is.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly isServerMessage: boolean;

  constructor(status: number, code: string, message: string, isServerMessage: boolean) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.isServerMessage = isServerMessage;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

/**
 * Answers meaning the session itself is over (the account was blocked, the
 * token revoked or no longer valid), whichever call received them.
 */
export const SESSION_ENDED_CODES: ReadonlySet<string> = new Set([
  'AUTH_ACCOUNT_BLOCKED',
  'AUTH_TOKEN_REVOKED',
  'AUTH_INVALID_TOKEN',
  'AUTH_TOKEN_EXPIRED',
]);

const sessionEndedListeners = new Set<() => void>();

/** Calls `listener` when any answer says the current session has ended; returns how to stop listening. */
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

async function noticeEndedSession(request: Request, response: Response): Promise<void> {
  if (response.status !== 401 && response.status !== 403) return;
  const sentToken = request.headers.get('token');
  // Only the session still in use ends: a late answer to an earlier token says nothing about it.
  if (!sentToken || sentToken !== tokenStorage.get()) return;
  try {
    const body: unknown = await response.clone().json();
    const code = body && typeof body === 'object' && 'code' in body ? body.code : undefined;
    if (typeof code !== 'string' || !SESSION_ENDED_CODES.has(code)) return;
  } catch {
    return;
  }
  for (const listener of sessionEndedListeners) listener();
}

/** The one HTTP client of the app; every feature's `*-api.ts` goes through it. */
export const http = ky.create({
  // No window when the landing page is pre-rendered at build time (web/prerender/), where nothing is requested.
  prefixUrl: `${typeof window === 'undefined' ? '' : window.location.origin}/api`,
  // Writes are never repeated behind the user's back (a retried label purchase could charge twice).
  retry: { limit: 1, methods: ['get'] },
  hooks: {
    beforeRequest: [
      (request) => {
        const token = tokenStorage.get();
        if (token) request.headers.set('token', token);
      },
    ],
    afterResponse: [
      async (request, _options, response) => {
        await noticeEndedSession(request, response);
      },
    ],
  },
});

/**
 * The `{ code, message }` an answer carries (proto's ErrorBody; `code` may be
 * missing), read from a copy so the response stays readable; null when the
 * body is not JSON (a proxy's page, an empty body) or has no string `message`.
 * A download reads its failed answer with this too, outside `send`.
 */
export async function readErrorBody(response: Response): Promise<{ code?: string; message: string } | null> {
  try {
    const body: unknown = await response.clone().json();
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      return 'code' in body && typeof body.code === 'string'
        ? { code: body.code, message: body.message }
        : { message: body.message };
    }
  } catch {
    // Not JSON: no message.
  }
  return null;
}

async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPError) {
    const { status } = error.response;
    const body = await readErrorBody(error.response);
    if (body) return new ApiError(status, body.code ?? `HTTP_${status}`, body.message, true);
    return new ApiError(status, `HTTP_${status}`, `Request failed with status ${status}`, false);
  }
  if (error instanceof TimeoutError) return new ApiError(0, 'TIMEOUT', 'The server took too long to answer', false);
  return new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached', false);
}

async function send<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw await toApiError(error);
  }
}

/** Paths are relative to /api, without a leading slash: `getJson('auth/verify')`. */
export const getJson = <T>(path: string): Promise<T> => send(() => http.get(path).json<T>());
/** `headers` adds request headers, e.g. an `Idempotency-Key` on a purchase. */
export const postJson = <T>(path: string, body: unknown, headers?: Record<string, string>): Promise<T> =>
  send(() => http.post(path, { json: body, headers }).json<T>());
export const patchJson = <T>(path: string, body: unknown): Promise<T> =>
  send(() => http.patch(path, { json: body }).json<T>());
export const putJson = <T>(path: string, body: unknown): Promise<T> =>
  send(() => http.put(path, { json: body }).json<T>());
export const deleteJson = <T>(path: string): Promise<T> => send(() => http.delete(path).json<T>());
/** A POST whose body is empty but declared JSON, as some calls of the spec are sent. */
export const postEmptyJson = <T>(path: string): Promise<T> =>
  send(() => http.post(path, { body: '', headers: { 'content-type': 'application/json' } }).json<T>());
