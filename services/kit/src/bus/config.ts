import { Type } from 'typebox';
import { ConfigError } from '../config-error';

/** `host:port` pairs separated by commas, e.g. `kafka-0:9092,kafka-1:9092`. */
const BROKERS = '^\\s*[A-Za-z0-9.\\-\\[\\]:]+:\\d{1,5}\\s*(,\\s*[A-Za-z0-9.\\-\\[\\]:]+:\\d{1,5}\\s*)*$';

/** Which event bus a process uses; spread into a service's config schema (BaseConfig already does). */
export const BusConfig = {
  EVENT_BUS: Type.Union([Type.Literal('postgres'), Type.Literal('kafka')], {
    default: 'postgres',
    description: 'postgres: the event log lives in the service database (one machine); kafka: Kafka, at KAFKA_BROKERS',
  }),
  BUS_LEASE_TIMEOUT_MS: Type.Optional(
    Type.Integer({
      minimum: 1000,
      maximum: 300_000,
      shownDefault: '`10000`',
      description:
        'postgres bus: a consumer that stops renewing its partition leases (a killed process) loses them after this long, and a stopping one waits as long for its handlers; leases are renewed every third of it',
    }),
  ),
  KAFKA_BROKERS: Type.Optional(
    Type.String({
      pattern: BROKERS,
      shownDefault: 'required with `EVENT_BUS=kafka`',
      description: 'Kafka bootstrap brokers as host:port separated by commas; the start stops without them on Kafka',
    }),
  ),
  KAFKA_CLIENT_ID: Type.Optional(
    Type.String({ minLength: 1, shownDefault: 'the service name', description: 'client id the process gives Kafka' }),
  ),
  KAFKA_IDEMPOTENT: Type.Boolean({
    default: true,
    description:
      "idempotent producer (a retried send is written once); false only for a cluster that hands out no producer ids, such as librdkafka's mock cluster in tests",
  }),
  KAFKA_SESSION_TIMEOUT_MS: Type.Optional(
    Type.Integer({
      minimum: 3000,
      maximum: 300_000,
      shownDefault: '`30000`',
      description:
        'a consumer that stops heartbeating (a killed process) loses its partitions after this long; consumers heartbeat every third of it, at most every 3 s',
    }),
  ),
  KAFKA_LEADER_SYNC_DELAY_MS: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 10_000,
      shownDefault: '`0`',
      description:
        "how long a group's leader waits before sending the partition assignment when the group has other members; only for librdkafka's mock cluster in tests, whose coordinator refuses a member's SyncGroup that arrives after the leader's; keep it well below the session timeout",
    }),
  ),
};

export interface BusSettings {
  EVENT_BUS: 'postgres' | 'kafka';
  BUS_LEASE_TIMEOUT_MS?: number | undefined;
  KAFKA_BROKERS?: string | undefined;
  KAFKA_CLIENT_ID?: string | undefined;
  KAFKA_IDEMPOTENT?: boolean | undefined;
  KAFKA_SESSION_TIMEOUT_MS?: number | undefined;
  KAFKA_LEADER_SYNC_DELAY_MS?: number | undefined;
}

export type ChosenBus =
  | { kind: 'postgres'; leaseTimeoutMs?: number | undefined }
  | {
      kind: 'kafka';
      brokers: string[];
      clientId?: string | undefined;
      idempotent?: boolean | undefined;
      sessionTimeoutMs?: number | undefined;
      leaderSyncDelayMs?: number | undefined;
    };

/** The bus settings of a service's whole validated configuration: every key `BusConfig` declares, none other. */
export function busSettingsOf(config: BusSettings): BusSettings {
  const all = config as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.keys(BusConfig).map((key) => [key, all[key]])) as unknown as BusSettings;
}

/**
 * Resolves the bus settings, refusing combinations the schema alone cannot:
 * Kafka without brokers is a start-up error naming the missing variable.
 */
export function chooseBus(config: BusSettings): ChosenBus {
  if (config.EVENT_BUS !== 'kafka') return { kind: 'postgres', leaseTimeoutMs: config.BUS_LEASE_TIMEOUT_MS };
  const brokers = (config.KAFKA_BROKERS ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (brokers.length === 0) {
    throw new ConfigError([
      'KAFKA_BROKERS is required when EVENT_BUS=kafka: list the bootstrap brokers as host:port separated by commas',
    ]);
  }
  return {
    kind: 'kafka',
    brokers,
    clientId: config.KAFKA_CLIENT_ID,
    idempotent: config.KAFKA_IDEMPOTENT,
    sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
    leaderSyncDelayMs: config.KAFKA_LEADER_SYNC_DELAY_MS,
  };
}
