export { migrateBus, migrateOutbox } from './migrate';
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
