import { hostname } from 'node:os';
import { TOPICS, type TokenState, type UserChangedEvent, UserChangedEventSchema } from '@flatship/proto';
import { Value } from 'typebox/value';
import type { EventBus } from './bus/port';
import { AppError, isAppError, statusOf, UNAVAILABLE_MESSAGE } from './errors';
import type { InternalClient } from './internal';

interface WarnLogger {
  warn(obj: object, msg?: string): void;
}

/**
 * Reads a user's token state from auth (`GET /internal/users/:id/token-state`),
 * for every service but auth itself. 404 means the user no longer exists, so
 * their tokens are refused; any other failure is ours, not the caller's: 503,
 * with the cause logged.
 */
export function createAuthTokenStateFetcher(auth: InternalClient, log: WarnLogger, timeoutMs = 3000) {
  return async (userId: string): Promise<TokenState | null> => {
    try {
      return await auth.request<TokenState>('GET', `/internal/users/${encodeURIComponent(userId)}/token-state`, {
        timeoutMs,
      });
    } catch (e) {
      if (isAppError(e) && statusOf(e.code) === 404) return null;
      log.warn({ err: e, userId }, 'could not read token state from auth');
      throw new AppError('SERVICE_UNAVAILABLE', UNAVAILABLE_MESSAGE);
    }
  };
}

/** A stream of `user.changed` events, applied to the token-state cache as they arrive. */
export interface UserChangeFeed {
  subscribe(onChange: (event: UserChangedEvent) => Promise<void> | void): Promise<{ close(): Promise<void> }>;
}

/** A consumer group name unique to this replica of `service`. */
export function replicaGroup(service: string): string {
  return `${service}-${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * A consumer group of its own for every replica: in a shared group each event
 * would reach one replica only, and the others would honour a blocked user's
 * token until their cache entry expired. Starting at the end is enough: older
 * changes are already what auth answers on a cache miss.
 */
export function createBusUserChangeFeed(
  bus: Pick<EventBus, 'subscribe'>,
  log: WarnLogger,
  service: string,
  group = replicaGroup(service),
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
