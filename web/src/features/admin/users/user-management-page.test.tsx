import type {
  AdminUserChangeReply,
  AdminUserDeleteReply,
  AdminUsersReply,
  EndLoginAsReply,
  LoginAsReply,
  UserDetailsReply,
} from '@flatship/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../../app/format';
import { useFakeClock } from '../../../test/fake-clock';
import { api, emptyDashboardHandlers, verifyHandler } from '../../../test/handlers';
import { setupTestServer } from '../../../test/msw';
import { renderApp } from '../../../test/render-app';
import { makeAdmin, makeRow, recorder, usersHandler, usersReply } from '../admin-test-support';
import { LOGIN_AS_REDIRECT_DELAY } from './admin-users-messages';

const server = setupTestServer(verifyHandler(makeAdmin()), ...emptyDashboardHandlers());

const jane = makeRow({ _id: 'u-1', name: 'Jane Shipper', email: 'jane@example.com', balance: 12.5 });
const bob = makeRow({
  _id: 'u-2',
  name: 'Bob Blocked',
  email: 'bob@example.com',
  activation: 'block',
  user_role: 'friend',
  referralCode: 'BOB9',
  balance: 3,
  totalDeposit: 20,
  totalSpent: 17,
});

async function openPage(reply: AdminUsersReply | ((url: URL) => AdminUsersReply) = usersReply([jane, bob])) {
  const rec = recorder();
  server.use(usersHandler(rec, reply));
  const app = renderApp('/admin/user-management', { token: 'good-token' });
  await screen.findByRole('table');
  return { ...app, rec };
}

const table = () => within(screen.getByRole('table'));
const row = (name: string) => within(screen.getByRole('cell', { name }).closest('tr') as HTMLElement);
const query = (rec: ReturnType<typeof recorder>, i = -1) =>
  Object.fromEntries((rec.seen.filter((r) => r.method === 'GET').at(i) as { url: URL }).url.searchParams);
const gets = (rec: ReturnType<typeof recorder>) => rec.seen.filter((r) => r.method === 'GET').length;

/** A write endpoint that records what it got and answers `reply` (typed by the contract). */
function writeHandler(
  rec: ReturnType<typeof recorder>,
  method: 'post' | 'delete',
  path: string,
  reply: object,
  status = 200,
) {
  return http[method](api(path), async ({ request }) => {
    await rec.record(request);
    return HttpResponse.json(reply, { status });
  });
}

describe('User management', () => {
  it('asks for the first page of 25, newest first, and shows every column, the rows and the totals row', async () => {
    const { rec } = await openPage();
    expect(query(rec)).toEqual({ page: '1', limit: '25', sort: 'createdAt', order: 'desc' });
    const headers = table()
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim());
    expect(headers).toEqual([
      'No.',
      'Name',
      'Email',
      'Role',
      'Referral',
      'Services',
      'Deposited',
      'Spent',
      'Balance',
      'Access',
      'Actions',
      'Login As',
    ]);
    const first = row('Jane Shipper');
    expect(first.getByRole('cell', { name: '1' })).toBeInTheDocument();
    expect(first.getByText('jane@example.com')).toBeInTheDocument();
    expect(first.getByRole('combobox', { name: 'Role of Jane Shipper' })).toHaveValue('user');
    expect(first.getByText('JANE123')).toBeInTheDocument();
    expect(first.getByText('$100.00')).toBeInTheDocument();
    expect(first.getByText('$87.50')).toBeInTheDocument();
    expect(first.getByText('$12.50')).toBeInTheDocument();
    expect(first.getByText('Allowed')).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Block Jane Shipper' })).toBeInTheDocument();

    const second = row('Bob Blocked');
    expect(second.getByRole('cell', { name: '2' })).toBeInTheDocument();
    expect(second.getByText('Blocked')).toBeInTheDocument();
    expect(second.getByRole('button', { name: 'Allow Bob Blocked' })).toBeInTheDocument();
    expect(second.getByRole('combobox', { name: 'Role of Bob Blocked' })).toHaveValue('friend');

    const totals = within(screen.getByRole('rowheader', { name: /Totals/ }).closest('tr') as HTMLElement);
    expect(totals.getByRole('rowheader')).toHaveTextContent('Totals (2 users)');
    // From the reply's totals (every matching user), not summed from this page.
    expect(totals.getByText('$5000.00')).toBeInTheDocument();
    expect(totals.getByText('$3765.50')).toBeInTheDocument();
    expect(totals.getByText('$1234.50')).toBeInTheDocument();
  });

  it('numbers rows across pages and pages through the server', async () => {
    const users = Array.from({ length: 25 }, (_, i) =>
      makeRow({ _id: `u-${i}`, name: `User ${i}`, email: `u${i}@x.io` }),
    );
    const app = await openPage((url) =>
      usersReply(url.searchParams.get('page') === '2' ? [makeRow({ _id: 'u-x', name: 'Late User' })] : users, {
        totalCount: 26,
        page: Number(url.searchParams.get('page')),
      }),
    );
    await app.user.click(screen.getByRole('button', { name: 'Page 2' }));
    await screen.findByText('Late User');
    expect(query(app.rec)).toMatchObject({ page: '2', limit: '25' });
    expect(row('Late User').getByRole('cell', { name: '26' })).toBeInTheDocument();
  });

  it('moves back to the last page that has users when a delete empties the current one', async () => {
    let deleted = false;
    const app = await openPage((url) => {
      const page = Number(url.searchParams.get('page'));
      if (page === 2) return usersReply(deleted ? [] : [bob], { page, totalCount: deleted ? 25 : 26 });
      return usersReply([jane], { page, totalCount: deleted ? 25 : 26 });
    });
    server.use(
      http.delete(api('auth/users/:id'), () => {
        deleted = true;
        return HttpResponse.json({ message: 'User deleted' } satisfies AdminUserDeleteReply);
      }),
    );
    await app.user.click(screen.getByRole('button', { name: 'Page 2' }));
    await app.user.click(await screen.findByRole('button', { name: 'Delete Bob Blocked' }));
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Jane Shipper')).toBeInTheDocument();
    expect(query(app.rec).page).toBe('1');
  });

  it('changes the page size through the query and starts again at page 1', async () => {
    const app = await openPage((url) =>
      usersReply([jane], { page: Number(url.searchParams.get('page')), totalCount: 120 }),
    );
    await app.user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(query(app.rec).page).toBe('3'));
    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '50');
    await waitFor(() => expect(query(app.rec)).toMatchObject({ page: '1', limit: '50' }));
    expect(
      within(screen.getByRole('combobox', { name: 'Rows per page' }))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['10', '25', '50', '100']);
  });

  it('sorts by a clicked column, ascending then descending', async () => {
    const app = await openPage();
    const nameHeader = () => screen.getByRole('columnheader', { name: /Name/ });
    expect(nameHeader()).toHaveAttribute('aria-sort', 'none');
    await app.user.click(within(nameHeader()).getByRole('button'));
    await waitFor(() => expect(query(app.rec)).toMatchObject({ sort: 'name', order: 'asc', page: '1' }));
    expect(nameHeader()).toHaveAttribute('aria-sort', 'ascending');
    await app.user.click(within(nameHeader()).getByRole('button'));
    await waitFor(() => expect(query(app.rec)).toMatchObject({ sort: 'name', order: 'desc' }));
    expect(nameHeader()).toHaveAttribute('aria-sort', 'descending');
    await app.user.click(within(screen.getByRole('columnheader', { name: /Balance/ })).getByRole('button'));
    await waitFor(() => expect(query(app.rec)).toMatchObject({ sort: 'balance', order: 'asc' }));
  });

  it('searches once the typing pauses, with one request for the whole word', async () => {
    const app = await openPage((url) => usersReply(url.searchParams.get('search') === 'bob' ? [bob] : [jane, bob]));
    const before = gets(app.rec);
    await app.user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'bob');
    await waitFor(() => expect(screen.queryByText('Jane Shipper')).not.toBeInTheDocument());
    expect(gets(app.rec)).toBe(before + 1);
    expect(query(app.rec)).toMatchObject({ search: 'bob', page: '1' });
  });

  it('shows a loader until the first answer arrives', async () => {
    const rec = recorder();
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get(api('auth/users'), async ({ request }) => {
        await rec.record(request);
        await answered;
        return HttpResponse.json(usersReply([jane]));
      }),
    );
    renderApp('/admin/user-management', { token: 'good-token' });
    expect(await screen.findByText('Loading users…')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    answer();
    expect(await screen.findByText('Jane Shipper')).toBeInTheDocument();
    expect(screen.queryByText('Loading users…')).not.toBeInTheDocument();
  });

  it('says "No users found" when nothing matches', async () => {
    await openPage(usersReply([], { totals: { balance: 0, totalDeposit: 0, totalSpent: 0 } }));
    expect(screen.getByText('No users found')).toBeInTheDocument();
  });

  it('shows "Failed to load users" when the list cannot be read, and tries again', async () => {
    const rec = recorder();
    server.use(
      http.get(api('auth/users'), () =>
        HttpResponse.json({ code: 'INTERNAL', message: 'Database unavailable' }, { status: 503 }),
      ),
    );
    const app = renderApp('/admin/user-management', { token: 'good-token' });
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Failed to load users');
    expect(toast).toHaveTextContent('Database unavailable');
    server.use(usersHandler(rec, usersReply([jane])));
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Jane Shipper')).toBeInTheDocument();
  });

  it('changes a role with the new role in the body, toasts the server message and reloads', async () => {
    const app = await openPage();
    server.use(
      writeHandler(app.rec, 'post', 'auth/users/role/:id', {
        message: 'Role updated',
        user: { ...jane, user_role: 'friend' },
      } satisfies AdminUserChangeReply),
    );
    const before = gets(app.rec);
    await app.user.selectOptions(row('Jane Shipper').getByRole('combobox', { name: 'Role of Jane Shipper' }), 'friend');
    expect(await screen.findByRole('status')).toHaveTextContent('Role updated');
    expect(app.rec.writes()).toEqual([expect.objectContaining({ method: 'POST', body: { user_role: 'friend' } })]);
    expect(app.rec.writes()[0]?.url.pathname).toBe('/api/auth/users/role/u-1');
    await waitFor(() => expect(gets(app.rec)).toBe(before + 1));
  });

  it('blocks an allowed user and allows a blocked one', async () => {
    const app = await openPage();
    server.use(
      writeHandler(app.rec, 'post', 'auth/users/activation/:id', {
        message: 'Access updated',
        user: jane,
      } satisfies AdminUserChangeReply),
    );
    await app.user.click(screen.getByRole('button', { name: 'Block Jane Shipper' }));
    await screen.findByRole('status');
    await app.user.click(screen.getByRole('button', { name: 'Allow Bob Blocked' }));
    await waitFor(() => expect(app.rec.writes()).toHaveLength(2));
    expect(app.rec.writes().map((w) => [w.url.pathname, w.body])).toEqual([
      ['/api/auth/users/activation/u-1', { activation: 'block' }],
      ['/api/auth/users/activation/u-2', { activation: 'allow' }],
    ]);
  });

  it('edits the balance inline: cancelling the confirm dialog sends nothing, confirming saves it', async () => {
    const app = await openPage();
    server.use(
      writeHandler(app.rec, 'post', 'auth/users/details/:id', {
        message: 'User details updated successfully',
        user: { _id: 'u-1', balance: 42.5, referralCode: 'JANE123' },
      } satisfies UserDetailsReply),
    );
    await app.user.click(screen.getByRole('button', { name: 'Edit balance of Jane Shipper' }));
    const input = screen.getByRole('spinbutton', { name: 'balance of Jane Shipper' });
    expect(input).toHaveFocus();
    await app.user.clear(input);
    await app.user.type(input, '42.5{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Save changes' });
    expect(dialog).toHaveTextContent('Set the balance of Jane Shipper to $42.50?');
    await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(app.rec.writes()).toEqual([]);

    await app.user.click(screen.getByRole('button', { name: 'Edit balance of Jane Shipper' }));
    await app.user.clear(screen.getByRole('spinbutton', { name: 'balance of Jane Shipper' }));
    await app.user.type(screen.getByRole('spinbutton', { name: 'balance of Jane Shipper' }), '42.5');
    await app.user.click(row('Jane Shipper').getByRole('button', { name: 'Save' }));
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('User details updated successfully');
    expect(app.rec.writes().map((w) => [w.url.pathname, w.body])).toEqual([
      ['/api/auth/users/details/u-1', { balance: 42.5 }],
    ]);
  });

  it('edits the referral code inline and says "Failed to update user details." when the save fails', async () => {
    const app = await openPage();
    server.use(
      writeHandler(
        app.rec,
        'post',
        'auth/users/details/:id',
        { code: 'ADMIN_REFERRAL_TAKEN', message: 'Referral code NEW1 is taken' },
        409,
      ),
    );
    await app.user.click(screen.getByRole('button', { name: 'Edit referral code of Jane Shipper' }));
    const input = screen.getByRole('textbox', { name: 'referral code of Jane Shipper' });
    await app.user.clear(input);
    await app.user.type(input, 'NEW1');
    await app.user.click(row('Jane Shipper').getByRole('button', { name: 'Save' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Change the referral code of Jane Shipper to NEW1?');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Failed to update user details.');
    expect(toast).toHaveTextContent('Referral code NEW1 is taken');
    expect(app.rec.writes().map((w) => w.body)).toEqual([{ referralCode: 'NEW1' }]);
  });

  it('refuses a referral code shorter than 4 letters or digits inline, naming the field, without asking', async () => {
    const app = await openPage();
    await app.user.click(screen.getByRole('button', { name: 'Edit referral code of Jane Shipper' }));
    const input = screen.getByRole('textbox', { name: 'referral code of Jane Shipper' });
    await app.user.clear(input);
    await app.user.type(input, 'X');
    await app.user.click(row('Jane Shipper').getByRole('button', { name: 'Save' }));
    expect(await row('Jane Shipper').findByRole('alert')).toHaveTextContent(
      'Referral code must be 4 to 32 letters or digits',
    );
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(app.rec.writes()).toEqual([]);
  });

  it('leaves an inline edit with Escape without asking or sending anything', async () => {
    const app = await openPage();
    await app.user.click(screen.getByRole('button', { name: 'Edit referral code of Jane Shipper' }));
    const input = screen.getByRole('textbox', { name: 'referral code of Jane Shipper' });
    await app.user.type(input, 'X{Escape}');
    expect(screen.queryByRole('textbox', { name: 'referral code of Jane Shipper' })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(row('Jane Shipper').getByText('JANE123')).toBeInTheDocument();
    expect(app.rec.writes()).toEqual([]);
  });

  it('refuses an empty balance in the row itself', async () => {
    const app = await openPage();
    await app.user.click(screen.getByRole('button', { name: 'Edit balance of Jane Shipper' }));
    await app.user.clear(screen.getByRole('spinbutton', { name: 'balance of Jane Shipper' }));
    await app.user.click(row('Jane Shipper').getByRole('button', { name: 'Save' }));
    expect(row('Jane Shipper').getByRole('alert')).toHaveTextContent('Enter a value');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the server reason when a role change is refused', async () => {
    const app = await openPage();
    server.use(
      writeHandler(
        app.rec,
        'post',
        'auth/users/role/:id',
        { code: 'ADMIN_LAST_ADMIN', message: 'The last admin cannot lose the admin role' },
        409,
      ),
    );
    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Role of Jane Shipper' }), 'admin');
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Failed to change the role');
    expect(toast).toHaveTextContent('The last admin cannot lose the admin role');
  });

  it('deletes after confirmation only', async () => {
    const app = await openPage();
    server.use(
      writeHandler(app.rec, 'delete', 'auth/users/:id', { message: 'User deleted' } satisfies AdminUserDeleteReply),
    );
    await app.user.click(screen.getByRole('button', { name: 'Delete Bob Blocked' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete user' });
    expect(dialog).toHaveTextContent('Delete Bob Blocked (bob@example.com)? This cannot be undone.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await app.user.keyboard('{Escape}');
    expect(app.rec.writes()).toEqual([]);

    await app.user.click(screen.getByRole('button', { name: 'Delete Bob Blocked' }));
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('User deleted');
    expect(app.rec.writes().map((w) => [w.method, w.url.pathname])).toEqual([['DELETE', '/api/auth/users/u-2']]);
  });

  it('says "Error refreshing data. Please reload the page." when the reload after a change fails', async () => {
    const app = await openPage();
    server.use(
      writeHandler(app.rec, 'delete', 'auth/users/:id', { message: 'User deleted' } satisfies AdminUserDeleteReply),
      http.get(api('auth/users'), () => HttpResponse.json({ code: 'INTERNAL', message: 'Down' }, { status: 500 })),
    );
    await app.user.click(screen.getByRole('button', { name: 'Delete Bob Blocked' }));
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error refreshing data. Please reload the page.');
  });
});

describe('Login As', () => {
  // The switch waits 1.5 s and a Login As session ends when its token does: both on a fake clock.
  beforeEach(useFakeClock);

  const loginAsReply = {
    message: 'Logged in as Jane Shipper',
    token: 'jane-token',
    user: jane,
  } satisfies LoginAsReply;

  async function loginAsJane() {
    const app = await openPage();
    server.use(writeHandler(app.rec, 'post', 'auth/login-as-user/:id', loginAsReply));
    await app.user.click(screen.getByRole('button', { name: 'Login as Jane Shipper' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Logged in as Jane Shipper');
    return app;
  }

  it('signs in as the user after 1.5 s, keeps the admin token, and shows the banner in the user area', async () => {
    const app = await loginAsJane();
    expect(app.rec.writes()[0]?.url.pathname).toBe('/api/auth/login-as-user/u-1');
    // Still the admin, still here, until the delay has passed. (Looking for the answer's status moved the clock
    // 50 ms at most past the answer.)
    act(() => vi.advanceTimersByTime(LOGIN_AS_REDIRECT_DELAY - 100));
    expect(app.path()).toBe('/admin/user-management');
    expect(localStorage.getItem('token')).toBe('good-token');

    act(() => vi.advanceTimersByTime(100));
    expect(app.path()).toBe('/main/dashboard');
    expect(localStorage.getItem('token')).toBe('jane-token');
    expect(JSON.parse(localStorage.getItem('adminSession') ?? 'null')).toMatchObject({
      token: 'good-token',
      user: { _id: 'admin-1' },
    });
    const banner = await screen.findByRole('region', { name: 'Signed in as another user' });
    expect(banner).toHaveTextContent('You are signed in as Jane Shipper (jane@example.com) by admin Ada Admin');
    // The user's area: no admin link for a plain user.
    expect(screen.queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });

  /** POST /api/auth/login-as/end, recording the token each call came with. */
  function endHandler(tokens: (string | null)[]) {
    return http.post(api('auth/login-as/end'), ({ request }) => {
      tokens.push(request.headers.get('token'));
      return HttpResponse.json({ message: 'You are back in your own account.' } satisfies EndLoginAsReply);
    });
  }

  it('"Back to admin" restores the admin token and user, ends the Login As token on the server, and returns to user management', async () => {
    const ended: (string | null)[] = [];
    server.use(endHandler(ended));
    const app = await loginAsJane();
    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
    await app.user.click(await screen.findByRole('button', { name: 'Back to admin' }));
    await waitFor(() => expect(app.path()).toBe('/admin/user-management'));
    expect(localStorage.getItem('token')).toBe('good-token');
    expect(localStorage.getItem('adminSession')).toBeNull();
    expect(app.store.getState().auth.user?._id).toBe('admin-1');
    expect(await screen.findByRole('table')).toBeInTheDocument();
    // Asked with the admin's own token: it ends the admin's visits even if the Login As token has expired.
    await waitFor(() => expect(ended).toEqual(['good-token']));
  });

  it('logging out while signed in as the user drops the kept admin token too, and ends the Login As token', async () => {
    const ended: (string | null)[] = [];
    server.use(endHandler(ended));
    const app = await loginAsJane();
    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
    await screen.findByRole('region', { name: 'Signed in as another user' });
    await app.user.click(screen.getByRole('button', { name: 'Account menu' }));
    await app.user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(app.path()).toBe('/login'));
    await waitFor(() => expect(ended).toEqual(['jane-token']));
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(localStorage.getItem('adminSession')).toBeNull();
    expect(app.store.getState().auth.impersonator).toBeNull();
  });

  /** A Login As token as auth signs one: the claims are read for display, the signature only by servers. */
  function loginAsToken(expiresAt: Date): string {
    const part = (o: object) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const exp = Math.floor(expiresAt.getTime() / 1000);
    const claims = { sub: 'u-1', role: 'user', ver: 1, imp: 'admin-1', iv: 3, iat: exp - 3600, exp };
    return `${part({ alg: 'EdDSA', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
  }

  async function loginAsJaneUntil(expiresAt: Date) {
    const app = await openPage();
    server.use(
      writeHandler(app.rec, 'post', 'auth/login-as-user/:id', { ...loginAsReply, token: loginAsToken(expiresAt) }),
    );
    await app.user.click(screen.getByRole('button', { name: 'Login as Jane Shipper' }));
    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
    return app;
  }

  it('the banner says when the Login As session ends', async () => {
    // Whole minutes, so the time shown is exactly the token's.
    const endsAt = new Date(Math.ceil((Date.now() + 30 * 60_000) / 60_000) * 60_000);
    await loginAsJaneUntil(endsAt);
    const banner = await screen.findByRole('region', { name: 'Signed in as another user' });
    const time = `${String(endsAt.getHours()).padStart(2, '0')}:${String(endsAt.getMinutes()).padStart(2, '0')}`;
    const sameDay = endsAt.toDateString() === new Date().toDateString();
    expect(banner).toHaveTextContent(`This session ends at ${sameDay ? time : formatDateTime(endsAt)}.`);
  });

  it('when the Login As session ends, the admin is taken back to their own account', async () => {
    const ended: (string | null)[] = [];
    server.use(endHandler(ended));
    // Long enough to see the user's area first (the switch itself waits 1.5 s); a whole second, as in the token.
    const endsAt = Math.ceil((Date.now() + 5000) / 1000) * 1000;
    const app = await loginAsJaneUntil(new Date(endsAt));
    expect(await screen.findByRole('region', { name: 'Signed in as another user' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(endsAt - Date.now() - 1));
    expect(app.path()).toBe('/main/dashboard');
    act(() => vi.advanceTimersByTime(1));
    await waitFor(() => expect(app.path()).toBe('/admin/user-management'));
    expect(localStorage.getItem('token')).toBe('good-token');
    expect(app.store.getState().auth.user?._id).toBe('admin-1');
    expect(screen.queryByRole('region', { name: 'Signed in as another user' })).not.toBeInTheDocument();
    await waitFor(() => expect(ended).toEqual(['good-token']));
  }, 20_000);

  it('abandons the switch when the admin leaves the page before the delay ends', async () => {
    const app = await loginAsJane();
    await app.user.click(screen.getByRole('link', { name: 'Dashboard' }));
    expect(app.path()).toBe('/admin/dashboard');
    act(() => vi.advanceTimersByTime(LOGIN_AS_REDIRECT_DELAY * 2));
    expect(app.path()).toBe('/admin/dashboard');
    // Coming back later does not resume it either.
    await app.user.click(screen.getByRole('link', { name: 'User Management' }));
    await screen.findByRole('table');
    act(() => vi.advanceTimersByTime(LOGIN_AS_REDIRECT_DELAY * 2));
    expect(app.path()).toBe('/admin/user-management');
    expect(localStorage.getItem('token')).toBe('good-token');
    expect(app.store.getState().auth.impersonator).toBeNull();
  });

  it('says "Failed to login as user" and stays when the call fails', async () => {
    const app = await openPage();
    server.use(
      writeHandler(app.rec, 'post', 'auth/login-as-user/:id', { code: 'NOT_FOUND', message: 'User not found' }, 404),
    );
    await app.user.click(screen.getByRole('button', { name: 'Login as Jane Shipper' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to login as user');
    expect(app.path()).toBe('/admin/user-management');
    expect(localStorage.getItem('adminSession')).toBeNull();
    expect(screen.getByRole('button', { name: 'Login as Jane Shipper' })).toBeEnabled();
  });
});
