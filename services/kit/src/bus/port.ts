import type { Knex } from 'knex';
import type { TSchema } from 'typebox';

export interface BusMessage {
  topic: string;
  partition: number;
  /** Position in the partition, as a decimal string because offsets are 64-bit. */
  offset: string;
  key: string;
  value: unknown;
  headers: Record<string, string>;
  timestamp: Date;
}

export interface OutgoingMessage {
  /** Messages with the same key land in the same partition, so they are delivered in publish order. */
  key: string;
  /** Any JSON-serialisable value. */
  value: unknown;
  headers?: Record<string, string>;
}

export type MessageHandler = (msg: BusMessage) => Promise<void>;
/** Consecutive messages of one partition, in offset order; the batch commits (or is redelivered) as a whole. */
export type BatchHandler = (messages: BusMessage[]) => Promise<void>;

interface SubscribeCommon {
  /** Consumer group id; members of one group share partitions. */
  group: string;
  topics: string[];
  /** A group with no committed offset starts at the beginning (default) or at the end. */
  fromBeginning?: boolean;
  /** How many partitions this member processes at once (default 1). */
  concurrency?: number;
  /**
   * Attempts a handler gets for a message (or a batch) before the message goes to
   * the dead-letter topic `<topic>.dlq` (default 10). Failures because the
   * database is unreachable do not count: an outage would otherwise dead-letter
   * everything in flight. A batch past its limit is tried once more message by
   * message, so only the messages that still fail are dead-lettered.
   */
  maxAttempts?: number;
  /**
   * Every message value must pass this schema (`Value.Check`); one that does not
   * goes straight to the dead-letter topic without reaching the handler, since
   * redelivering it would never make it valid.
   */
  schema?: TSchema;
}

export type SubscribeOptions = SubscribeCommon &
  (
    | {
        /** Processed one message at a time per partition, in offset order; each offset is committed after it. */
        handler: MessageHandler;
        batchHandler?: never;
        maxBatchSize?: never;
      }
    | {
        handler?: never;
        /**
         * Takes up to `maxBatchSize` waiting messages of one partition at once and
         * commits past the last of them when it resolves; when it throws, the same
         * messages come again, so it must be idempotent per message, like a handler.
         */
        batchHandler: BatchHandler;
        /** Default: the bus's fetch size. */
        maxBatchSize?: number;
      }
  );

export interface Subscription {
  close(): Promise<void>;
}

/**
 * Delivery is at-least-once: an offset is committed only after the handler
 * (or batch handler) resolves, and one that throws sees the same messages again.
 * `subscribe` resolves once the member has joined its group and holds its
 * share of the partitions (or a bounded join wait has passed), so messages
 * published afterwards are spread over the members that have subscribed.
 */
export interface EventBus {
  publish(topic: string, messages: OutgoingMessage[]): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
}

/** Transactional outbox: events recorded in the caller's transaction and relayed to the bus afterwards. */
export interface Outbox {
  add(trx: Knex.Transaction, topic: string, messages: OutgoingMessage[]): Promise<void>;
  /** Starts relaying (LISTEN/NOTIFY + polling fallback); returns a stop function. */
  startRelay(): Promise<() => Promise<void>>;
  /** Relays everything pending now; returns how many messages were relayed (for tests and shutdown). */
  flush(): Promise<number>;
}

/** The subset of a pino logger the bus writes to, so any pino-compatible logger fits. */
export interface BusLogger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}
