import {
  type BusLogger,
  createBusUserChangeFeed as createFeed,
  type EventBus,
  replicaGroup as groupFor,
  type UserChangeFeed,
} from '@flatship/kit';

export type { UserChangeFeed };

/** Every gateway replica needs every event (token cache, live sockets), so each has its own group. */
export const replicaGroup = (): string => groupFor('gateway');

export function createBusUserChangeFeed(
  bus: Pick<EventBus, 'subscribe'>,
  log: Pick<BusLogger, 'warn'>,
  group = replicaGroup(),
): UserChangeFeed {
  return createFeed(bus, log, 'gateway', group);
}
