import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const server = setupTestServer(verifyHandler(makeUser()));

function recordPatch(reply: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.patch(api('auth/account'), async ({ request }) => {
      bodies.push(await request.json());
      return reply();
    }),
  );
  return bodies;
}

const ok = (name = 'Jane Q. Shipper') =>
  HttpResponse.json({ message: 'Account updated successfully', token: 'rotated-token', user: makeUser({ name }) });

async function openAccount() {
  const app = renderApp('/main/account', { token: 'good-token' });
  await screen.findByLabelText('Name');
  return app;
}

describe('Account page', () => {
  it('shows the name and a disabled email', async () => {
    await openAccount();
    expect(screen.getByLabelText('Name')).toHaveValue('Jane Shipper');
    expect(screen.getByLabelText('Email')).toHaveValue('jane@example.com');
    expect(screen.getByLabelText('Email')).toBeDisabled();
  });

  it('saves a new name and password, stores the new token and shows the message', async () => {
    const bodies = recordPatch(() => ok());
    const app = await openAccount();
    await app.user.clear(screen.getByLabelText('Name'));
    await app.user.type(screen.getByLabelText('Name'), 'Jane Q. Shipper');
    await app.user.type(screen.getByLabelText('Current password'), 'old-password');
    await app.user.type(screen.getByLabelText('New password'), 'new-password');
    await app.user.type(screen.getByLabelText('Confirm new password'), 'new-password');
    await app.user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Account updated successfully');
    expect(bodies).toEqual([{ name: 'Jane Q. Shipper', currentPassword: 'old-password', newPassword: 'new-password' }]);
    expect(localStorage.getItem('token')).toBe('rotated-token');
    expect(app.store.getState().auth.user?.name).toBe('Jane Q. Shipper');
    expect(screen.getByLabelText('New password')).toHaveValue('');
  });

  it('sends only the name when the password fields are blank', async () => {
    const bodies = recordPatch(() => ok('Jane Renamed'));
    const app = await openAccount();
    await app.user.clear(screen.getByLabelText('Name'));
    await app.user.type(screen.getByLabelText('Name'), 'Jane Renamed');
    await app.user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(bodies).toEqual([{ name: 'Jane Renamed' }]));
  });

  it.each([
    ['Name is required', { name: '' }],
    ['Password must be at least 8 characters', { current: 'old-password', next: 'short', confirm: 'short' }],
    ["Passwords don't match", { current: 'old-password', next: 'new-password', confirm: 'new-passw0rd' }],
    ['Current password is required to set a new password', { next: 'new-password', confirm: 'new-password' }],
  ])('refuses to send when the form breaks a rule: %s', async (message, values) => {
    const bodies = recordPatch(() => ok());
    const app = await openAccount();
    if ('name' in values) await app.user.clear(screen.getByLabelText('Name'));
    if ('current' in values) await app.user.type(screen.getByLabelText('Current password'), values.current);
    if ('next' in values) await app.user.type(screen.getByLabelText('New password'), values.next);
    if ('confirm' in values) await app.user.type(screen.getByLabelText('Confirm new password'), values.confirm);
    await app.user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(bodies).toHaveLength(0);
  });

  it("shows the server's error", async () => {
    recordPatch(() =>
      HttpResponse.json({ code: 'AUTH_WRONG_PASSWORD', message: 'Current password is incorrect' }, { status: 400 }),
    );
    const app = await openAccount();
    await app.user.type(screen.getByLabelText('Current password'), 'wrong-password');
    await app.user.type(screen.getByLabelText('New password'), 'new-password');
    await app.user.type(screen.getByLabelText('Confirm new password'), 'new-password');
    await app.user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Current password is incorrect');
    expect(localStorage.getItem('token')).toBe('good-token');
  });
});
