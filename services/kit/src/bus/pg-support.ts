import type { Knex } from 'knex';
import pg from 'pg';
import type { BusLogger } from './port';

/**
 * Schema names are spliced into SQL, so only plain lower-case identifiers are
 * accepted; the length cap leaves room for the notification channel names
 * derived from them (PostgreSQL truncates identifiers at 63 bytes).
 */
export function checkSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,39}$/.test(schema)) {
    throw new Error(`invalid schema name ${JSON.stringify(schema)}: use up to 40 lower-case letters, digits and _`);
  }
  return schema;
}

/** Builds the settings of a dedicated pg.Client from the knex instance's own connection settings. */
export async function clientConfigFor(db: Knex, connectionString?: string): Promise<pg.ClientConfig> {
  if (connectionString) return { connectionString };
  const config = (db.client as { config?: Knex.Config }).config;
  let connection: unknown = config?.connection;
  if (typeof connection === 'function') connection = await (connection as () => unknown)();
  if (typeof connection === 'string') return { connectionString: connection };
  if (connection && typeof connection === 'object') {
    const settings = connection as pg.ClientConfig;
    // knex keeps a password parsed from a URL as a non-enumerable property, which a spread would drop.
    return { ...settings, password: settings.password };
  }
  throw new Error('cannot derive a connection for LISTEN from the knex instance; pass connectionString');
}

export const fallbackLogger: BusLogger = {
  // Errors stay visible when no logger is given: a handler failing in silence would look like a stuck consumer.
  error: (obj, msg) => console.error(msg ?? 'event bus error', obj),
  warn: (obj, msg) => console.warn(msg ?? 'event bus warning', obj),
  info: () => {},
  debug: () => {},
};

/** A timer-based sleep that ends early, without rejecting, when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export interface Listener {
  close(): Promise<void>;
  /** Drops the connection without any goodbye, as a dying process would. */
  destroy(): void;
}

/**
 * Holds one LISTEN connection for several channels and reconnects when it
 * drops. Notifications lost while disconnected are covered by `onReconnect`
 * (callers re-check everything) and by their own polling.
 */
export async function startListener(opts: {
  config: pg.ClientConfig;
  channels: string[];
  onNotification(channel: string, payload: string): void;
  onReconnect(): void;
  logger: BusLogger;
  retryMs: number;
}): Promise<Listener> {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const c = new pg.Client(opts.config);
    c.on('notification', (n) => opts.onNotification(n.channel, n.payload ?? ''));
    c.on('error', (err) => {
      if (closed) return;
      opts.logger.warn({ err }, 'event bus LISTEN connection failed; reconnecting');
      lost(c);
    });
    c.on('end', () => lost(c));
    try {
      await c.connect();
      for (const ch of opts.channels) await c.query(`LISTEN "${ch.replaceAll('"', '""')}"`);
    } catch (err) {
      // A connection that opened but could not LISTEN (the server died in between) would otherwise stay open.
      c.end().catch(() => {});
      throw err;
    }
    if (closed) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
  };

  const lost = (c: pg.Client) => {
    if (closed || client !== c) return;
    client = undefined;
    c.end().catch(() => {});
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(async () => {
      retry = undefined;
      try {
        await connect();
        opts.logger.info({ databaseReachable: true }, 'event bus LISTEN connection restored');
        opts.onReconnect();
      } catch (err) {
        opts.logger.warn({ err }, 'event bus LISTEN reconnect failed');
        scheduleReconnect();
      }
    }, opts.retryMs);
  };

  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
    destroy() {
      closed = true;
      clearTimeout(retry);
      const c = client as (pg.Client & { connection?: { stream?: { destroy(): void } } }) | undefined;
      client = undefined;
      c?.connection?.stream?.destroy();
    },
  };
}
