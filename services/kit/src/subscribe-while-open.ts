import type { UserChangedEvent } from '@flatship/proto';
import type { FastifyInstance } from 'fastify';

/** A stream of events one can subscribe to, such as the `user.changed` feed. */
export interface EventFeed<E> {
  subscribe(onEvent: (event: E) => Promise<void> | void): Promise<{ close(): Promise<void> }>;
}

interface Closeable {
  close(): Promise<void>;
}

type Opener = () => Promise<Closeable | readonly Closeable[]>;

/** What each app opens while it is open, in the order `whileOpen` was called. */
const openers = new WeakMap<object, Opener[]>();

/**
 * Opens what `open` gives (subscriptions, consumers) once the app is ready, and closes it when the app
 * closes: building an app opens nothing, and a closed app takes no more events. Everything an app opens
 * this way is opened at once: each subscription resolves only when its consumer has joined its group,
 * which on Kafka takes seconds for a new group (the broker waits for more members) or a rebalance, so one
 * after another those waits would add up to the service's start. One that cannot open fails the start;
 * the others, opened meanwhile, are closed with the app.
 */
export function whileOpen(app: Pick<FastifyInstance, 'addHook'>, open: Opener): void {
  const known = openers.get(app);
  if (known) {
    known.push(open);
    return;
  }
  const list: Opener[] = [open];
  openers.set(app, list);
  const held: Closeable[] = [];
  app.addHook('onReady', async () => {
    const opened = await Promise.allSettled(list.map((o) => o()));
    for (const result of opened) {
      if (result.status === 'fulfilled') {
        const value = result.value;
        held.push(...(Array.isArray(value) ? value : [value as Closeable]));
      }
    }
    const failed = opened.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  });
  app.addHook('onClose', async () => {
    await Promise.all(held.splice(0).map((c) => c.close()));
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
