import { act, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { useFakeClock } from '../../test/fake-clock';
import { makeUser } from '../../test/fixtures';
import { api, emptyDashboardHandlers, referralTermsHandler, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { REFERRAL_REDIRECT_DELAY } from './onboarding-page';

const server = setupTestServer(verifyHandler(makeUser()), ...emptyDashboardHandlers(), referralTermsHandler());

function recordApply(reply: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.post(api('invite/referral/apply'), async ({ request }) => {
      bodies.push(await request.json());
      return reply();
    }),
  );
  return bodies;
}

async function openOnboarding() {
  const app = renderApp('/onboarding', { token: 'good-token' });
  await screen.findByRole('heading', { name: 'Welcome to Our Platform!' });
  return app;
}

describe('Onboarding page', () => {
  it('states the bonus exactly as the settings say: each amount, and the first deposit it needs', async () => {
    server.use(referralTermsHandler({ isEnabled: true, referrerBonus: 5, referredBonus: 2.5, minimumDeposit: 10 }));
    await openOnboarding();
    expect(await screen.findByText('Enter your referral code to claim your bonus rewards!')).toBeInTheDocument();
    expect(await screen.findByTestId('referral-bonus-terms')).toHaveTextContent(
      'You get $2.50 and the friend who invited you gets $5.00 once your first deposit is paid, if it is $10.00 or more.',
    );
  });

  it('names only the side that gets a bonus, and no minimum when there is none', async () => {
    server.use(referralTermsHandler({ isEnabled: true, referrerBonus: 0, referredBonus: 3, minimumDeposit: 0 }));
    await openOnboarding();
    expect(await screen.findByTestId('referral-bonus-terms')).toHaveTextContent(
      'You get $3.00 once your first deposit is paid.',
    );
  });

  it('promises nothing while the program is off', async () => {
    const app = await openOnboarding();
    expect(await screen.findByText('Enter the referral code of the friend who invited you.')).toBeInTheDocument();
    await waitFor(() => expect(app.store.getState().auth.referralTerms).not.toBeNull());
    expect(screen.queryByText(/bonus/i)).not.toBeInTheDocument();
  });

  it('promises nothing when the terms cannot be read', async () => {
    server.use(http.get(api('payment/referral-bonus'), () => new HttpResponse('down', { status: 502 })));
    await openOnboarding();
    expect(await screen.findByText('Enter the referral code of the friend who invited you.')).toBeInTheDocument();
    expect(screen.queryByText(/bonus/i)).not.toBeInTheDocument();
  });

  it('shows the prompt and switches button labels with the input', async () => {
    const app = await openOnboarding();
    expect(screen.getByText('Got a Referral Code?')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Skip for now' })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Apply Code' })).not.toBeInTheDocument();

    await app.user.type(screen.getByLabelText('Referral code'), 'FRIEND42');
    expect(screen.getByRole('button', { name: 'Apply Code' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Skip for now' })).toHaveLength(1);

    await app.user.clear(screen.getByLabelText('Referral code'));
    expect(screen.queryByRole('button', { name: 'Apply Code' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Skip for now' })).toHaveLength(1);
  });

  it('applies the code, stores the new session, confirms, then moves on after 1.5 s', async () => {
    const bodies = recordApply(() =>
      HttpResponse.json({
        success: true,
        token: 'referred-token',
        user: makeUser({ referredBy: 'u-9' }),
        message: 'Referral code applied',
      }),
    );
    const app = await openOnboarding();
    // The 1.5 s are counted on a fake clock.
    useFakeClock();
    await app.user.type(screen.getByLabelText('Referral code'), ' FRIEND42 ');
    await app.user.click(screen.getByRole('button', { name: 'Apply Code' }));

    expect(await screen.findByText('Referral code applied successfully!')).toBeInTheDocument();
    expect(app.path()).toBe('/onboarding');
    expect(bodies).toEqual([{ referralCode: 'FRIEND42' }]);
    expect(localStorage.getItem('token')).toBe('referred-token');
    expect(app.store.getState().auth.user?.referredBy).toBe('u-9');

    // Looking for the confirmation moved the clock 50 ms at most past it.
    act(() => vi.advanceTimersByTime(REFERRAL_REDIRECT_DELAY - 100));
    expect(app.path()).toBe('/onboarding');
    act(() => vi.advanceTimersByTime(100));
    expect(app.path()).toBe('/main/dashboard');
  });

  it('skips to the dashboard without any call', async () => {
    const bodies = recordApply(() => HttpResponse.json({ success: true }));
    const app = await openOnboarding();
    await app.user.type(screen.getByLabelText('Referral code'), 'FRIEND42');
    await app.user.click(screen.getByRole('button', { name: 'Skip for now' }));

    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
    expect(bodies).toHaveLength(0);
  });

  it('treats an empty code as skip', async () => {
    const bodies = recordApply(() => HttpResponse.json({ success: true }));
    const app = await openOnboarding();
    await app.user.click(screen.getByRole('button', { name: 'Skip for now' }));
    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
    expect(bodies).toHaveLength(0);
  });

  it("shows the server's message, else 'Failed to apply referral code'", async () => {
    recordApply(() =>
      HttpResponse.json({ code: 'REFERRAL_INVALID_CODE', message: 'Invalid referral code' }, { status: 404 }),
    );
    const app = await openOnboarding();
    await app.user.type(screen.getByLabelText('Referral code'), 'NOPE');
    await app.user.click(screen.getByRole('button', { name: 'Apply Code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid referral code');
    expect(app.path()).toBe('/onboarding');

    recordApply(() => new HttpResponse(null, { status: 500 }));
    await app.user.click(screen.getByRole('button', { name: 'Apply Code' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to apply referral code'));
  });
});
