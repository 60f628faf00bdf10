import type { UserChangedEvent } from '@flatship/proto';
import Fastify from 'fastify';
import { expect, it, vi } from 'vitest';
import { type EventFeed, followUserChanges, subscribeWhileOpen, whileOpen } from '../src/subscribe-while-open';
import { waitFor } from '../src/testing/index';

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

it("opens every subscription of an app at once: none waits for another's group join", async () => {
  // A subscription resolves once its consumer has joined its group, which on Kafka takes seconds for a new group;
  // here each one resolves only when the other has started too, so opening them one after another never gets ready.
  let started = 0;
  const closed: string[] = [];
  const open = (name: string) => async () => {
    started++;
    await waitFor(`the subscription beside ${name} to start`, () => started === 2, 2000);
    return { close: async () => void closed.push(name) };
  };
  const app = Fastify();
  whileOpen(app, open('user.changed'));
  whileOpen(app, open('bulk.progress'));
  await app.ready();
  expect(started).toBe(2);
  await app.close();
  expect(closed.sort()).toEqual(['bulk.progress', 'user.changed']);
});

it('a subscription that cannot open fails the start, and the ones that opened are closed with the app', async () => {
  const closed: string[] = [];
  const app = Fastify();
  whileOpen(app, async () => ({ close: async () => void closed.push('first') }));
  whileOpen(app, async () => {
    throw new Error('kafka consumer of group g did not join the group within 1000 ms (topics t)');
  });
  whileOpen(app, async () => [{ close: async () => void closed.push('third') }]);
  await expect(app.ready()).rejects.toThrow('did not join the group within 1000 ms');
  await app.close();
  expect(closed.sort()).toEqual(['first', 'third']);
});
