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

  it('with a ?ref= code, states the referral bonus as the settings give it, or promises none when it is off', async () => {
    server.use(referralTermsHandler({ isEnabled: true, referrerBonus: 5, referredBonus: 5, minimumDeposit: 10 }));
    renderApp('/register?ref=FRIEND42');
    await screen.findByRole('heading', { name: 'Create an Account' });
    expect(await screen.findByTestId('referral-bonus-terms')).toHaveTextContent(
      'You get $5.00 and the friend who invited you gets $5.00 once your first deposit is paid, if it is $10.00 or more.',
    );
    expect(screen.queryByText('Your bonus is applied when the account is created.')).not.toBeInTheDocument();
  });

  it('with the bonus off, the code is described without a promise', async () => {
    const app = renderApp('/register?ref=FRIEND42');
    await screen.findByRole('heading', { name: 'Create an Account' });
    await waitFor(() => expect(app.store.getState().auth.referralTerms).not.toBeNull());
    expect(screen.getByText('This code links your account to the friend who invited you.')).toBeInTheDocument();
    expect(screen.queryByText(/bonus/i)).not.toBeInTheDocument();
  });

  it('a refused code (a blocked referrer’s) can be left out: the page offers to register without it', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(api('auth/register'), async ({ request }) => {
        const body = (await request.json()) as { referralCode?: string };
        bodies.push(body);
        if (body.referralCode) {
          return HttpResponse.json(
            { code: 'REFERRAL_CODE_INACTIVE', message: 'This referral code is no longer active' },
            { status: 409 },
          );
        }
        return HttpResponse.json(
          { ok: true, token: 'new-token', user: makeUser(), message: 'Registration successful' },
          { status: 201 },
        );
      }),
    );
    const app = renderApp('/register?ref=OLDCODE1');
    await screen.findByRole('heading', { name: 'Create an Account' });
    await fill(app.user, complete);
    await app.user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This referral code is no longer active');

    await app.user.click(screen.getByRole('link', { name: 'Register without this code' }));
    await waitFor(() => expect(app.router.state.location.search).toBe(''));
    expect(screen.queryByLabelText('Referral code')).not.toBeInTheDocument();
    // What was typed stays; the refusal, which was about the code, goes.
    expect(screen.getByLabelText('Email')).toHaveValue('jane@example.com');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(app.path()).toBe('/onboarding'));
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).not.toHaveProperty('referralCode');
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
