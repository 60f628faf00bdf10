import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, emptyAdminDashboardHandlers, emptyDashboardHandlers, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const server = setupTestServer(
  verifyHandler(makeUser()),
  ...emptyDashboardHandlers(),
  ...emptyAdminDashboardHandlers(),
);

describe('Protected routes', () => {
  it('sends a visitor without a token to /login, replacing the history entry', async () => {
    const app = renderApp('/main/dashboard');
    await waitFor(() => expect(app.path()).toBe('/login'));
    expect(app.router.state.historyAction).toBe('REPLACE');
    expect(await screen.findByRole('heading', { name: 'Welcome Back!' })).toBeInTheDocument();
  });

  it('drops a token the server rejects and goes to /login', async () => {
    const app = renderApp('/main/orders', { token: 'bad-token' });
    await waitFor(() => expect(app.path()).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(app.store.getState().auth.token).toBeNull();
    expect(app.store.getState().auth.user).toBeNull();
  });

  it('shows a loader while verifying, then the page for a valid token', async () => {
    const app = renderApp('/main/dashboard', { token: 'good-token' });
    expect(screen.getByRole('status')).toHaveTextContent('Checking your session…');
    expect(await screen.findByText('Welcome back, Jane Shipper')).toBeInTheDocument();
    expect(app.path()).toBe('/main/dashboard');
    expect(localStorage.getItem('token')).toBe('good-token');
  });

  it('sends a visitor without a token away from /admin to /login', async () => {
    const app = renderApp('/admin/dashboard');
    await waitFor(() => expect(app.path()).toBe('/login'));
  });

  it('ends the session where the user stands when a later call says the account was blocked', async () => {
    server.use(
      http.get(api('orders/:userId'), () =>
        HttpResponse.json({ code: 'AUTH_ACCOUNT_BLOCKED', message: 'Your account has been blocked' }, { status: 403 }),
      ),
    );
    localStorage.setItem('adminSession', JSON.stringify({ token: 'admin-token', user: makeUser() }));
    const app = renderApp('/main/dashboard', { token: 'good-token' });
    expect(await screen.findByText('Welcome back, Jane Shipper')).toBeInTheDocument();

    await app.router.navigate('/main/orders');
    await waitFor(() => expect(app.path()).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('adminSession')).toBeNull();
    expect(app.store.getState().auth.user).toBeNull();
  });

  it('keeps the session when a call is refused for another reason', async () => {
    server.use(
      http.get(api('orders/:userId'), () =>
        HttpResponse.json({ code: 'FORBIDDEN', message: 'Not yours' }, { status: 403 }),
      ),
    );
    const app = renderApp('/main/dashboard', { token: 'good-token' });
    expect(await screen.findByText('Welcome back, Jane Shipper')).toBeInTheDocument();

    await app.router.navigate('/main/orders');
    expect(await screen.findByText('Error loading orders')).toBeInTheDocument();
    expect(app.path()).toBe('/main/orders');
    expect(localStorage.getItem('token')).toBe('good-token');
  });
});
