import { ApiError } from './http';

export interface ServerMessageOptions {
  /** The screen's own text shown with it: the server's words are left out when they only repeat it. */
  besides?: string;
  /** Only answers with one of these statuses are told in the server's words; any other gets the screen's text alone. */
  statuses?: readonly number[];
}

/**
 * The server's own words about a failed call: the non-empty `message` of its
 * `{ code, message }` answer. Undefined for anything else (the server was not
 * reached or took too long, its answer was no such body, the error did not come
 * from the http client), so the screen shows only its own text.
 */
export function serverMessage(error: unknown, options: ServerMessageOptions = {}): string | undefined {
  if (!(error instanceof ApiError) || !error.isServerMessage || !error.message) return undefined;
  if (options.statuses && !options.statuses.includes(error.status)) return undefined;
  if (options.besides !== undefined && error.message === options.besides) return undefined;
  return error.message;
}

/** The server's own words when it sent some (see `serverMessage`), else the screen's `fallback`. */
export function errorMessage(error: unknown, fallback: string): string {
  return serverMessage(error) ?? fallback;
}
