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
