export { BusConfig, type BusSettings, busSettingsOf, type ChosenBus, chooseBus } from './config';
export {
  DEAD_LETTER_HEADERS,
  DEFAULT_MAX_ATTEMPTS,
  type DeadLetterReason,
  deadLetterTopic,
} from './delivery';
// The Kafka adapter itself is not exported: openBus loads it (and kafkajs) only when Kafka is the bus.
export type { KafkaBus, KafkaBusOptions } from './kafka-bus';
export { CONSUMER_LAG_METRIC } from './lag';
export { migrateBus, migrateOutbox } from './migrate';
export { DEFAULT_BUS_SCHEMA, type OpenBusOptions, type OpenedBus, openBus } from './open';
export { createOutbox, type OutboxOptions, type RelayedOutbox } from './outbox';
export { murmur2, partitionFor } from './partitioner';
export type {
  BusLogger,
  BusMessage,
  EventBus,
  MessageHandler,
  Outbox,
  OutgoingMessage,
  SubscribeOptions,
  Subscription,
} from './port';
export {
  createPostgresBus,
  isPostgresBus,
  type LogEntry,
  type PostgresBus,
  type PostgresBusOptions,
} from './postgres-bus';
export { type PruneOptions, pruneBus } from './prune';
