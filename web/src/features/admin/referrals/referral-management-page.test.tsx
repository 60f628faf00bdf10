import type { AdminUserRow, AdminUsersReply, InvitedUser } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures';
import { api, verifyHandler } from '../../../test/handlers';
import { setupTestServer } from '../../../test/msw';
import { renderApp } from '../../../test/render-app';

const server = setupTestServer(
  verifyHandler(makeUser({ _id: 'a-1', user_role: 'admin' })),
  // The page's referral bonus section reads its settings; its own tests are in referral-bonus-settings.test.tsx.
  http.get(api('admin/referral-bonus'), () =>
    HttpResponse.json({ referrerBonus: 0, referredBonus: 0, minimumDeposit: 10, updatedAt: null, updatedBy: null }),
  ),
);

const jane = makeUser({ _id: 'u-1', name: 'Jane Shipper', email: 'jane@example.com', referralCode: 'JANE123' });
const bob = makeUser({ _id: 'u-2', name: 'Bob Sender', email: 'bob@example.com', referralCode: 'BOB9' });

const reply = (users: AdminUserRow[]): AdminUsersReply => ({
  users,
  totalCount: users.length,
  page: 1,
  limit: 10,
  totals: { balance: 0, totalDeposit: 0, totalSpent: 0 },
});

const invited = (n: number): InvitedUser[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `Friend ${i + 1}`,
    registeredDate: '2026-03-04T09:30:00.000Z',
    totalDeposit: 10 * (i + 1),
  }));

/** The user search, matching like the server does (name, email or code), recording each query. */
function searchHandler(searches: URLSearchParams[] = []) {
  return http.get(api('auth/users'), ({ request }) => {
    const params = new URL(request.url).searchParams;
    searches.push(params);
    const q = (params.get('search') ?? '').toLowerCase();
    const found = [jane, bob].filter((u) => [u.name, u.email, u.referralCode].some((t) => t.toLowerCase().includes(q)));
    return HttpResponse.json(reply(found));
  });
}

function userHandlers({ code = 'JANE123', friends = invited(2) } = {}) {
  return [
    http.get(api('invite/referral/:userId'), ({ params }) =>
      HttpResponse.json({ referralCode: params.userId === 'u-1' ? code : 'BOB9' }),
    ),
    http.get(api('invite/:userId'), ({ params }) =>
      HttpResponse.json({ invitedUsers: params.userId === 'u-1' ? friends : [] }),
    ),
  ];
}

async function openPage() {
  const app = renderApp('/admin/referral-management', { token: 'good-token' });
  await screen.findByRole('heading', { name: 'Referral Management' });
  return app;
}

async function pickUser(
  app: ReturnType<typeof renderApp>,
  text: string,
  option: RegExp,
  searched: () => void = () => {},
) {
  const input = screen.getByRole('combobox', { name: 'User' });
  await app.user.clear(input);
  await app.user.type(input, text);
  await waitFor(searched);
  await app.user.click(await screen.findByRole('option', { name: option }));
}

const failure = (status = 500, message = 'Something broke') =>
  HttpResponse.json({ code: 'INTERNAL', message }, { status });

describe('Referral management', () => {
  it('searches users on the server, 10 at a time, and shows the chosen user’s code and invited users', async () => {
    const searches: URLSearchParams[] = [];
    server.use(searchHandler(searches), ...userHandlers());
    const app = await openPage();
    await pickUser(app, 'bob', /Bob Sender/);
    await pickUser(app, 'jane', /Jane Shipper/, () =>
      expect(searches.map((s) => [s.get('search'), s.get('limit')])).toContainEqual(['jane', '10']),
    );
    // Typing waits for a pause: not one request per key.
    expect(searches.map((s) => s.get('search'))).not.toContain('j');
    // Before anything is typed the picker lists the first users: no search is sent.
    expect(searches.map((s) => s.get('search'))).toContain(null);
    expect(await screen.findByTestId('current-referral-code')).toHaveTextContent('JANE123');
    const table = await screen.findByRole('table', { name: 'Invited users' });
    const rows = within(table).getAllByRole('row');
    expect(rows[0]).toHaveTextContent('NameRegisteredTotal deposit');
    expect(rows[1]).toHaveTextContent('Friend 1');
    expect(rows[1]).toHaveTextContent('04-03-2026');
    expect(rows[2]).toHaveTextContent('$20.00');
  });

  it('pages the invited users 7 at a time', async () => {
    server.use(searchHandler(), ...userHandlers({ friends: invited(9) }));
    const app = await openPage();
    await pickUser(app, 'jane', /Jane Shipper/);
    const table = await screen.findByRole('table', { name: 'Invited users' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 7);
    await app.user.click(screen.getByRole('button', { name: 'Next' }));
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 2);
    expect(within(table).getByText('Friend 8')).toBeInTheDocument();
  });

  it('shows loading text, then says when the user invited nobody', async () => {
    server.use(
      searchHandler(),
      http.get(api('invite/referral/:userId'), () => HttpResponse.json({ referralCode: 'BOB9' })),
      http.get(api('invite/:userId'), async () => {
        await delay(150);
        return HttpResponse.json({ invitedUsers: [] });
      }),
    );
    const app = await openPage();
    await pickUser(app, 'bob', /Bob Sender/);
    expect(await screen.findByText('Loading invited users…')).toBeInTheDocument();
    expect(await screen.findByText('No invited users yet.')).toBeInTheDocument();
  });

  it('says so when the users, the code or the invited users cannot be loaded', async () => {
    server.use(
      http.get(api('auth/users'), ({ request }) =>
        new URL(request.url).searchParams.get('search') === 'broken' ? failure() : HttpResponse.json(reply([jane])),
      ),
      http.get(api('invite/referral/:userId'), () => failure()),
      http.get(api('invite/:userId'), () => failure(503, 'Auth is unavailable')),
    );
    const app = await openPage();
    await pickUser(app, 'jane', /Jane Shipper/);
    expect(await screen.findByText('Failed to load referral code', { selector: 'p' })).toHaveClass(
      'referral-management__error',
    );
    expect(await screen.findByText('Failed to load invited users', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getByText('Auth is unavailable')).toBeInTheDocument();
    const toasts = () => app.store.getState().toast.toasts.map((t) => t.message);
    expect(toasts()).toEqual(expect.arrayContaining(['Failed to load referral code', 'Failed to load invited users']));

    await app.user.type(screen.getByRole('combobox', { name: 'User' }), 'broken');
    await waitFor(() => expect(toasts()).toContain('Failed to load users'));
  });

  it('refuses an empty code without asking the server', async () => {
    let calls = 0;
    server.use(
      searchHandler(),
      ...userHandlers(),
      http.post(api('auth/users/details/:id'), () => {
        calls += 1;
        return failure();
      }),
    );
    const app = await openPage();
    await pickUser(app, 'jane', /Jane Shipper/);
    await app.user.type(screen.getByLabelText('New referral code'), '   ');
    await app.user.click(screen.getByRole('button', { name: 'Update referral code' }));
    expect(await screen.findByText('Referral code is required')).toBeInTheDocument();
    expect(screen.getByLabelText('New referral code')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toBe(0);
  });

  it('refuses a code that is too short or not letters and digits, naming the field, without asking the server', async () => {
    let calls = 0;
    server.use(
      searchHandler(),
      ...userHandlers(),
      http.post(api('auth/users/details/:id'), () => {
        calls += 1;
        return failure();
      }),
    );
    const app = await openPage();
    await pickUser(app, 'jane', /Jane Shipper/);
    for (const code of ['X', 'AB1', 'has space', 'dash-ed']) {
      await app.user.clear(screen.getByLabelText('New referral code'));
      await app.user.type(screen.getByLabelText('New referral code'), code);
      await app.user.click(screen.getByRole('button', { name: 'Update referral code' }));
      expect(await screen.findByText('Referral code must be 4 to 32 letters or digits')).toBeInTheDocument();
    }
    expect(calls).toBe(0);
  });

  it('shows both sides of each invited user’s referral bonus', async () => {
    const friends: InvitedUser[] = [
      {
        name: 'Paid Pat',
        registeredDate: '2026-03-04T09:30:00.000Z',
        totalDeposit: 20,
        bonus: {
          referrer: { status: 'withheld', amount: 5, reason: 'blocked' },
          referred: { status: 'credited', amount: 5, creditedAt: '2026-03-05T10:00:00.000Z' },
        },
      },
    ];
    server.use(searchHandler(), ...userHandlers({ friends }));
    const app = await openPage();
    await pickUser(app, 'jane', /Jane Shipper/);
    const table = await screen.findByRole('table', { name: 'Invited users' });
    const [head, row] = within(table).getAllByRole('row');
    expect(head).toHaveTextContent('NameRegisteredTotal depositReferrer bonusNew user bonus');
    expect(row).toHaveTextContent('Not creditedaccount blocked');
    expect(row).toHaveTextContent('$5.00 creditedon 05-03-2026');
  });

  it('sets a new code with only the code in the body and shows the server message', async () => {
    const sent: { id: unknown; body: unknown }[] = [];
    server.use(
      searchHandler(),
      ...userHandlers(),
      http.post(api('auth/users/details/:id'), async ({ request, params }) => {
        sent.push({ id: params.id, body: await request.json() });
        return HttpResponse.json({
          message: 'User details updated successfully',
          user: { _id: 'u-1', balance: 12.5, referralCode: 'SPRING26' },
        });
      }),
    );
    const app = await openPage();
    await pickUser(app, 'jane', /Jane Shipper/);
    await screen.findByTestId('current-referral-code');
    await app.user.type(screen.getByLabelText('New referral code'), ' spring26 ');
    await app.user.click(screen.getByRole('button', { name: 'Update referral code' }));
    expect(await screen.findByText('User details updated successfully')).toBeInTheDocument();
    expect(sent).toEqual([{ id: 'u-1', body: { referralCode: 'spring26' } }]);
    expect(screen.getByTestId('current-referral-code')).toHaveTextContent('SPRING26');
  });

  it('says so when the code is taken, with the server’s reason', async () => {
    server.use(
      searchHandler(),
      ...userHandlers(),
      http.post(api('auth/users/details/:id'), () =>
        HttpResponse.json(
          { code: 'AUTH_REFERRAL_CODE_TAKEN', message: 'Referral code is already in use' },
          { status: 409 },
        ),
      ),
    );
    const app = await openPage();
    await pickUser(app, 'jane', /Jane Shipper/);
    await app.user.type(screen.getByLabelText('New referral code'), 'bob9');
    await app.user.click(screen.getByRole('button', { name: 'Update referral code' }));
    expect(await screen.findByText('Failed to update referral code')).toBeInTheDocument();
    expect(screen.getByText('Referral code is already in use')).toBeInTheDocument();
    expect(await screen.findByTestId('current-referral-code')).toHaveTextContent('JANE123');
  });

  it("does not repeat the server's words under the toast when they are the page's own text", async () => {
    server.use(
      searchHandler(),
      ...userHandlers(),
      http.post(api('auth/users/details/:id'), () => failure(500, 'Failed to update referral code')),
    );
    const app = await openPage();
    await pickUser(app, 'jane', /Jane Shipper/);
    await app.user.type(screen.getByLabelText('New referral code'), 'bob9');
    await app.user.click(screen.getByRole('button', { name: 'Update referral code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update referral code');
    expect(screen.getByRole('alert').querySelector('.toast__detail')).toBeNull();
    const toasts = app.store.getState().toast.toasts;
    expect(toasts).toEqual([expect.objectContaining({ message: 'Failed to update referral code' })]);
    expect(toasts[0]).not.toHaveProperty('detail');
  });
});
