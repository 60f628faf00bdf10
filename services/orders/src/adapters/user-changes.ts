import { hostname } from 'node:os';
import type { EventBus } from '@flatship/kit/bus';
import { TOPICS, type UserChangedEvent, UserChangedEventSchema } from '@flatship/proto';
import { Value } from 'typebox/value';

/** A stream of `user.changed` events; orders applies each to its token-state cache. */
export interface UserChangeFeed {
  subscribe(onChange: (event: UserChangedEvent) => Promise<void> | void): Promise<{ close(): Promise<void> }>;
}

interface Logger {
  warn(obj: object, msg?: string): void;
}

/**
 * A consumer group of its own for every replica: in a shared group each
 * event would reach one replica only, and the others would keep accepting a
 * revoked token until their cache entry expired. Starting at the end is
 * enough because older changes are already what auth answers on a miss.
 */
export function replicaGroup(): string {
  return `orders-${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

export function createBusUserChangeFeed(
  bus: Pick<EventBus, 'subscribe'>,
  log: Logger,
  group = replicaGroup(),
): UserChangeFeed {
  return {
    subscribe: (onChange) =>
      bus.subscribe({
        group,
        topics: [TOPICS.userChanged],
        fromBeginning: false,
        handler: async (msg) => {
          if (!Value.Check(UserChangedEventSchema, msg.value)) {
            // Redelivering a malformed event would never make it valid; skip it loudly.
            log.warn({ key: msg.key }, 'ignoring malformed user.changed event');
            return;
          }
          await onChange(msg.value);
        },
      }),
  };
}
