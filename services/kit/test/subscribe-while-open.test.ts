import type { UserChangedEvent } from '@flatship/proto';
import Fastify from 'fastify';
import { expect, it, vi } from 'vitest';
import { type EventFeed, followUserChanges, subscribeWhileOpen } from '../src/subscribe-while-open';

it('subscribes when the app is ready and closes the subscription with the app', async () => {
  const close = vi.fn(async () => {});
  let deliver: ((event: string) => Promise<void> | void) | undefined;
  const feed: EventFeed<string> = {
    subscribe: vi.fn(async (onEvent) => {
      deliver = onEvent;
      return { close };
    }),
  };
  const seen: string[] = [];
  const app = Fastify();
  subscribeWhileOpen(app, feed, (event) => {
    seen.push(event);
  });
  expect(feed.subscribe).not.toHaveBeenCalled();
  await app.ready();
  expect(feed.subscribe).toHaveBeenCalledTimes(1);
  await deliver?.('a');
  expect(seen).toEqual(['a']);
  await app.close();
  expect(close).toHaveBeenCalledTimes(1);
});

it('applies user changes to the token state, and does nothing without a feed', async () => {
  let deliver: ((event: UserChangedEvent) => Promise<void> | void) | undefined;
  const feed: EventFeed<UserChangedEvent> = {
    subscribe: async (onEvent) => {
      deliver = onEvent;
      return { close: async () => {} };
    },
  };
  const applied: UserChangedEvent[] = [];
  const app = Fastify();
  followUserChanges(app, feed, { apply: (event) => applied.push(event) });
  followUserChanges(app, undefined, { apply: () => expect.fail('no feed, nothing applied') });
  await app.ready();
  const event = { userId: 'u1', tokenVersion: 2, active: false } as unknown as UserChangedEvent;
  await deliver?.(event);
  expect(applied).toEqual([event]);
  await app.close();
});
