import type { Knex } from 'knex';
import { Registry } from 'prom-client';
import { type BusSettings, chooseBus } from './config';
import type { KafkaBusOptions } from './kafka-bus';
import { CONSUMER_LAG_METRIC } from './lag';
import { migrateBus } from './migrate';
import type { BusLogger, EventBus } from './port';
import { createPostgresBus, type PostgresBusOptions } from './postgres-bus';

export const DEFAULT_BUS_SCHEMA = 'bus';

export interface OpenBusOptions {
  /** EVENT_BUS, BUS_LEASE_TIMEOUT_MS, KAFKA_BROKERS… as loaded with `BusConfig` (BaseConfig includes it). */
  config: BusSettings;
  /** The service database; required for the postgres bus, which keeps its log there in its own schema. */
  db?: Knex;
  logger: BusLogger;
  /** The service name: the default Kafka client id. */
  name: string;
  /** Partition count for topics the postgres bus creates on first use (Kafka's come from infra/kafka/topics.ts). */
  partitions?: PostgresBusOptions['partitions'];
  /** Adapter settings beyond the configuration (tests shorten timeouts with these). */
  postgres?: Omit<PostgresBusOptions, 'db' | 'logger' | 'partitions' | 'metrics'>;
  kafka?: Omit<KafkaBusOptions, 'brokers' | 'clientId' | 'logger' | 'metrics'>;
}

export interface OpenedBus {
  bus: EventBus;
  kind: 'postgres' | 'kafka';
  /**
   * True when the bus log lives in the service database, so the outbox appends
   * to it in the same transaction that deletes the outbox rows (each event
   * relayed exactly once); false for Kafka, where the relay publishes and then
   * deletes (at-least-once, consumers stay idempotent).
   */
  sharesDatabase: boolean;
  /** Adds the bus metrics (`flatship_bus_consumer_lag`) to a registry, e.g. the service's `app.metrics`. */
  registerMetrics(registry: Registry): void;
  close(): Promise<void>;
}

/**
 * Opens the event bus the configuration chooses: with EVENT_BUS=postgres (the
 * default) the log is migrated into the service database; with EVENT_BUS=kafka
 * the brokers in KAFKA_BROKERS are used and no database is needed for it.
 */
export async function openBus(opts: OpenBusOptions): Promise<OpenedBus> {
  const chosen = chooseBus(opts.config);
  const own = new Registry();
  const registerMetrics = (registry: Registry) => {
    const lag = own.getSingleMetric(CONSUMER_LAG_METRIC);
    if (lag && !registry.getSingleMetric(CONSUMER_LAG_METRIC)) registry.registerMetric(lag);
  };
  if (chosen.kind === 'kafka') {
    // kafkajs loads only when Kafka is the bus: the embedded stack's services run on PostgreSQL and never need it.
    const { createKafkaBus } = await import('./kafka-bus');
    const bus = createKafkaBus({
      ...opts.kafka,
      ...(chosen.idempotent === false ? { idempotent: false } : {}),
      ...(chosen.sessionTimeoutMs ? { sessionTimeoutMs: chosen.sessionTimeoutMs } : {}),
      ...(chosen.leaderSyncDelayMs ? { leaderSyncDelayMs: chosen.leaderSyncDelayMs } : {}),
      brokers: chosen.brokers,
      clientId: chosen.clientId ?? opts.name,
      logger: opts.logger,
      metrics: own,
    });
    return { bus, kind: 'kafka', sharesDatabase: false, registerMetrics, close: () => bus.close() };
  }
  if (!opts.db) throw new Error('the postgres event bus needs the service database');
  const schema = opts.postgres?.schema ?? DEFAULT_BUS_SCHEMA;
  await migrateBus(opts.db, schema);
  const bus = createPostgresBus({
    ...opts.postgres,
    ...(chosen.leaseTimeoutMs ? { leaseTimeoutMs: chosen.leaseTimeoutMs } : {}),
    db: opts.db,
    schema,
    logger: opts.logger,
    metrics: own,
    ...(opts.partitions ? { partitions: opts.partitions } : {}),
  });
  return { bus, kind: 'postgres', sharesDatabase: true, registerMetrics, close: () => bus.close() };
}
