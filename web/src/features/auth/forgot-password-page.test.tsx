import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const NEUTRAL =
  'If an account exists for this email, we have sent it a link to reset the password. The link works once, within 30 minutes.';

let asked: unknown[] = [];
/** The answer waits for this, so a test can see the page while the request is out, however fast the machine is. */
let answer: Promise<void> = Promise.resolve();
const server = setupTestServer(
  http.post(api('auth/forgot-password'), async ({ request }) => {
    asked.push(await request.json());
    await answer;
    return HttpResponse.json({ message: NEUTRAL });
  }),
);
beforeEach(() => {
  asked = [];
  answer = Promise.resolve();
});

describe('Forgot password page', () => {
  it('asks for a link for the typed email and shows the neutral confirmation', async () => {
    let send = () => {};
    answer = new Promise((resolve) => {
      send = resolve;
    });
    const app = renderApp('/forgot-password');
    expect(await screen.findByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    await app.user.type(screen.getByLabelText('Email'), '  jane@example.com ');
    await app.user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    send();

    expect(await screen.findByRole('status')).toHaveTextContent(NEUTRAL);
    expect(asked).toEqual([{ email: 'jane@example.com' }]);
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  });

  it('shows the server message when the request is refused (too many attempts), and the form stays', async () => {
    server.use(
      http.post(api('auth/forgot-password'), () =>
        HttpResponse.json(
          { code: 'RATE_LIMITED', message: 'Too many attempts. Please wait a minute and try again.' },
          { status: 429 },
        ),
      ),
    );
    const app = renderApp('/forgot-password');
    await app.user.type(await screen.findByLabelText('Email'), 'jane@example.com');
    await app.user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Please wait a minute and try again.',
    );
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeEnabled();
  });

  it('says so when the server cannot be reached', async () => {
    server.use(http.post(api('auth/forgot-password'), () => HttpResponse.error()));
    const app = renderApp('/forgot-password');
    await app.user.type(await screen.findByLabelText('Email'), 'jane@example.com');
    await app.user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to send the reset link. Please try again.');
  });
});
