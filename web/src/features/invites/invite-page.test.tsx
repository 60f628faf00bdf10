import type { InvitedUser } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, referralTermsHandler, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const server = setupTestServer(verifyHandler(makeUser({ _id: 'u-7', user_role: 'friend' })), referralTermsHandler());

/** Invited user `i` registered on day `i` of October 2026 at 09:30 UTC and deposited `i * 10` dollars. */
const invited = (i: number) => ({
  name: `Friend ${i}`,
  registeredDate: new Date(Date.UTC(2026, 9, i, 9, 30)).toISOString(),
  totalDeposit: i * 10,
});
const NINE = [9, 8, 7, 6, 5, 4, 3, 2, 1].map(invited);

let requested: string[] = [];
beforeEach(() => {
  requested = [];
});

function inviteHandlers({ code = 'FRIEND42', users = NINE } = {}) {
  server.use(
    http.get(api('invite/referral/:userId'), ({ params }) => {
      requested.push(`referral/${String(params.userId)}`);
      return HttpResponse.json({ referralCode: code });
    }),
    http.get(api('invite/:userId'), ({ params }) => {
      requested.push(String(params.userId));
      return HttpResponse.json({ invitedUsers: users });
    }),
  );
}

const table = () => within(screen.getByRole('table', { name: 'Invited Users' }));
const bodyRows = () => table().getAllByRole('row').slice(1);
const cellTexts = (column: number) => bodyRows().map((r) => within(r).getAllByRole('cell')[column]?.textContent);

describe('Invites page', () => {
  it('shows the invite link and referral code to copy, for the signed-in user', async () => {
    inviteHandlers();
    const app = renderApp('/main/invite', { token: 'good-token' });
    const link = `${window.location.origin}/register?ref=FRIEND42`;
    const linkBox = within(await screen.findByRole('region', { name: 'Invite Link' }));
    expect(await linkBox.findByText(link)).toBeInTheDocument();
    const codeBox = within(screen.getByRole('region', { name: 'Referral Code' }));
    expect(codeBox.getByText('FRIEND42')).toBeInTheDocument();
    expect(requested.sort()).toEqual(['referral/u-7', 'u-7']);

    await app.user.click(linkBox.getByRole('button', { name: `Copy ${link}` }));
    expect(linkBox.getByText('Copied!')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(link);

    await app.user.click(codeBox.getByRole('button', { name: 'Copy FRIEND42' }));
    await expect(navigator.clipboard.readText()).resolves.toBe('FRIEND42');
  });

  it('lists invited users 7 a page with name, registered date and total deposit', async () => {
    inviteHandlers();
    const app = renderApp('/main/invite', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(7));
    expect(
      table()
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Registered Date', 'Total Deposit', 'Your Bonus', 'Their Bonus']);
    expect(cellTexts(0)).toEqual(['Friend 9', 'Friend 8', 'Friend 7', 'Friend 6', 'Friend 5', 'Friend 4', 'Friend 3']);
    expect(cellTexts(2)[0]).toBe('$90.00');
    expect(cellTexts(1)[0]).toMatch(/^09-10-2026 \d\d:\d\d$/);

    await app.user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(cellTexts(0)).toEqual(['Friend 2', 'Friend 1']));
    expect(cellTexts(2)).toEqual(['$20.00', '$10.00']);
  });

  it('shows each referral’s bonus, both sides: credited with its date, waiting, withheld and why, or none', async () => {
    server.use(referralTermsHandler({ isEnabled: true, referrerBonus: 5, referredBonus: 5, minimumDeposit: 10 }));
    const friend = (name: string, bonus: InvitedUser['bonus'], totalDeposit = 0): InvitedUser => ({
      name,
      registeredDate: '2026-10-02T09:30:00.000Z',
      totalDeposit,
      ...(bonus ? { bonus } : {}),
    });
    inviteHandlers({
      users: [
        friend(
          'Paid Pat',
          {
            referrer: { status: 'credited', amount: 5, creditedAt: '2026-10-03T10:15:00.000Z' },
            referred: { status: 'credited', amount: 5, creditedAt: '2026-10-03T10:15:00.000Z' },
          },
          20,
        ),
        friend('Waiting Wes', {
          referrer: { status: 'waiting', amount: 5 },
          referred: { status: 'waiting', amount: 5 },
        }),
        friend('Small Sam', { referrer: { status: 'none', amount: 0 }, referred: { status: 'none', amount: 0 } }, 9.99),
        friend(
          'Blocked Bo',
          {
            referrer: { status: 'withheld', amount: 5, reason: 'blocked' },
            referred: { status: 'credited', amount: 5, creditedAt: '2026-10-04T08:00:00.000Z' },
          },
          50,
        ),
        friend('Old Olly', undefined),
      ],
    });
    renderApp('/main/invite', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(await screen.findByTestId('referral-bonus-terms')).toHaveTextContent(
      'You get $5.00 for each friend who joins with your code once their first deposit is paid, if it is $10.00 or more, and they get $5.00 too.',
    );
    expect(cellTexts(3)).toEqual([
      expect.stringMatching(/^\$5\.00 creditedon 03-10-2026 \d\d:15$/),
      '$5.00 after first deposit',
      'No bonus',
      'Not creditedaccount blocked',
      '—',
    ]);
    expect(cellTexts(4)).toEqual([
      expect.stringMatching(/^\$5\.00 creditedon 03-10-2026/),
      '$5.00 after first deposit',
      'No bonus',
      expect.stringMatching(/^\$5\.00 creditedon 04-10-2026/),
      '—',
    ]);
  });

  it('says nothing of a bonus while the program is off', async () => {
    inviteHandlers();
    renderApp('/main/invite', { token: 'good-token' });
    await waitFor(() => expect(bodyRows()).toHaveLength(7));
    expect(screen.queryByTestId('referral-bonus-terms')).not.toBeInTheDocument();
  });

  it('says so when the data cannot be loaded, with the server message when there is one', async () => {
    server.use(
      http.get(api('invite/referral/:userId'), () => HttpResponse.json({ referralCode: 'FRIEND42' })),
      http.get(api('invite/:userId'), () => new HttpResponse('bad gateway', { status: 502 })),
    );
    renderApp('/main/invite', { token: 'good-token' });
    expect(await screen.findByRole('alert')).toHaveTextContent('An error occurred while loading the data');
  });

  it('shows the server message when the server explains the failure', async () => {
    server.use(
      http.get(api('invite/referral/:userId'), () =>
        HttpResponse.json({ code: 'AUTH_USER_NOT_FOUND', message: 'User not found' }, { status: 404 }),
      ),
      http.get(api('invite/:userId'), () => HttpResponse.json({ invitedUsers: [] })),
    );
    renderApp('/main/invite', { token: 'good-token' });
    expect(await screen.findByRole('alert')).toHaveTextContent('User not found');
  });
});
