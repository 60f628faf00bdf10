import Fastify from 'fastify';
import { expect, it, vi } from 'vitest';
import { type EventFeed, subscribeWhileOpen } from '../src/subscribe-while-open';

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
