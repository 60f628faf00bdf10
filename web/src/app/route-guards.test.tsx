import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionRefreshed } from '../features/auth/auth-slice';
import { makeUser } from '../test/fixtures';
import { api, emptyAdminDashboardHandlers, emptyDashboardHandlers, verifyHandler } from '../test/handlers';
import { setupTestServer } from '../test/msw';
import { renderApp } from '../test/render-app';
import { ROUTE_GUARD_MESSAGES } from './route-guards';

let requested: string[] = [];
beforeEach(() => {
  requested = [];
});

const server = setupTestServer(
  verifyHandler(makeUser()),
  ...emptyDashboardHandlers(),
  ...emptyAdminDashboardHandlers(),
  http.get(api('invite/referral/:userId'), ({ request }) => {
    requested.push(new URL(request.url).pathname);
    return HttpResponse.json({ referralCode: 'FRIEND42' });
  }),
  http.get(api('invite/:userId'), ({ request }) => {
    requested.push(new URL(request.url).pathname);
    return HttpResponse.json({ invitedUsers: [] });
  }),
);

const toastTexts = (app: ReturnType<typeof renderApp>) => app.store.getState().toast.toasts.map((t) => t.message);

describe('Pages for some roles only', () => {
  it('sends a plain user who opens /main/invite to the dashboard, saying why, without asking the server', async () => {
    const app = renderApp('/main/invite', { token: 'good-token' });
    expect(await screen.findByText('Welcome back, Jane Shipper')).toBeInTheDocument();
    expect(app.path()).toBe('/main/dashboard');
    expect(app.router.state.historyAction).toBe('REPLACE');
    expect(await screen.findByText(ROUTE_GUARD_MESSAGES.invitesOnly)).toBeInTheDocument();
    expect(toastTexts(app)).toEqual([ROUTE_GUARD_MESSAGES.invitesOnly]);
    expect(requested).toEqual([]);
  });

  it('shows the Invites page to a friend and to an admin', async () => {
    for (const role of ['friend', 'admin'] as const) {
      server.use(verifyHandler(makeUser({ user_role: role })));
      const app = renderApp('/main/invite', { token: 'good-token' });
      expect(await screen.findByRole('heading', { level: 2, name: 'Invite your friends' })).toBeInTheDocument();
      expect(app.path()).toBe('/main/invite');
      expect(toastTexts(app)).toEqual([]);
      app.unmount();
    }
  });

  it('sends a non-admin who opens /main/admin to the dashboard with a short message', async () => {
    const app = renderApp('/main/admin', { token: 'good-token' });
    expect(await screen.findByText('Welcome back, Jane Shipper')).toBeInTheDocument();
    expect(app.path()).toBe('/main/dashboard');
    expect(await screen.findByText(ROUTE_GUARD_MESSAGES.adminsOnly)).toBeInTheDocument();
    expect(toastTexts(app)).toEqual([ROUTE_GUARD_MESSAGES.adminsOnly]);
  });

  it('sends a friend who opens any /admin page to their dashboard, once, replacing the history entry', async () => {
    server.use(verifyHandler(makeUser({ user_role: 'friend' })));
    for (const path of ['/admin', '/admin/dashboard', '/admin/user-management', '/admin/no-such-page']) {
      const app = renderApp(path, { token: 'good-token' });
      expect(await screen.findByText('Welcome back, Jane Shipper')).toBeInTheDocument();
      expect(app.path(), path).toBe('/main/dashboard');
      expect(app.router.state.historyAction).toBe('REPLACE');
      expect(toastTexts(app), path).toEqual([ROUTE_GUARD_MESSAGES.adminsOnly]);
      app.unmount();
    }
  });

  it('lets an admin into /admin', async () => {
    server.use(verifyHandler(makeUser({ user_role: 'admin' })));
    const app = renderApp('/admin', { token: 'good-token' });
    expect(await screen.findByRole('heading', { name: 'Admin Panel' })).toBeInTheDocument();
    // The panel's layout shows before its index route has moved on to the dashboard.
    await waitFor(() => expect(app.path()).toBe('/admin/dashboard'));
    expect(toastTexts(app)).toEqual([]);
  });

  it('moves an admin who becomes a customer on an admin page (Login As) to the dashboard without a message', async () => {
    server.use(verifyHandler(makeUser({ user_role: 'admin' })));
    const app = renderApp('/admin', { token: 'good-token' });
    expect(await screen.findByRole('heading', { name: 'Admin Panel' })).toBeInTheDocument();
    app.store.dispatch(sessionRefreshed({ token: 'customer-token', user: makeUser({ user_role: 'user' }) }));
    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
    expect(await screen.findByText('Welcome back, Jane Shipper')).toBeInTheDocument();
    expect(toastTexts(app)).toEqual([]);
  });

  it('still sends a visitor without a token to /login, with no message', async () => {
    for (const path of ['/admin/dashboard', '/main/invite']) {
      localStorage.removeItem('token');
      const app = renderApp(path);
      await waitFor(() => expect(app.path()).toBe('/login'));
      expect(toastTexts(app)).toEqual([]);
      app.unmount();
    }
  });
});
