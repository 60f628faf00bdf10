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
  /** Drops this listener without any goodbye, as a dying process would (the connection too, when it was the last). */
  destroy(): void;
}

interface ListenerOptions {
  config: pg.ClientConfig;
  channels: string[];
  onNotification(channel: string, payload: string): void;
  onReconnect(): void;
  logger: BusLogger;
  retryMs: number;
}

/** One process's LISTEN connection to one database, shared by every listener on it (the bus and the outbox). */
interface SharedConnection {
  /** Its key in `shared`: the connection settings. */
  key: string;
  config: pg.ClientConfig;
  client: pg.Client | undefined;
  /** The connection being opened, for a listener that comes meanwhile. */
  connecting: Promise<void> | undefined;
  listeners: Set<ListenerOptions>;
  /** Channels LISTENed on the current client. */
  listening: Set<string>;
  retry: NodeJS.Timeout | undefined;
}

const shared = new Map<string, SharedConnection>();

const firstOf = (c: SharedConnection): ListenerOptions | undefined => c.listeners.values().next().value;

const quote = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

/**
 * Holds one LISTEN connection for several channels and reconnects when it drops. Every listener of a process on the
 * same database shares one connection (and one PostgreSQL backend): the event bus and the outbox relay of a service
 * each LISTEN on it, and each is told only of its own channels. Notifications lost while disconnected are covered
 * by `onReconnect` (callers re-check everything) and by their own polling.
 */
export async function startListener(opts: ListenerOptions): Promise<Listener> {
  const key = JSON.stringify(opts.config);
  let conn = shared.get(key);
  if (!conn) {
    conn = {
      key,
      config: opts.config,
      client: undefined,
      connecting: undefined,
      listeners: new Set(),
      listening: new Set(),
      retry: undefined,
    };
    shared.set(key, conn);
  }
  const c = conn;
  c.listeners.add(opts);
  try {
    if (c.connecting) await c.connecting;
    if (c.client) await listenAll(c, c.client);
    else if (!c.retry) await connect(c);
    // Otherwise the connection is being restored: this listener is told so by onReconnect, as the others are.
  } catch (err) {
    await leave(c, opts, false);
    throw err;
  }
  let left = false;
  return {
    async close() {
      if (left) return;
      left = true;
      await leave(c, opts, false);
    },
    destroy() {
      if (left) return;
      left = true;
      void leave(c, opts, true);
    },
  };
}

async function listenAll(c: SharedConnection, client: pg.Client): Promise<void> {
  for (const l of c.listeners) {
    for (const ch of l.channels) {
      if (c.listening.has(ch)) continue;
      await client.query(`LISTEN ${quote(ch)}`);
      c.listening.add(ch);
    }
  }
}

/** Opens the connection; a listener that comes meanwhile waits for this attempt rather than opening a second one. */
function connect(c: SharedConnection): Promise<void> {
  c.connecting = open(c).finally(() => {
    c.connecting = undefined;
  });
  return c.connecting;
}

async function open(c: SharedConnection): Promise<void> {
  const client = new pg.Client(c.config);
  client.on('notification', (n) => {
    for (const l of c.listeners) if (l.channels.includes(n.channel)) l.onNotification(n.channel, n.payload ?? '');
  });
  client.on('error', (err) => {
    if (c.client !== client) return;
    firstOf(c)?.logger.warn({ err }, 'event bus LISTEN connection failed; reconnecting');
    lost(c, client);
  });
  client.on('end', () => lost(c, client));
  c.listening = new Set();
  try {
    await client.connect();
    c.client = client;
    await listenAll(c, client);
  } catch (err) {
    // A connection that opened but could not LISTEN (the server died in between) would otherwise stay open.
    if (c.client === client) c.client = undefined;
    client.end().catch(() => {});
    throw err;
  }
  if (c.listeners.size === 0) {
    c.client = undefined;
    await client.end().catch(() => {});
  }
}

function lost(c: SharedConnection, client: pg.Client): void {
  if (c.client !== client) return;
  c.client = undefined;
  client.end().catch(() => {});
  scheduleReconnect(c);
}

function scheduleReconnect(c: SharedConnection): void {
  if (c.retry || c.listeners.size === 0) return;
  const retryMs = Math.min(...[...c.listeners].map((l) => l.retryMs));
  c.retry = setTimeout(async () => {
    if (c.listeners.size === 0) {
      c.retry = undefined;
      return;
    }
    const attempt = connect(c);
    c.retry = undefined;
    try {
      await attempt;
      firstOf(c)?.logger.info({ databaseReachable: true }, 'event bus LISTEN connection restored');
      for (const l of c.listeners) l.onReconnect();
    } catch (err) {
      firstOf(c)?.logger.warn({ err }, 'event bus LISTEN reconnect failed');
      scheduleReconnect(c);
    }
  }, retryMs);
}

/** Takes a listener off its connection; the last one closes it (or, `abruptly`, drops it as a dying process would). */
async function leave(c: SharedConnection, opts: ListenerOptions, abruptly: boolean): Promise<void> {
  c.listeners.delete(opts);
  if (c.listeners.size > 0) return;
  if (shared.get(c.key) === c) shared.delete(c.key);
  clearTimeout(c.retry);
  c.retry = undefined;
  const client = c.client as (pg.Client & { connection?: { stream?: { destroy(): void } } }) | undefined;
  c.client = undefined;
  if (!client) return;
  if (abruptly) client.connection?.stream?.destroy();
  else await client.end().catch(() => {});
}
