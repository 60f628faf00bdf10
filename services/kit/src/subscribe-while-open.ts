import type { UserChangedEvent } from '@flatship/proto';
import type { FastifyInstance } from 'fastify';

/** A stream of events one can subscribe to, such as the `user.changed` feed. */
export interface EventFeed<E> {
  subscribe(onEvent: (event: E) => Promise<void> | void): Promise<{ close(): Promise<void> }>;
}

interface Closeable {
  close(): Promise<void>;
}

/**
 * Opens what `open` gives (subscriptions, consumers) once the app is ready, and closes it when the app
 * closes: building an app opens nothing, and a closed app takes no more events.
 */
export function whileOpen(
  app: Pick<FastifyInstance, 'addHook'>,
  open: () => Promise<Closeable | readonly Closeable[]>,
): void {
  let held: readonly Closeable[] = [];
  app.addHook('onReady', async () => {
    const opened = await open();
    held = Array.isArray(opened) ? opened : [opened as Closeable];
  });
  app.addHook('onClose', async () => {
    await Promise.all(held.map((c) => c.close()));
  });
}

/** Subscribes `onEvent` to `feed` while the app is open (see `whileOpen`). */
export function subscribeWhileOpen<E>(
  app: Pick<FastifyInstance, 'addHook'>,
  feed: EventFeed<E>,
  onEvent: (event: E) => Promise<void> | void,
): void {
  whileOpen(app, () => feed.subscribe(onEvent));
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
