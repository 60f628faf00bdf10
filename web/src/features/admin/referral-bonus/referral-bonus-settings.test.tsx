import type { AdminReferralBonusReply } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures';
import { api, verifyHandler } from '../../../test/handlers';
import { setupTestServer } from '../../../test/msw';
import { renderApp } from '../../../test/render-app';

const OFF: AdminReferralBonusReply = {
  referrerBonus: 0,
  referredBonus: 0,
  minimumDeposit: 10,
  updatedAt: null,
  updatedBy: null,
};

const server = setupTestServer(
  verifyHandler(makeUser({ _id: 'a-1', user_role: 'admin' })),
  // The page's user picker lists users as it opens; nobody is picked in these tests.
  http.get(api('auth/users'), () =>
    HttpResponse.json({
      users: [],
      totalCount: 0,
      page: 1,
      limit: 10,
      totals: { balance: 0, totalDeposit: 0, totalSpent: 0 },
    }),
  ),
);

/** The settings endpoint as the admin service answers: what was last saved, and each PUT body recorded. */
function settingsHandlers(initial: AdminReferralBonusReply = OFF, onPut?: (body: unknown) => Response | undefined) {
  const puts: unknown[] = [];
  let current = initial;
  server.use(
    http.get(api('admin/referral-bonus'), () => HttpResponse.json(current)),
    http.put(api('admin/referral-bonus'), async ({ request }) => {
      const body = (await request.json()) as Record<string, string>;
      puts.push(body);
      const refused = onPut?.(body);
      if (refused) return refused;
      current = {
        message: 'Referral bonus saved',
        referrerBonus: Number(body.referrerBonus),
        referredBonus: Number(body.referredBonus),
        minimumDeposit: Number(body.minimumDeposit),
        updatedAt: '2026-11-20T15:45:00.000Z',
        updatedBy: { _id: 'a-1', name: 'Ada Admin', email: 'ada@flatship.test' },
      };
      return HttpResponse.json(current);
    }),
  );
  return puts;
}

async function openSection() {
  const app = renderApp('/admin/referral-management', { token: 'good-token' });
  const section = within(await screen.findByRole('region', { name: 'Referral bonus' }));
  await section.findByLabelText('Referrer bonus ($)');
  return { app, section };
}

describe('Referral bonus settings (admin, referral management)', () => {
  it('shows the settings, on their own section of the referral page, with the program in words', async () => {
    settingsHandlers({
      ...OFF,
      referrerBonus: 5,
      referredBonus: 2.5,
      updatedAt: '2026-11-19T08:05:00.000Z',
      updatedBy: { _id: 'a-9', name: 'Bea Boss', email: 'bea@flatship.test' },
    });
    const { section } = await openSection();
    expect(section.getByLabelText('Referrer bonus ($)')).toHaveValue('5.00');
    expect(section.getByLabelText('New user bonus ($)')).toHaveValue('2.50');
    expect(section.getByLabelText('Minimum first deposit ($)')).toHaveValue('10.00');
    expect(section.getByTestId('referral-bonus-state')).toHaveTextContent(
      'The referrer gets $5.00 and the new user gets $2.50 once the new user’s first deposit is paid, if it is $10.00 or more.',
    );
    expect(
      section.getByText(/^Last changed 19-11-2026 \d\d:05 by Bea Boss \(bea@flatship\.test\)$/),
    ).toBeInTheDocument();
  });

  it('says the program is off when both bonuses are 0', async () => {
    settingsHandlers();
    const { section } = await openSection();
    expect(section.getByTestId('referral-bonus-state')).toHaveTextContent('The program is off: no bonus is paid.');
  });

  it.each([
    ['Referrer bonus ($)', '-1', 'Referrer bonus must be 0 or more'],
    ['Referrer bonus ($)', '100.01', 'Referrer bonus must be at most $100.00'],
    ['New user bonus ($)', '2.555', 'New user bonus can have at most 2 decimal places'],
    ['New user bonus ($)', '', 'New user bonus is required'],
    ['Minimum first deposit ($)', 'ten', 'Minimum first deposit must be a number like 12 or 2.5'],
  ])('refuses %s = %j with a message naming the field, without asking the server', async (label, value, message) => {
    const puts = settingsHandlers();
    const { app, section } = await openSection();
    const input = section.getByLabelText(label);
    await app.user.clear(input);
    if (value) await app.user.type(input, value);
    await app.user.click(section.getByRole('button', { name: 'Save referral bonus' }));
    expect(await section.findByText(message)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(puts).toEqual([]);
  });

  it('saves after confirming the terms in words, then shows who changed them', async () => {
    const puts = settingsHandlers();
    const { app, section } = await openSection();
    await app.user.clear(section.getByLabelText('Referrer bonus ($)'));
    await app.user.type(section.getByLabelText('Referrer bonus ($)'), '5');
    await app.user.clear(section.getByLabelText('New user bonus ($)'));
    await app.user.type(section.getByLabelText('New user bonus ($)'), '5');
    await app.user.click(section.getByRole('button', { name: 'Save referral bonus' }));

    const dialog = within(await screen.findByRole('dialog', { name: 'Save referral bonus' }));
    expect(
      dialog.getByText(
        'The referrer gets $5.00 and the new user gets $5.00 once the new user’s first deposit is paid, if it is $10.00 or more. This applies to first deposits paid from now on.',
      ),
    ).toBeInTheDocument();
    await app.user.click(dialog.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(puts).toEqual([{ referrerBonus: '5', referredBonus: '5', minimumDeposit: '10.00' }]));
    expect(await section.findByText(/^Last changed 20-11-2026 \d\d:45 by Ada Admin/)).toBeInTheDocument();
    expect(section.getByLabelText('Referrer bonus ($)')).toHaveValue('5.00');
    await waitFor(() =>
      expect(app.store.getState().toast.toasts.map((t) => t.message)).toContain('Referral bonus saved'),
    );
  });

  it('cancelling the confirmation sends nothing', async () => {
    const puts = settingsHandlers();
    const { app, section } = await openSection();
    await app.user.click(section.getByRole('button', { name: 'Save referral bonus' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Save referral bonus' }));
    expect(dialog.getByText(/^The program is off: no bonus is paid\./)).toBeInTheDocument();
    await app.user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(puts).toEqual([]);
  });

  it('shows the server’s refusal', async () => {
    settingsHandlers(OFF, () =>
      HttpResponse.json(
        { code: 'VALIDATION_FAILED', message: 'Referrer bonus must be at most $100.00' },
        { status: 400 },
      ),
    );
    const { app, section } = await openSection();
    await app.user.click(section.getByRole('button', { name: 'Save referral bonus' }));
    await app.user.click(
      within(await screen.findByRole('dialog', { name: 'Save referral bonus' })).getByRole('button', { name: 'Save' }),
    );
    expect(await section.findByRole('alert')).toHaveTextContent('Referrer bonus must be at most $100.00');
  });

  it('says so when the settings cannot be loaded', async () => {
    server.use(http.get(api('admin/referral-bonus'), () => new HttpResponse('down', { status: 502 })));
    renderApp('/admin/referral-management', { token: 'good-token' });
    const section = within(await screen.findByRole('region', { name: 'Referral bonus' }));
    expect(await section.findByRole('alert')).toHaveTextContent('Failed to load the referral bonus');
    expect(section.queryByLabelText('Referrer bonus ($)')).not.toBeInTheDocument();
  });
});
