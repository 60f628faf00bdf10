import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, emptyDashboardHandlers, referralTermsHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const server = setupTestServer(...emptyDashboardHandlers(), referralTermsHandler());

type User = ReturnType<typeof renderApp>['user'];

async function fill(user: User, values: { name?: string; email?: string; password?: string; confirm?: string }) {
  if (values.name) await user.type(screen.getByLabelText('Name'), values.name);
  if (values.email) await user.type(screen.getByLabelText('Email'), values.email);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.confirm) await user.type(screen.getByLabelText('Confirm password'), values.confirm);
}

const complete = { name: 'Jane Shipper', email: 'jane@example.com', password: 'secret-pass', confirm: 'secret-pass' };

/** Records every register call and answers with a signed-in session. */
function recordRegister() {
  const bodies: unknown[] = [];
  server.use(
    http.post(api('auth/register'), async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json({ ok: true, token: 'new-token', user: makeUser(), message: 'Registered' });
    }),
  );
  return bodies;
}

describe('Register page', () => {
  it("says 'Please fill in all fields' and sends nothing when a field is empty", async () => {
    const bodies = recordRegister();
    const app = renderApp('/register');
    await screen.findByRole('heading', { name: 'Create an Account' });
    await fill(app.user, { ...complete, confirm: undefined });
    await app.user.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(bodies).toHaveLength(0);
    expect(app.path()).toBe('/register');
  });

  it('says "Passwords don\'t match" and sends nothing when the passwords differ', async () => {
    const bodies = recordRegister();
    const app = renderApp('/register');
    await screen.findByRole('heading', { name: 'Create an Account' });
    await fill(app.user, { ...complete, confirm: 'other-pass' });
    await app.user.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('alert')).toHaveTextContent("Passwords don't match");
    expect(bodies).toHaveLength(0);
  });

  it('creates the account and goes to onboarding when there is no referral code', async () => {
    const bodies = recordRegister();
    const app = renderApp('/register');
    await screen.findByRole('heading', { name: 'Create an Account' });
    expect(screen.queryByLabelText('Referral code')).not.toBeInTheDocument();
    await fill(app.user, complete);
    await app.user.click(screen.getByRole('button', { name: 'Register' }));

    await waitFor(() => expect(app.path()).toBe('/onboarding'));
    expect(bodies).toEqual([
      { name: 'Jane Shipper', email: 'jane@example.com', password: 'secret-pass', confirmPassword: 'secret-pass' },
    ]);
    expect(localStorage.getItem('token')).toBe('new-token');
    expect(await screen.findByRole('heading', { name: 'Welcome to Our Platform!' })).toBeInTheDocument();
  });

  it('sends the ?ref= code, shows it read-only and goes straight to the dashboard', async () => {
    const bodies = recordRegister();
    const app = renderApp('/register?ref=FRIEND42');
    await screen.findByRole('heading', { name: 'Create an Account' });
    const referral = screen.getByLabelText('Referral code');
    expect(referral).toHaveValue('FRIEND42');
    expect(referral).toHaveAttribute('readonly');
    await fill(app.user, complete);
    await app.user.click(screen.getByRole('button', { name: 'Register' }));

    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
    expect(bodies).toEqual([expect.objectContaining({ referralCode: 'FRIEND42' })]);
  });

  it("shows the server's message when registration is refused", async () => {
    server.use(
      http.post(api('auth/register'), () =>
        HttpResponse.json({ code: 'AUTH_EMAIL_TAKEN', message: 'Email already registered' }, { status: 409 }),
      ),
    );
    const app = renderApp('/register');
    await screen.findByRole('heading', { name: 'Create an Account' });
    await fill(app.user, complete);
    await app.user.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Email already registered');
    expect(app.path()).toBe('/register');
  });

  it("falls back to 'Registration failed' without a server message and to the retry text offline", async () => {
    server.use(http.post(api('auth/register'), () => new HttpResponse('Bad gateway', { status: 502 })));
    const app = renderApp('/register');
    await screen.findByRole('heading', { name: 'Create an Account' });
    await fill(app.user, complete);
    await app.user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Registration failed');

    server.use(http.post(api('auth/register'), () => HttpResponse.error()));
    await app.user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('An error occurred. Please try again.')).toBeInTheDocument();
  });
});
