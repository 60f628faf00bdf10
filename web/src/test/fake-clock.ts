import { afterEach, vi } from 'vitest';

type WithJest = typeof globalThis & { jest?: { advanceTimersByTime(ms: number): void } };

afterEach(() => {
  vi.useRealTimers();
  delete (globalThis as WithJest).jest;
});

/**
 * Puts the page on a fake clock, for what the product times itself (a delay before a redirect, a debounce, a
 * token's expiry): the clock moves only when the test moves it (`vi.advanceTimersByTime`), or as Testing
 * Library waits (findBy*, waitFor: 50 ms of fake time a look), so no real time passes and a busy machine
 * changes nothing. Testing Library recognises fake timers by a global `jest`; it is given the one method it
 * uses. The user-event instance of `renderApp` moves the clock too.
 */
export function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  (globalThis as WithJest).jest = { advanceTimersByTime: (ms) => vi.advanceTimersByTime(ms) };
}
