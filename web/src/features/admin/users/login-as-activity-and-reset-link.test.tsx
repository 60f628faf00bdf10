import type { AuditEntry, AuditReply, ResetLinkReply } from '@flatship/proto';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../../app/format';
import { getJson } from '../../../app/http';
import { COPIED_DURATION } from '../../../components/copy-text';
import { useFakeClock } from '../../../test/fake-clock';
import { api, emptyDashboardHandlers, verifyHandler } from '../../../test/handlers';
import { setupTestServer } from '../../../test/msw';
import { renderApp } from '../../../test/render-app';
import { makeAdmin, makeRow, recorder, usersHandler, usersReply } from '../admin-test-support';

const server = setupTestServer(verifyHandler(makeAdmin()), ...emptyDashboardHandlers());
afterEach(() => vi.restoreAllMocks());

const jane = makeRow({ _id: 'u-1', name: 'Jane Shipper', email: 'jane@example.com' });
const bob = makeRow({ _id: 'u-2', name: 'Bob Brown', email: 'bob@example.com' });

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    _id: 'a-1',
    at: '2026-11-20T14:05:00.000Z',
    adminId: 'admin-1',
    adminEmail: 'ada@example.com',
    userId: 'u-1',
    userEmail: 'jane@example.com',
    method: 'POST',
    path: '/api/orders',
    status: 201,
    ...overrides,
  } satisfies AuditEntry;
}

const auditReply = (entries: AuditEntry[], totalCount = entries.length): AuditReply => ({ entries, totalCount });

/** GET /api/admin/audit answering `reply` (or a function of the query), recording each request. */
function auditHandler(rec: ReturnType<typeof recorder>, reply: AuditReply | ((url: URL) => AuditReply | Response)) {
  return http.get(api('admin/audit'), async ({ request }) => {
    await rec.record(request);
    const url = new URL(request.url);
    const answer = typeof reply === 'function' ? reply(url) : reply;
    return answer instanceof Response ? answer : HttpResponse.json(answer);
  });
}

async function openPage() {
  const rec = recorder();
  server.use(usersHandler(rec, usersReply([jane, bob])));
  const app = renderApp('/admin/user-management', { token: 'good-token' });
  await screen.findByRole('table');
  return { ...app, rec };
}

const auditQueries = (rec: ReturnType<typeof recorder>) =>
  rec.seen.filter((r) => r.url.pathname === '/api/admin/audit').map((r) => Object.fromEntries(r.url.searchParams));

const row = (name: string) => within(screen.getByRole('cell', { name }).closest('tr') as HTMLElement);

describe('Login As activity', () => {
  it('lists what admins did as a user, 25 a page, with When, Admin, User, Action and Result', async () => {
    const app = await openPage();
    server.use(
      auditHandler(app.rec, (url) =>
        url.searchParams.get('page') === '2'
          ? auditReply([entry({ _id: 'a-26', path: '/api/deposits', method: 'GET', status: 200 })], 26)
          : auditReply(
              [
                entry(),
                entry({
                  _id: 'a-2',
                  at: '2026-11-19T09:00:00.000Z',
                  adminEmail: null,
                  userEmail: null,
                  method: 'DELETE',
                  path: '/api/addresses/9',
                  status: 403,
                }),
              ],
              26,
            ),
      ),
    );
    await app.user.click(screen.getByRole('tab', { name: 'Login As activity' }));

    const table = await screen.findByRole('table');
    expect(auditQueries(app.rec)).toEqual([{ page: '1', limit: '25' }]);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['When', 'Admin', 'User', 'Action', 'Result']);
    const first = within(within(table).getAllByRole('row')[1] as HTMLElement);
    expect(first.getByText(formatDateTime('2026-11-20T14:05:00.000Z'))).toBeInTheDocument();
    expect(first.getByText('ada@example.com')).toBeInTheDocument();
    expect(first.getByText('jane@example.com')).toBeInTheDocument();
    expect(first.getByText('POST /api/orders')).toBeInTheDocument();
    expect(first.getByText('201')).toBeInTheDocument();
    // An account deleted since is named by its id.
    const second = within(within(table).getAllByRole('row')[2] as HTMLElement);
    expect(second.getByText('admin-1')).toBeInTheDocument();
    expect(second.getByText('u-1')).toBeInTheDocument();
    expect(second.getByText('DELETE /api/addresses/9')).toBeInTheDocument();
    expect(second.getByText('403')).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('GET /api/deposits')).toBeInTheDocument();
    expect(auditQueries(app.rec).at(-1)).toEqual({ page: '2', limit: '25' });
    expect(screen.queryByText('POST /api/orders')).not.toBeInTheDocument();
  });

  it('says "No actions taken while signed in as a user" when there is nothing', async () => {
    const app = await openPage();
    server.use(auditHandler(app.rec, auditReply([])));
    await app.user.click(screen.getByRole('tab', { name: 'Login As activity' }));
    expect(await screen.findByText('No actions taken while signed in as a user')).toBeInTheDocument();
  });

  it('shows a loader until the answer arrives', async () => {
    const app = await openPage();
    server.use(
      http.get(api('admin/audit'), async () => {
        await delay(150);
        return HttpResponse.json(auditReply([entry()]));
      }),
    );
    await app.user.click(screen.getByRole('tab', { name: 'Login As activity' }));
    expect(screen.getByText('Loading activity…')).toBeInTheDocument();
    expect(await screen.findByText('POST /api/orders')).toBeInTheDocument();
    expect(screen.queryByText('Loading activity…')).not.toBeInTheDocument();
  });

  it('says "Failed to load activity" when it cannot be read, and tries again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = await openPage();
    let isDown = true;
    server.use(
      auditHandler(app.rec, () =>
        isDown
          ? HttpResponse.json({ code: 'INTERNAL', message: 'Database unavailable' }, { status: 500 })
          : auditReply([entry()]),
      ),
    );
    await app.user.click(screen.getByRole('tab', { name: 'Login As activity' }));
    expect(await screen.findByText('Failed to load activity')).toBeInTheDocument();
    const failedCalls = auditQueries(app.rec).length;
    isDown = false;
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('POST /api/orders')).toBeInTheDocument();
    expect(screen.queryByText('Failed to load activity')).not.toBeInTheDocument();
    expect(auditQueries(app.rec)).toHaveLength(failedCalls + 1);
  });

  it("shows one user's activity from their row, and everyone's again on request", async () => {
    const app = await openPage();
    server.use(
      auditHandler(app.rec, (url) =>
        url.searchParams.get('userId') === 'u-2'
          ? auditReply([entry({ _id: 'a-9', userId: 'u-2', userEmail: 'bob@example.com', path: '/api/labels' })])
          : auditReply([entry()]),
      ),
    );
    await app.user.click(row('Bob Brown').getByRole('button', { name: 'Login As activity of Bob Brown' }));

    expect(await screen.findByText('POST /api/labels')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Login As activity' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText(/Showing Bob Brown \(bob@example\.com\)/)).toBeInTheDocument();
    expect(auditQueries(app.rec)).toEqual([{ page: '1', limit: '25', userId: 'u-2' }]);

    await app.user.click(screen.getByRole('button', { name: 'Show all users' }));
    expect(await screen.findByText('POST /api/orders')).toBeInTheDocument();
    expect(auditQueries(app.rec).at(-1)).toEqual({ page: '1', limit: '25' });
    expect(screen.queryByText(/Showing Bob Brown/)).not.toBeInTheDocument();

    // Back on the users tab, the table is as it was.
    await app.user.click(screen.getByRole('tab', { name: 'Users' }));
    expect(await screen.findByRole('cell', { name: 'Jane Shipper' })).toBeInTheDocument();
  });
});

describe('Reset password', () => {
  const linkReply = {
    message: 'Reset link created for jane@example.com. It works once, within 30 minutes.',
    link: 'https://flatship.test/reset-password?token=abc123',
  } satisfies ResetLinkReply;

  function resetHandler(rec: ReturnType<typeof recorder>, answer: () => Response) {
    return http.post(api('auth/users/:id/reset-link'), async ({ request }) => {
      await rec.record(request);
      return answer();
    });
  }

  it('asks first, then shows the link with its message and copies it', async () => {
    const app = await openPage();
    server.use(resetHandler(app.rec, () => HttpResponse.json(linkReply)));

    await app.user.click(row('Jane Shipper').getByRole('button', { name: 'Reset password of Jane Shipper' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset password' });
    expect(confirm).toHaveTextContent(
      'Create a password reset link for Jane Shipper (jane@example.com)? The link works once, for 30 minutes.',
    );
    await app.user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(app.rec.writes()).toEqual([]);

    await app.user.click(row('Jane Shipper').getByRole('button', { name: 'Reset password of Jane Shipper' }));
    await app.user.click(
      within(await screen.findByRole('dialog', { name: 'Reset password' })).getByRole('button', {
        name: 'Create link',
      }),
    );

    const dialog = await screen.findByRole('dialog', { name: 'Password reset link' });
    expect(await within(dialog).findByText(linkReply.message)).toBeInTheDocument();
    expect(app.rec.writes().map((r) => [r.method, r.url.pathname])).toEqual([
      ['POST', '/api/auth/users/u-1/reset-link'],
    ]);

    // "Copied!" is shown for 1.5 s, on a fake clock.
    useFakeClock();
    // In act: the copy ends after the clipboard's answer, and what it shows is rendered before act returns.
    const copy = within(dialog).getByRole('button', { name: `Copy ${linkReply.link}` });
    await act(async () => {
      fireEvent.click(copy);
    });
    expect(within(dialog).getByText('Copied!')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(linkReply.link);
    act(() => vi.advanceTimersByTime(COPIED_DURATION - 1));
    expect(within(dialog).getByText('Copied!')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(within(dialog).queryByText('Copied!')).not.toBeInTheDocument();

    await app.user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows a loader while the link is made, and drops a link that arrives after the dialog was closed', async () => {
    const app = await openPage();
    // Jane's link is answered only when the test says so; Bob's at once.
    let answerJane = () => {};
    const janeMayAnswer = new Promise<void>((resolve) => {
      answerJane = resolve;
    });
    server.use(
      http.post(api('auth/users/:id/reset-link'), async ({ request, params }) => {
        await app.rec.record(request);
        if (params.id === 'u-1') await janeMayAnswer;
        return HttpResponse.json({ message: `Link for ${params.id}`, link: `https://flatship.test/r/${params.id}` });
      }),
    );
    const answered: string[] = [];
    server.events.on('response:mocked', ({ request }) => void answered.push(new URL(request.url).pathname));
    await app.user.click(row('Jane Shipper').getByRole('button', { name: 'Reset password of Jane Shipper' }));
    await app.user.click(await screen.findByRole('button', { name: 'Create link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Password reset link' });
    expect(within(dialog).getByText('Creating the reset link…')).toBeInTheDocument();
    expect(row('Bob Brown').getByRole('button', { name: 'Reset password of Bob Brown' })).toBeDisabled();
    await app.user.click(within(dialog).getByRole('button', { name: 'Close' }));

    await app.user.click(row('Bob Brown').getByRole('button', { name: 'Reset password of Bob Brown' }));
    await app.user.click(await screen.findByRole('button', { name: 'Create link' }));
    const bobDialog = await screen.findByRole('dialog', { name: 'Password reset link' });
    expect(await within(bobDialog).findByText('Link for u-2')).toBeInTheDocument();

    // Jane's link arrives now. Every link the page holds from here on is noted, however briefly it is held.
    const held: string[] = [];
    const unsubscribe = app.store.subscribe(() => {
      const reply = app.store.getState().adminUsers.resetLink.reply;
      if (reply) held.push(reply.message);
    });
    try {
      answerJane();
      await waitFor(() => expect(answered).toContain('/api/auth/users/u-1/reset-link'));
      // A request sent through the same client once Jane's answer is out comes back after the page has dealt
      // with that answer.
      await getJson('auth/users?page=1&limit=25');
    } finally {
      unsubscribe();
    }
    expect(held).not.toContain('Link for u-1');
    expect(within(bobDialog).getByText('Link for u-2')).toBeInTheDocument();
    expect(within(bobDialog).queryByText('Link for u-1')).not.toBeInTheDocument();
  });

  it("toasts the server's reason when the link cannot be made", async () => {
    const app = await openPage();
    server.use(
      resetHandler(app.rec, () =>
        HttpResponse.json({ code: 'NOT_FOUND', message: 'User u-1 not found' }, { status: 404 }),
      ),
    );
    await app.user.click(row('Jane Shipper').getByRole('button', { name: 'Reset password of Jane Shipper' }));
    await app.user.click(await screen.findByRole('button', { name: 'Create link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('User u-1 not found');
    expect(screen.queryByRole('dialog', { name: 'Password reset link' })).not.toBeInTheDocument();
    expect(row('Jane Shipper').getByRole('button', { name: 'Reset password of Jane Shipper' })).toBeEnabled();
  });

  it('says "Failed to create reset link" when the server gives no reason', async () => {
    const app = await openPage();
    server.use(resetHandler(app.rec, () => new HttpResponse('Bad gateway', { status: 502 })));
    await app.user.click(row('Jane Shipper').getByRole('button', { name: 'Reset password of Jane Shipper' }));
    await app.user.click(await screen.findByRole('button', { name: 'Create link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create reset link');
    expect(screen.queryByRole('dialog', { name: 'Password reset link' })).not.toBeInTheDocument();
  });
});
