import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const server = setupTestServer(verifyHandler(makeUser({ _id: 'u-7', user_role: 'friend' })));

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
    ).toEqual(['Name', 'Registered Date', 'Total Deposit']);
    expect(cellTexts(0)).toEqual(['Friend 9', 'Friend 8', 'Friend 7', 'Friend 6', 'Friend 5', 'Friend 4', 'Friend 3']);
    expect(cellTexts(2)[0]).toBe('$90.00');
    expect(cellTexts(1)[0]).toMatch(/^09-10-2026 \d\d:\d\d$/);

    await app.user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(cellTexts(0)).toEqual(['Friend 2', 'Friend 1']));
    expect(cellTexts(2)).toEqual(['$20.00', '$10.00']);
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
