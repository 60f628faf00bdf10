import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, emptyDashboardHandlers, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { makeAdmin, recorder, resetViewport, setViewportWidth, usersHandler, usersReply } from './admin-test-support';

const server = setupTestServer(verifyHandler(makeAdmin()), ...emptyDashboardHandlers());

afterEach(resetViewport);

async function openAdmin(path = '/admin/dashboard') {
  const app = renderApp(path, { token: 'good-token' });
  await screen.findByRole('heading', { level: 1, name: 'Admin Panel' });
  return app;
}

const nav = () => within(screen.getByRole('complementary', { name: 'Admin navigation' }));
const shell = () => document.querySelector('.admin-shell') as HTMLElement;

describe('Admin shell', () => {
  it('links every admin screen and the way back to the user area, under the header Admin Panel', async () => {
    setViewportWidth(1280);
    await openAdmin();
    for (const [label, href] of [
      ['Dashboard', '/admin/dashboard'],
      ['User Management', '/admin/user-management'],
      ['Order Label Management', '/admin/order-label-management'],
      ['Referral Management', '/admin/referral-management'],
      ['Default Services', '/admin/default-services'],
      ['User Volume Rankings', '/admin/user-volume-rankings'],
      ['Back to user area', '/main/dashboard'],
    ]) {
      expect(nav().getByRole('link', { name: label })).toHaveAttribute('href', href);
    }
  });

  it('opens the user management page from the sidebar', async () => {
    setViewportWidth(1280);
    const rec = recorder();
    server.use(usersHandler(rec, usersReply([])));
    const app = await openAdmin();
    await app.user.click(nav().getByRole('link', { name: 'User Management' }));
    expect(app.path()).toBe('/admin/user-management');
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });

  it('at 1024 px and wider the sidebar is open, has no hamburger, and collapses to icons and back', async () => {
    setViewportWidth(1024);
    const app = await openAdmin();
    expect(screen.queryByRole('button', { name: 'Open menu' })).not.toBeInTheDocument();
    expect(shell()).not.toHaveClass('shell--mobile');
    expect(shell()).not.toHaveClass('shell--collapsed');
    expect(nav().getByRole('link', { name: 'User Management' })).not.toHaveAttribute('title');

    await app.user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(shell()).toHaveClass('shell--collapsed');
    expect(nav().getByRole('link', { name: 'User Management' })).toHaveAttribute('title', 'User Management');

    await app.user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(shell()).not.toHaveClass('shell--collapsed');
  });

  it('below 1024 px the sidebar starts closed; the hamburger opens it and the dark overlay closes it', async () => {
    setViewportWidth(1023);
    const app = await openAdmin();
    const sidebar = screen.getByRole('complementary', { hidden: true, name: 'Admin navigation' });
    const hamburger = screen.getByRole('button', { name: 'Open menu' });
    expect(shell()).toHaveClass('shell--mobile');
    expect(shell()).not.toHaveClass('shell--mobile-open');
    expect(sidebar).toHaveAttribute('inert');
    expect(hamburger).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Collapse sidebar' })).not.toBeInTheDocument();

    await app.user.click(hamburger);
    expect(shell()).toHaveClass('shell--mobile-open');
    expect(sidebar).not.toHaveAttribute('inert');
    expect(hamburger).toHaveAttribute('aria-expanded', 'true');

    await app.user.click(screen.getByTestId('sidebar-backdrop'));
    expect(shell()).not.toHaveClass('shell--mobile-open');
    expect(screen.queryByTestId('sidebar-backdrop')).not.toBeInTheDocument();
  });

  it('on small screens following a link closes the sidebar, and Escape closes it too', async () => {
    setViewportWidth(390);
    const rec = recorder();
    server.use(usersHandler(rec, usersReply([])));
    const app = await openAdmin();
    await app.user.click(screen.getByRole('button', { name: 'Open menu' }));
    await app.user.click(nav().getByRole('link', { name: 'User Management' }));
    expect(app.path()).toBe('/admin/user-management');
    expect(shell()).not.toHaveClass('shell--mobile-open');

    await app.user.click(screen.getByRole('button', { name: 'Open menu' }));
    await app.user.keyboard('{Escape}');
    expect(shell()).not.toHaveClass('shell--mobile-open');
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();
  });

  it.each(['user', 'friend'] as const)('sends a signed-in %s to their dashboard', async (role) => {
    server.use(verifyHandler(makeUser({ user_role: role })));
    const app = renderApp('/admin/user-management', { token: 'good-token' });
    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
  });

  it('after a reload while signed in as a user, shows the banner and sends admin addresses to the user dashboard', async () => {
    const jane = makeUser({ _id: 'u-1', name: 'Jane Shipper', email: 'jane@example.com' });
    server.use(verifyHandler(jane, 'jane-token'));
    localStorage.setItem('adminSession', JSON.stringify({ token: 'good-token', user: makeAdmin() }));
    const app = renderApp('/admin/user-management', { token: 'jane-token' });
    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
    expect(await screen.findByRole('region', { name: 'Signed in as another user' })).toHaveTextContent(
      'You are signed in as Jane Shipper (jane@example.com) by admin Ada Admin',
    );
  });

  it('knows a Login As token by its imp claim even without the kept admin session, and offers to sign out', async () => {
    const jane = makeUser({ _id: 'u-1', name: 'Jane Shipper', email: 'jane@example.com' });
    const payload = btoa(JSON.stringify({ sub: 'u-1', role: 'user', ver: 1, imp: 'admin-1' })).replace(/=+$/, '');
    const token = `eyJhbGciOiJIUzI1NiJ9.${payload}.signature`;
    const ended: (string | null)[] = [];
    server.use(
      verifyHandler(jane, token),
      http.post(api('auth/login-as/end'), ({ request }) => {
        ended.push(request.headers.get('token'));
        return HttpResponse.json({ message: 'You are back in your own account.' });
      }),
    );
    const app = renderApp('/main/dashboard', { token });
    const banner = await screen.findByRole('region', { name: 'Signed in as another user' });
    expect(banner).toHaveTextContent('You are signed in as Jane Shipper (jane@example.com) by an admin.');
    expect(within(banner).queryByRole('button', { name: 'Back to admin' })).not.toBeInTheDocument();
    await app.user.click(within(banner).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(app.path()).toBe('/login'));
    // Signing out ends the Login As token on the server too.
    await waitFor(() => expect(ended).toEqual([token]));
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
  });

  it('shows no banner in an ordinary session', async () => {
    server.use(verifyHandler(makeUser()));
    renderApp('/main/dashboard', { token: 'good-token' });
    await screen.findByRole('button', { name: 'Account menu' });
    expect(screen.queryByRole('region', { name: 'Signed in as another user' })).not.toBeInTheDocument();
  });

  it('sends a visitor without a session to /login', async () => {
    const app = renderApp('/admin/user-management');
    await waitFor(() => expect(app.path()).toBe('/login'));
  });
});
