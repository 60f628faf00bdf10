import type { EventBus } from '@flatship/kit';
import { type BulkProgressEvent, BulkProgressEventSchema, TOPICS } from '@flatship/proto';
import { Value } from 'typebox/value';
import { replicaGroup } from './user-changes';

/** A stream of `bulk.progress` events; the gateway relays each to the order's room. */
export interface ProgressFeed {
  subscribe(onProgress: (event: BulkProgressEvent) => Promise<void> | void): Promise<{ close(): Promise<void> }>;
}

interface Logger {
  warn(obj: object, msg?: string): void;
}

/**
 * A consumer group of its own for every replica, as for `user.changed`: a
 * browser is connected to one replica only, so every replica must see every
 * event. Starting at the end is enough because a client that joins a room is
 * sent the order's current state at once.
 */
export function createBusProgressFeed(
  bus: Pick<EventBus, 'subscribe'>,
  log: Logger,
  group = replicaGroup(),
): ProgressFeed {
  return {
    subscribe: (onProgress) =>
      bus.subscribe({
        group,
        topics: [TOPICS.bulkProgress],
        fromBeginning: false,
        handler: async (msg) => {
          if (!Value.Check(BulkProgressEventSchema, msg.value)) {
            // Redelivering a malformed event would never make it valid; skip it loudly.
            log.warn({ key: msg.key }, 'ignoring malformed bulk.progress event');
            return;
          }
          await onProgress(msg.value);
        },
      }),
  };
}
