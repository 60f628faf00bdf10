import pino, { type DestinationStream, type Logger } from 'pino';
import { DATABASE_CLIENT, isDatabaseUnavailable } from './db-basics';
import { REDACTED, redactUrl, scrubLogLine } from './log-redaction';

/** Marks the line that reports the database reachable again (see `databaseOutageHook`). */
export const DATABASE_REACHABLE = 'databaseReachable';

/** A new outage, rather than more of the same one, once the database has been quiet this long. */
const OUTAGE_QUIET_MS = 60_000;

/**
 * While the database is away, every loop and request of a process meets the
 * same error several times a second. The first such warning or error is kept
 * (with a note that the rest follow at debug level), the rest are logged at
 * debug, and the line that reports the database back (a field
 * `databaseReachable: true`) becomes a warning saying how long it was away.
 * The console, which shows warnings and worse, gets two lines per process
 * for an outage instead of hundreds; the log file keeps the detail at debug.
 */
export function databaseOutageHook(now: () => number = Date.now): pino.LoggerOptions['hooks'] {
  let downSince: number | undefined;
  let lastFailure = 0;
  return {
    logMethod(this: Logger, args: Parameters<pino.LogFn>, method: pino.LogFn, level: number) {
      const obj = typeof args[0] === 'object' && args[0] !== null ? (args[0] as Record<string, unknown>) : undefined;
      if (obj?.[DATABASE_REACHABLE] === true && downSince !== undefined) {
        const awayMs = now() - downSince;
        downSince = undefined;
        this.warn({ awayMs }, `database reachable again after ${(awayMs / 1000).toFixed(1)} s`);
        return;
      }
      if (level < 40 || !obj || !(obj[DATABASE_CLIENT] === true || isDatabaseUnavailable(obj.err))) {
        method.apply(this, args);
        return;
      }
      const t = now();
      const ongoing = downSince !== undefined && t - lastFailure < OUTAGE_QUIET_MS;
      lastFailure = t;
      if (!ongoing) {
        downSince = t;
        const [, msg, ...rest] = args as unknown[];
        method.apply(this, [
          obj,
          `${String(msg ?? '')} (database unreachable; further database errors are logged at debug level until it is back)`,
          ...rest,
        ] as Parameters<pino.LogFn>);
        return;
      }
      if (this.isLevelEnabled('debug')) this.debug(...args);
    },
  };
}

/**
 * One JSON logger per process; every line carries the service name, and no
 * line carries a secret (log-redaction.ts).
 */
export function createLogger(service: string, level: string, destination?: DestinationStream): Logger {
  const hooks = databaseOutageHook();
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    redact: {
      paths: [
        'req.headers.token',
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-internal-secret"]',
        '*.password',
      ],
      censor: REDACTED,
    },
    serializers: {
      // The path only: a query string may carry a token (download links, reset links), however it is spelled.
      req: (req: { method?: string; url?: unknown; id?: string }) => ({
        method: req.method,
        url: typeof req.url === 'string' ? redactUrl(req.url) : undefined,
        id: req.id,
      }),
    },
    hooks: { ...hooks, streamWrite: scrubLogLine },
  };
  // Written asynchronously: a synchronous write per line cost every request a system call (or two) on
  // the hot path. Lines are not delayed (each is written as soon as the previous write is done, several
  // together when they pile up), and pino flushes what is pending when the process exits.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
