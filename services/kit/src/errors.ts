import { ERROR_STATUS, type ErrorCode } from '@flatship/proto';

/**
 * The one error type domain code raises. `message` is the text the user sees
 * (the spec's text where it gives one); `code` is stable for programs.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  /** When to ask again, in seconds: answered as `Retry-After` (a 503 or 429 that will pass). */
  readonly retryAfterS: number | undefined;
  constructor(code: ErrorCode, message: string, opts: { retryAfterS?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.retryAfterS = opts.retryAfterS;
  }
}

export function statusOf(code: string): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** What a caller sees when a part of Flatship it needs is away for a moment (a service, the database). */
export const UNAVAILABLE_MESSAGE = 'This part of Flatship is not available right now. Please try again later.';
