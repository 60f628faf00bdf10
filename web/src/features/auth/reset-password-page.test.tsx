import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const DONE = 'Your password has been reset. Please log in with your new password.';
const INVALID = 'This password reset link is invalid, already used or expired. Please ask for a new one.';

let sent: unknown[] = [];
const server = setupTestServer(
  http.post(api('auth/reset-password'), async ({ request }) => {
    sent.push(await request.json());
    return HttpResponse.json({ message: DONE });
  }),
);
beforeEach(() => {
  sent = [];
});

async function fill(app: ReturnType<typeof renderApp>, password: string, confirm = password) {
  const first = await screen.findByLabelText('New password');
  await app.user.clear(first);
  if (password) await app.user.type(first, password);
  const second = screen.getByLabelText('Confirm new password');
  await app.user.clear(second);
  if (confirm) await app.user.type(second, confirm);
  await app.user.click(screen.getByRole('button', { name: 'Set new password' }));
}

describe('Reset password page', () => {
  it('sets the new password with the token of the link, then the login page confirms it', async () => {
    const app = renderApp('/reset-password?token=tok_123-abc');
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    await fill(app, 'a brand new passphrase');
    expect(await screen.findByRole('heading', { name: 'Welcome Back!' })).toBeInTheDocument();
    expect(app.path()).toBe('/login');
    expect(screen.getByRole('status')).toHaveTextContent(DONE);
    expect(sent).toEqual([{ token: 'tok_123-abc', password: 'a brand new passphrase' }]);
  });

  it('checks the fields before spending the link', async () => {
    const app = renderApp('/reset-password?token=tok');
    await fill(app, '', '');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields');
    await fill(app, 'a brand new passphrase', 'a brand new passphrasE');
    expect(screen.getByRole('alert')).toHaveTextContent("Passwords don't match");
    await fill(app, 'short', 'short');
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 8 characters');
    expect(sent).toEqual([]);
  });

  it('shows why a link is refused, with a way to ask for a new one', async () => {
    server.use(
      http.post(api('auth/reset-password'), () =>
        HttpResponse.json({ code: 'AUTH_RESET_LINK_INVALID', message: INVALID }, { status: 400 }),
      ),
    );
    const app = renderApp('/reset-password?token=used');
    await fill(app, 'a brand new passphrase');
    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID);
    expect(app.path()).toBe('/reset-password');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('a link without a token says so and offers no form', async () => {
    renderApp('/reset-password');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This password reset link is incomplete. Please ask for a new one.',
    );
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });
});
