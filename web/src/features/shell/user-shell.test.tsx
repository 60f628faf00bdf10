import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import {
  emptyAdminDashboardHandlers,
  emptyDashboardHandlers,
  referralTermsHandler,
  verifyHandler,
} from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import type { Role } from '../auth/session-user';

const server = setupTestServer(
  verifyHandler(makeUser()),
  ...emptyDashboardHandlers(),
  ...emptyAdminDashboardHandlers(),
  referralTermsHandler(),
);

async function openShell(path: string, role: Role = 'user') {
  server.use(verifyHandler(makeUser({ user_role: role })));
  const app = renderApp(path, { token: 'good-token' });
  await screen.findByRole('button', { name: 'Account menu' });
  return app;
}

const nav = () => within(screen.getByRole('complementary', { name: 'Main navigation' }));

describe('User shell', () => {
  it('lists the user entries and hides Invites and Admin Panel from a plain user', async () => {
    await openShell('/main/dashboard', 'user');
    for (const label of [
      'Dashboard',
      'Order Label',
      'Bulk Order',
      'Orders',
      'Batch Orders',
      'Deposit',
      'Address',
      'SKU',
      'Account',
    ]) {
      expect(nav().getByRole('link', { name: label })).toBeInTheDocument();
    }
    expect(nav().queryByRole('link', { name: 'Invites' })).not.toBeInTheDocument();
    expect(nav().queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });

  it('shows Invites to a friend, but not the Admin Panel link', async () => {
    await openShell('/main/dashboard', 'friend');
    expect(nav().getByRole('link', { name: 'Invites' })).toHaveAttribute('href', '/main/invite');
    expect(nav().queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });

  it('shows Invites and the Admin Panel link to an admin', async () => {
    await openShell('/main/dashboard', 'admin');
    expect(nav().getByRole('link', { name: 'Invites' })).toBeInTheDocument();
    expect(nav().getByRole('link', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin/dashboard');
  });

  it.each([
    ['/main/dashboard', 'Dashboard'],
    ['/main/order-label', 'Order Label'],
    ['/main/bulk-order', 'Bulk Order'],
    ['/main/orders', 'Orders'],
    ['/main/batch-orders', 'Batch Orders'],
    ['/main/deposit', 'Deposit'],
    ['/main/address', 'Address'],
    ['/main/sku', 'SKU Management'],
    ['/main/admin', 'Admin Panel', 'admin'],
    ['/main/account', 'Manage Account'],
    ['/main/invite', 'Invite your friends', 'friend'],
    ['/main/somewhere-else', 'Welcome'],
  ] as [string, string, Role?][])('titles %s as %s', async (path, title, role) => {
    await openShell(path, role);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(title);
  });

  it('updates the title when navigating through the sidebar', async () => {
    const app = await openShell('/main/dashboard');
    await app.user.click(nav().getByRole('link', { name: 'SKU' }));
    expect(app.path()).toBe('/main/sku');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('SKU Management');
  });

  it('collapses the sidebar to icons and expands it again', async () => {
    const app = await openShell('/main/dashboard');
    const toggle = screen.getByRole('button', { name: 'Collapse sidebar' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await app.user.click(toggle);
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toHaveAttribute('aria-expanded', 'false');
    // Labels go, names stay: links remain reachable by name and carry a tooltip.
    expect(nav().getByRole('link', { name: 'Orders' })).toHaveAttribute('title', 'Orders');
    await app.user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(nav().getByRole('link', { name: 'Orders' })).not.toHaveAttribute('title');
  });

  it('opens the avatar menu from the keyboard, shows name and balance, and closes on Escape', async () => {
    const app = await openShell('/main/dashboard');
    const button = screen.getByRole('button', { name: 'Account menu' });
    expect(button).toHaveTextContent('JS');
    button.focus();
    await app.user.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Balance: $12.50')).toBeInTheDocument();
    expect(screen.getAllByText('Jane Shipper').length).toBeGreaterThan(0);

    await app.user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('Balance: $12.50')).not.toBeInTheDocument();
    expect(button).toHaveFocus();

    await app.user.keyboard(' ');
    expect(screen.getByText('Balance: $12.50')).toBeInTheDocument();
  });

  it('goes to the account page from the avatar menu', async () => {
    const app = await openShell('/main/dashboard');
    await app.user.click(screen.getByRole('button', { name: 'Account menu' }));
    const panel = within(screen.getByRole('region', { name: 'Your account' }));
    await app.user.click(panel.getByRole('link', { name: 'Account' }));
    expect(app.path()).toBe('/main/account');
  });

  it('logs out: clears the token and user and goes to /login', async () => {
    const app = await openShell('/main/dashboard');
    await app.user.click(screen.getByRole('button', { name: 'Account menu' }));
    await app.user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(app.path()).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(app.store.getState().auth.user).toBeNull();
  });
});
