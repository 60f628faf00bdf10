import type { UserChangedEvent } from '@flatship/proto';
import type { FastifyInstance } from 'fastify';

/** A stream of events one can subscribe to, such as the `user.changed` feed. */
export interface EventFeed<E> {
  subscribe(onEvent: (event: E) => Promise<void> | void): Promise<{ close(): Promise<void> }>;
}

/**
 * Subscribes `onEvent` to `feed` once the app is ready, and closes the
 * subscription when the app closes: building an app opens nothing, and a
 * closed app takes no more events.
 */
export function subscribeWhileOpen<E>(
  app: Pick<FastifyInstance, 'addHook'>,
  feed: EventFeed<E>,
  onEvent: (event: E) => Promise<void> | void,
): void {
  let subscription: { close(): Promise<void> } | undefined;
  app.addHook('onReady', async () => {
    subscription = await feed.subscribe(onEvent);
  });
  app.addHook('onClose', async () => {
    await subscription?.close();
  });
}

/**
 * Keeps a service's token-state cache current while the app is open: every `user.changed` event from
 * `feed` is applied the moment it arrives. Without a feed (or a cache that takes changes) a revoked
 * token still works until its cache entry expires.
 */
export function followUserChanges(
  app: Pick<FastifyInstance, 'addHook'>,
  feed: EventFeed<UserChangedEvent> | undefined,
  tokenState: { apply?(state: UserChangedEvent): void },
): void {
  const apply = tokenState.apply?.bind(tokenState);
  if (feed && apply) subscribeWhileOpen(app, feed, (event) => apply(event));
}
