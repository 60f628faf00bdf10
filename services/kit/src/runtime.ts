import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createCachedTokenState } from './auth';
import type { BusSettings } from './bus/config';
import { type OpenedBus, openBus } from './bus/open';
import { createOutbox, type RelayedOutbox } from './bus/outbox';
import type { EventBus } from './bus/port';
import { createDb, type Knex, type Migration, migrate } from './db';
import { createInternalClient, type InternalClient } from './internal';
import { createLogger } from './logger';
import { flatshipMetrics } from './metrics';
import { createAuthTokenStateFetcher, createBusUserChangeFeed, type UserChangeFeed } from './remote-token-state';
import { type Running, runService } from './run';

/** What the runtime needs of a service's configuration, under its own names. */
export interface RuntimeSettings {
  host: string;
  port: number;
  logLevel: string;
  internalSecret: string;
  /** The grace period once a shutdown begins (`SHUTDOWN_TIMEOUT_MS`). */
  shutdownTimeoutMs: number;
  /** How long `/readyz` answers 503 before the listener closes (`SHUTDOWN_DRAIN_MS`). */
  shutdownDrainMs: number;
  bus: BusSettings;
  /** The main database pool (`DB_POOL_MAX`, `DB_POOL_IDLE_MS`); the service's own size and the default idle time when not given. */
  dbPool?: { max?: number | undefined; idleTimeoutMs?: number | undefined };
}

/** A configuration loaded with `BaseConfig` and a `PORT`: what every service but the gateway has. */
export interface ServiceConfig extends BusSettings {
  HOST: string;
  PORT: number;
  LOG_LEVEL: string;
  INTERNAL_SECRET: string;
  SHUTDOWN_TIMEOUT_MS: number;
  SHUTDOWN_DRAIN_MS: number;
  DB_POOL_MAX?: number | undefined;
  DB_POOL_IDLE_MS?: number | undefined;
}

export function runtimeSettingsOf(config: ServiceConfig): RuntimeSettings {
  return {
    host: config.HOST,
    port: config.PORT,
    logLevel: config.LOG_LEVEL,
    internalSecret: config.INTERNAL_SECRET,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: config.SHUTDOWN_DRAIN_MS,
    bus: config,
    dbPool: { max: config.DB_POOL_MAX, idleTimeoutMs: config.DB_POOL_IDLE_MS },
  };
}

/** The service database: where it is, its schema, its pool and how it is brought up to date. */
export interface DatabaseSpec {
  url: string;
  schema: string;
  /** Pool size (default 10); `DB_POOL_MAX` overrides it. */
  max?: number;
  /** Applied in order at start-up (`migrate`); the names applied are logged. */
  migrations?: Migration[];
  /** Instead of `migrations`: brings a schema another service owns up to date (the label worker and orders). */
  prepare?: (db: Knex) => Promise<unknown>;
}

export interface OutboxSpec {
  /** Rows relayed per transaction (default 100). */
  batchSize?: number;
}

export interface TokenStateSpec {
  /** Base URL of auth, which answers `GET /internal/users/:id/token-state`. */
  authUrl: string;
  /** How long a token state is cached; `user.changed` evicts it sooner. */
  ttlMs: number;
}

/** A job the service started (a sweeper, a reconciler): `stop` ends it and waits for the round in progress. */
export interface Stoppable {
  stop(): Promise<void>;
}

/** A client the service opened besides the database and the bus (carriers, SMTP, a second listener, a second pool). */
export interface Closable {
  close(): unknown;
}

export type CachedTokenState = ReturnType<typeof createCachedTokenState>;

/** What every service's `build` is given. */
export interface ServiceRuntime<C> {
  name: string;
  config: C;
  logger: Logger;
  bus: EventBus;
  /** A client for another service's `/internal/*` API, sending the shared secret. */
  internalClient(baseUrl: string, opts?: { timeoutMs?: number }): InternalClient;
  /** Registers a job once started: stopped first at shutdown, while everything it uses is still open. */
  job<J extends Stoppable>(job: J): J;
  /** Registers a client once opened: closed after the jobs, before the outbox relay, the bus and the database. */
  own<X extends Closable>(client: X): X;
}

// Each part the definition asks for appears in `build`'s runtime, typed as present; a part it leaves out is absent.
type DatabaseOf<D> = [D] extends [DatabaseSpec]
  ? { db: Knex }
  : [D] extends [undefined]
    ? { db?: undefined }
    : { db: Knex | undefined };
type OutboxOf<O> = [O] extends [OutboxSpec] ? { outbox: RelayedOutbox } : { outbox?: undefined };
type TokenStateOf<T> = [T] extends [TokenStateSpec]
  ? {
      tokenState: CachedTokenState;
      /** The client for auth's `/internal/*` API the token states are read with. */
      auth: InternalClient;
      /** `user.changed` on the bus, in a consumer group of this replica's own. */
      userChanges: UserChangeFeed;
    }
  : { tokenState?: undefined };

// Only a configuration that is not `ServiceConfig`-shaped has to say where its runtime settings are.
type SettingsOf<C> = C extends ServiceConfig
  ? { settings?: (config: C) => RuntimeSettings }
  : { settings: (config: C) => RuntimeSettings };

export type ServiceDefinition<
  C,
  D extends DatabaseSpec | undefined = undefined,
  O extends OutboxSpec | undefined = undefined,
  T extends TokenStateSpec | undefined = undefined,
> = {
  /** The process: its log lines' `service`, the Kafka client id, its consumer groups. */
  name: string;
  /** Reads the configuration (`loadConfig` with the service's schema); a `ConfigError` stops the process (exit 78). */
  config: () => C;
  /** The service database; left out, the service has none (and the postgres bus is not possible). */
  database?: (config: C) => D;
  /** Partition counts for topics the postgres bus creates on first use. */
  partitions?: (config: C) => Record<string, number>;
  /** Relays the outbox in the service database's schema (`<schema>.outbox`) to the bus. */
  outbox?: O;
  /** Token states read from auth and cached, for services that verify tokens (every one but auth). */
  tokenState?: (config: C) => T;
  /**
   * The service's own part: its clients, its ports, its app and its jobs. Jobs and clients are registered
   * with `job` and `own` as they start, so a start that fails later still stops them.
   */
  build: (runtime: ServiceRuntime<C> & DatabaseOf<D> & OutboxOf<O> & TokenStateOf<T>) => Promise<FastifyInstance>;
} & SettingsOf<C>;

/**
 * The start-up and the shutdown of a Flatship service, in one place (see README "Runtime"). Starts in order:
 * configuration → logger → database → migrations → bus → outbox relay → token state → the service's `build`
 * (clients, app, jobs) → metrics (bus lag, outbox depth) on the app's registry. The returned `close` (after the
 * app has closed) stops the jobs, closes the service's clients, stops the relay, flushes the outbox, closes the
 * bus and then the database. A start that fails part-way closes what it had opened, in that same order, and
 * rethrows. Does not listen: `runServiceRuntime` does, through `runService`.
 */
export async function startServiceRuntime<
  C,
  D extends DatabaseSpec | undefined = undefined,
  O extends OutboxSpec | undefined = undefined,
  T extends TokenStateSpec | undefined = undefined,
>(definition: ServiceDefinition<C, D, O, T>): Promise<Running> {
  const { name } = definition;
  const config = definition.config();
  const settings = definition.settings
    ? definition.settings(config)
    : runtimeSettingsOf(config as unknown as ServiceConfig);
  const logger = createLogger(name, settings.logLevel);
  const opened = createOpenedResources(logger);
  try {
    const database = definition.database?.(config);
    let db: Knex | undefined;
    if (database) {
      db = opened.database(
        createDb(database.url, database.schema, {
          max: settings.dbPool?.max ?? database.max,
          idleTimeoutMs: settings.dbPool?.idleTimeoutMs,
          logger,
        }),
      );
      if (database.migrations) {
        const applied = await migrate(db, database.schema, database.migrations);
        if (applied.length > 0) logger.info({ applied }, 'migrations applied');
      }
      await database.prepare?.(db);
    }

    const partitions = definition.partitions?.(config);
    const bus = opened.bus(
      await openBus({ config: settings.bus, db, logger, name, ...(partitions ? { partitions } : {}) }),
    );

    let outbox: RelayedOutbox | undefined;
    if (definition.outbox) {
      if (!db || !database) throw new Error(`${name}: the outbox lives in the service database, and there is none`);
      outbox = createOutbox({ db, schema: database.schema, bus: bus.bus, logger, ...definition.outbox });
      opened.relay(outbox, await outbox.startRelay());
    }

    const internalClient = (baseUrl: string, opts: { timeoutMs?: number } = {}) =>
      createInternalClient({ baseUrl, secret: settings.internalSecret, ...opts });
    const tokenStateSpec = definition.tokenState?.(config);
    const auth = tokenStateSpec ? internalClient(tokenStateSpec.authUrl) : undefined;

    const runtime = {
      name,
      config,
      logger,
      bus: bus.bus,
      internalClient,
      job: opened.job,
      own: opened.client,
      db,
      outbox,
      ...(auth && tokenStateSpec
        ? {
            auth,
            tokenState: createCachedTokenState(createAuthTokenStateFetcher(auth, logger), tokenStateSpec.ttlMs),
            userChanges: createBusUserChangeFeed(bus.bus, logger, name),
          }
        : {}),
    };
    // Which parts are present follows D, O and T, which the compiler cannot follow through the branches above.
    const app = opened.app(await definition.build(runtime as Parameters<typeof definition.build>[0]));

    bus.registerMetrics(app.metrics);
    if (outbox) flatshipMetrics(app.metrics).trackOutboxDepth(outbox.schema, outbox.depth);

    return {
      app,
      host: settings.host,
      port: settings.port,
      shutdownTimeoutMs: settings.shutdownTimeoutMs,
      drainMs: settings.shutdownDrainMs,
      close: () => opened.close(),
    };
  } catch (err) {
    // Each step that fails is logged; the error the caller needs is the one that stopped the start.
    await opened.closeAfterFailedStart().catch(() => {});
    throw err;
  }
}

/** `startServiceRuntime` as a process: listens, and shuts down on SIGTERM/SIGINT (see `runService`). */
export function runServiceRuntime<
  C,
  D extends DatabaseSpec | undefined = undefined,
  O extends OutboxSpec | undefined = undefined,
  T extends TokenStateSpec | undefined = undefined,
>(definition: ServiceDefinition<C, D, O, T>): Promise<Running> {
  return runService(definition.name, () => startServiceRuntime(definition));
}

/**
 * What a start has opened so far, and the one order it is closed in, whatever point the start reached. Each
 * part is closed before what it uses: jobs use the clients, the outbox, the bus and the database; the relay
 * and the last flush use the bus and the database; the postgres bus keeps its log in the database.
 */
function createOpenedResources(logger: Logger) {
  const jobs: Stoppable[] = [];
  const clients: Closable[] = [];
  let app: FastifyInstance | undefined;
  let relay: { outbox: RelayedOutbox; stop: () => Promise<void> } | undefined;
  let bus: OpenedBus | undefined;
  let db: Knex | undefined;

  const close = async () => {
    const failures: unknown[] = [];
    const step = async (what: string, run: () => unknown) => {
      try {
        await run();
      } catch (err) {
        failures.push(err);
        logger.error({ err }, `${what} failed at shutdown`);
      }
    };
    for (const job of jobs.splice(0).reverse()) await step('stopping a job', () => job.stop());
    for (const client of clients.splice(0).reverse()) await step('closing a client', () => client.close());
    if (relay) {
      const { outbox, stop } = relay;
      relay = undefined;
      await step('stopping the outbox relay', stop);
      // Whatever committed in the last moments goes out now rather than at the next start.
      await outbox.flush().catch((err: unknown) => logger.warn({ err }, 'outbox not fully relayed at shutdown'));
    }
    const openedBus = bus;
    bus = undefined;
    if (openedBus) await step('closing the bus', () => openedBus.close());
    const openDb = db;
    db = undefined;
    if (openDb) await step('closing the database', () => openDb.destroy());
    if (failures.length > 0) throw failures[0];
  };

  return {
    database(opened: Knex): Knex {
      db = opened;
      return opened;
    },
    bus(opened: OpenedBus): OpenedBus {
      bus = opened;
      return opened;
    },
    relay: (outbox: RelayedOutbox, stop: () => Promise<void>) => {
      relay = { outbox, stop };
    },
    job: <J extends Stoppable>(job: J): J => {
      jobs.push(job);
      return job;
    },
    client: <X extends Closable>(client: X): X => {
      clients.push(client);
      return client;
    },
    app(built: FastifyInstance): FastifyInstance {
      app = built;
      return built;
    },
    close,
    /** The app is closed too when it was built: `runService` closes it only once the service is running. */
    async closeAfterFailedStart() {
      const built = app;
      app = undefined;
      await built?.close().catch((err: unknown) => logger.error({ err }, 'closing the app failed at shutdown'));
      await close();
    },
  };
}
