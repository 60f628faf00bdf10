import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { beforeAll, vi } from 'vitest';
import { App } from '../app/app';
import { preloadPages } from '../app/lazy-page';
import { routes } from '../app/router';
import type { SocketContext } from '../app/socket-saga';
import { createAppStore } from '../app/store';

// The pages are lazily loaded chunks; here their modules are read once before the tests, so a test's
// first render does not spend its time budget on compiling them (their loader and retry: lazy-page.test.tsx).
beforeAll(preloadPages, 120_000);

/**
 * Renders the real app (store, sagas, routes) at `path`. A `token` is put in
 * localStorage first, as if the user had signed in earlier. There is no
 * real-time server unless `socket` names one.
 */
export function renderApp(path: string, { token, socket }: { token?: string; socket?: SocketContext } = {}) {
  if (token) localStorage.setItem('token', token);
  const store = createAppStore({ socket: socket ?? { socketUrl: null } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // On a fake clock (test/fake-clock.ts) user-event's own pauses move it; on the real one they wait as usual.
  const user = userEvent.setup({ advanceTimers: (ms) => (vi.isFakeTimers() ? vi.advanceTimersByTime(ms) : undefined) });
  const view = render(<App store={store} router={router} />);
  return { ...view, store, router, user, path: () => router.state.location.pathname };
}
