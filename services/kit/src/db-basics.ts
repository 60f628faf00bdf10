// What needs no knex: which errors mean the database is away (for the logger and the HTTP layer) and the pool's
// defaults (for the configuration reference). A process that has no database (the BTCPay simulator) loads this
// without loading knex.

/** Marks knex's own warnings about connections, which the logger quiets during an outage. */
export const DATABASE_CLIENT = 'databaseClient';

/** How long an unused pooled connection stays open by default (`DB_POOL_IDLE_MS`). */
export const DEFAULT_POOL_IDLE_MS = 5000;

// Socket-level failures to reach the server or of a connection to it.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now (starting up, in recovery), too_many_connections.
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
// node-postgres reports a dropped connection, or a connect that timed out, by message only; knex prefixes
// messages with the SQL.
const DROPPED = /Connection terminated|Connection ended unexpectedly|is not queryable|^timeout expired$/;

/**
 * True when an error means the database could not be reached or the
 * connection died (the server is down, restarting or refusing connections),
 * as opposed to a query the database refused. Looks through `cause` and
 * AggregateError (a connect to several addresses).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  // Waiting for a pooled connection, or for a query given a timeout, took too long.
  if (err.name === 'KnexTimeoutError') return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) {
    return true;
  }
  if (DROPPED.test(err.message)) return true;
  if (err instanceof AggregateError && err.errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(err.cause, depth + 1);
}
