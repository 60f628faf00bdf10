import type { AdminDashboardReply, CarrierBalanceReply } from '@flatship/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFakeClock } from '../../../test/fake-clock';
import { makeUser } from '../../../test/fixtures';
import { api, emptyAdminDashboardHandlers, emptyDashboardHandlers, verifyHandler } from '../../../test/handlers';
import { setupTestServer } from '../../../test/msw';
import { renderApp } from '../../../test/render-app';
import { DASHBOARD_MESSAGES, DASHBOARD_REFRESH_MS } from './admin-dashboard-saga';
import { CARRIER_ROUTES_SAVED, NO_FALLBACK } from './carrier-routes';

const server = setupTestServer(
  verifyHandler(makeUser({ user_role: 'admin' })),
  ...emptyDashboardHandlers(),
  ...emptyAdminDashboardHandlers(),
);

afterEach(() => {
  vi.useRealTimers();
});

const figures = (over: Partial<AdminDashboardReply> = {}): AdminDashboardReply => ({
  users: { total: 1248, newThisMonth: 37 },
  labels: { today: 12, thisMonth: 340, failedToday: 2 },
  revenue: { today: 101.5, thisMonth: 2890.25 },
  cost: { today: 80.25, thisMonth: 2310 },
  margin: { today: 21.25, thisMonth: 580.25 },
  deposits: { thisMonth: 5400, countThisMonth: 18 },
  runningBulkOrders: 3,
  activity: [
    { kind: 'deposit', at: '2026-11-24T11:58:00.000Z', text: 'Deposit of $500.00 settled' },
    { kind: 'label', at: '2026-11-24T11:50:00.000Z', text: 'Label purchased: USPS Priority Mail ($8.50)' },
    { kind: 'signup', at: '2026-11-24T09:05:00.000Z', text: 'New user registered: new@example.com' },
  ],
  generatedAt: '2026-11-24T12:00:00.000Z',
  ...over,
});

/** Answers each read with the next reply (the last one repeats), counting the reads. */
function dashboardHandler(...replies: (AdminDashboardReply | 'fail')[]) {
  const calls = { count: 0 };
  server.use(
    http.get(api('admin/dashboard'), () => {
      const reply = replies[Math.min(calls.count, replies.length - 1)];
      calls.count += 1;
      return reply === 'fail' || reply === undefined
        ? HttpResponse.json({ code: 'UPSTREAM_UNAVAILABLE', message: 'Orders is not answering' }, { status: 503 })
        : HttpResponse.json(reply);
    }),
  );
  return calls;
}

const stat = (label: string) => (screen.getByText(label).closest('.admin-dashboard__stat') as HTMLElement).textContent;

describe('Admin dashboard', () => {
  it('shows the live figures and the recent activity at /admin/dashboard', async () => {
    const calls = dashboardHandler(figures());
    renderApp('/admin/dashboard', { token: 'good-token' });
    await screen.findByText('Recent Activity');
    expect(stat('Users')).toBe('Users124837 new this month');
    expect(stat('Labels today')).toBe('Labels today12');
    expect(stat('Labels this month')).toBe('Labels this month340');
    expect(stat('Revenue today')).toBe('Revenue today$101.50Cost $80.25 · margin $21.25');
    expect(stat('Revenue this month')).toBe('Revenue this month$2890.25Cost $2310.00 · margin $580.25');
    expect(stat('Deposits this month')).toBe('Deposits this month$5400.0018 settled');
    expect(stat('Running bulk orders')).toBe('Running bulk orders3');
    expect(stat('Failed labels today')).toBe('Failed labels today2');
    const activity = screen.getByRole('region', { name: 'Recent Activity' });
    const items = within(within(activity).getByRole('list')).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Deposit of $500.00 settled24-11-2026 11:58',
      'Label purchased: USPS Priority Mail ($8.50)24-11-2026 11:50',
      'New user registered: new@example.com24-11-2026 09:05',
    ]);
    expect(calls.count).toBe(1);
  });

  it('shows the same dashboard to an admin at /main/admin', async () => {
    dashboardHandler(figures({ activity: [] }));
    renderApp('/main/admin', { token: 'good-token' });
    expect(await screen.findByText('No activity yet.')).toBeInTheDocument();
    expect(stat('Users')).toBe('Users124837 new this month');
  });

  it('sends anyone but an admin from /main/admin to their dashboard without reading the figures', async () => {
    const calls = dashboardHandler(figures());
    server.use(verifyHandler(makeUser({ user_role: 'friend' })));
    const app = renderApp('/main/admin', { token: 'good-token' });
    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
    expect(calls.count).toBe(0);
  });

  it('says so when the figures cannot be read', async () => {
    dashboardHandler('fail');
    const app = renderApp('/admin/dashboard', { token: 'good-token' });
    const error = await screen.findByText('Error refreshing data. Please reload the page.', {
      selector: '.admin-dashboard__error',
    });
    expect(error).toBeInTheDocument();
    expect(app.store.getState().toast.toasts.map((t) => t.message)).toEqual([
      'Error refreshing data. Please reload the page.',
    ]);
  });

  it('reads the figures again every 30 s, keeps the last ones when a refresh fails, and stops when left', async () => {
    useFakeClock();
    const calls = dashboardHandler(
      figures(),
      figures({ labels: { today: 13, thisMonth: 341, failedToday: 2 } }),
      // A read is tried twice before it counts as failed.
      'fail',
      'fail',
      figures({ labels: { today: 20, thisMonth: 348, failedToday: 2 } }),
    );
    const app = renderApp('/admin/dashboard', { token: 'good-token' });
    await screen.findByText('Recent Activity');
    expect(stat('Labels today')).toBe('Labels today12');

    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS - 1_000));
    expect(calls.count).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(stat('Labels today')).toBe('Labels today13'));
    expect(calls.count).toBe(2);

    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS));
    expect(
      await screen.findByText('Error refreshing data. Please reload the page.', {
        selector: '.admin-dashboard__error',
      }),
    ).toBeInTheDocument();
    expect(stat('Labels today')).toBe('Labels today13');
    expect(calls.count).toBe(4);

    await act(() => app.router.navigate('/main/dashboard'));
    await act(() => vi.advanceTimersByTimeAsync(3 * DASHBOARD_REFRESH_MS));
    expect(calls.count).toBe(4);
  });

  it('shows a loading indicator only until the first figures arrive', async () => {
    server.use(
      http.get(api('admin/dashboard'), async () => {
        await delay(100);
        return HttpResponse.json(figures());
      }),
    );
    renderApp('/admin/dashboard', { token: 'good-token' });
    expect(await screen.findByText('Loading dashboard…')).toBeInTheDocument();
    await screen.findByText('Recent Activity');
    expect(screen.queryByText('Loading dashboard…')).not.toBeInTheDocument();
  });
});

const carrierBalance = (over: Partial<CarrierBalanceReply> = {}): CarrierBalanceReply => ({
  balance: 1250.5,
  warnBelow: 100,
  isLow: false,
  carriers: [{ id: 'sandbox-usps', name: 'USPS', balance: 1250.5, isLow: false }],
  ...over,
});

/** Answers each balance read with the next reply (the last one repeats), counting the reads. */
function balanceHandler(...replies: (CarrierBalanceReply | { status: number; code: string; message: string })[]) {
  const calls = { count: 0 };
  server.use(
    http.get(api('auth/api/balance'), () => {
      const reply = replies[Math.min(calls.count, replies.length - 1)];
      calls.count += 1;
      if (reply && 'status' in reply) {
        return HttpResponse.json({ code: reply.code, message: reply.message }, { status: reply.status });
      }
      return HttpResponse.json(reply);
    }),
  );
  return calls;
}

const balanceCard = () => screen.getByRole('region', { name: 'Carrier balance' });

describe('Admin dashboard: carrier balance', () => {
  it('shows what is left on the carrier account, with no warning while it is above the threshold', async () => {
    dashboardHandler(figures());
    const calls = balanceHandler(carrierBalance());
    renderApp('/admin/dashboard', { token: 'good-token' });
    const card = await screen.findByRole('region', { name: 'Carrier balance' });
    await waitFor(() => expect(within(card).getByText('$1250.50')).toBeInTheDocument());
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(card).queryByText(/is low/)).not.toBeInTheDocument();
    expect(calls.count).toBe(1);
  });

  it('warns when the balance is below the threshold the server sets', async () => {
    dashboardHandler(figures());
    balanceHandler(
      carrierBalance({
        balance: 42.1,
        warnBelow: 250,
        isLow: true,
        carriers: [{ id: 'sandbox-usps', name: 'USPS', balance: 42.1, isLow: true }],
      }),
    );
    renderApp('/admin/dashboard', { token: 'good-token' });
    const warning = await within(await screen.findByRole('region', { name: 'Carrier balance' })).findByText(
      /Carrier balance is low/,
    );
    expect(warning).toHaveTextContent(
      'Carrier balance is low: below $250.00. Top up the carrier account, or label purchases will start to fail.',
    );
    expect(within(balanceCard()).getByText('$42.10')).toBeInTheDocument();
  });

  it('names the carrier accounts when there are several, and which one is low', async () => {
    dashboardHandler(figures());
    balanceHandler(
      carrierBalance({
        balance: 5050,
        isLow: true,
        carriers: [
          { id: 'sandbox-usps', name: 'USPS', balance: 5000, isLow: false },
          { id: 'test-parcel', name: 'Test Parcel', balance: 50, isLow: true },
        ],
      }),
    );
    renderApp('/admin/dashboard', { token: 'good-token' });
    const card = await screen.findByRole('region', { name: 'Carrier balance' });
    const accounts = await within(card).findByRole('list', { name: 'Carrier accounts' });
    expect(
      within(accounts)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual(['USPS$5000.00', 'Test Parcel$50.00 low']);
    expect(within(card).getByText(/Carrier balance is low/)).toHaveTextContent(
      'Carrier balance is low: Test Parcel is below $100.00. Top up the carrier account, or label purchases will start to fail.',
    );
  });

  it('says so when the carrier cannot be reached, and keeps showing the other figures', async () => {
    dashboardHandler(figures());
    balanceHandler({
      status: 502,
      code: 'ADMIN_CARRIER_UNREACHABLE',
      message: 'The carrier could not be reached to read its balance. Try again in a moment.',
    });
    const app = renderApp('/admin/dashboard', { token: 'good-token' });
    const card = await screen.findByRole('region', { name: 'Carrier balance' });
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'The carrier could not be reached to read its balance. Try again in a moment.',
    );
    expect(await screen.findByText('Recent Activity')).toBeInTheDocument();
    expect(stat('Labels today')).toBe('Labels today12');
    // The card says it; the figures did not fail, so no toast.
    expect(app.store.getState().toast.toasts).toEqual([]);
  });

  it('says the balance could not be read when the server cannot be reached at all', async () => {
    dashboardHandler(figures());
    server.use(http.get(api('auth/api/balance'), () => HttpResponse.error()));
    renderApp('/admin/dashboard', { token: 'good-token' });
    const card = await screen.findByRole('region', { name: 'Carrier balance' });
    expect(await within(card).findByRole('alert')).toHaveTextContent(DASHBOARD_MESSAGES.balanceFailed);
  });

  it('shows a loading line in the card until the balance arrives', async () => {
    dashboardHandler(figures());
    server.use(
      http.get(api('auth/api/balance'), async () => {
        await delay(100);
        return HttpResponse.json(carrierBalance());
      }),
    );
    renderApp('/admin/dashboard', { token: 'good-token' });
    const card = await screen.findByRole('region', { name: 'Carrier balance' });
    expect(within(card).getByText('Loading carrier balance…')).toBeInTheDocument();
    await within(card).findByText('$1250.50');
    expect(within(card).queryByText('Loading carrier balance…')).not.toBeInTheDocument();
  });

  it('reads the balance again with the figures every 30 s, keeping the last one shown while a read fails', async () => {
    useFakeClock();
    dashboardHandler(figures());
    const calls = balanceHandler(
      carrierBalance(),
      carrierBalance({
        balance: 80,
        isLow: true,
        carriers: [{ id: 'sandbox-usps', name: 'USPS', balance: 80, isLow: true }],
      }),
      {
        status: 502,
        code: 'ADMIN_CARRIER_UNREACHABLE',
        message: 'The carrier could not be reached to read its balance. Try again in a moment.',
      },
    );
    renderApp('/admin/dashboard', { token: 'good-token' });
    const card = await screen.findByRole('region', { name: 'Carrier balance' });
    await within(card).findByText('$1250.50');
    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS));
    await within(card).findByText('$80.00');
    expect(within(card).getByText(/Carrier balance is low/)).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS));
    expect(await within(card).findByRole('alert')).toHaveTextContent('The carrier could not be reached');
    expect(within(card).getByText('$80.00')).toBeInTheDocument();
    expect(calls.count).toBeGreaterThanOrEqual(3);
  });

  it('is not read for anyone but an admin', async () => {
    const calls = balanceHandler(carrierBalance());
    server.use(verifyHandler(makeUser({ user_role: 'friend' })));
    const app = renderApp('/main/admin', { token: 'good-token' });
    await waitFor(() => expect(app.path()).toBe('/main/dashboard'));
    expect(calls.count).toBe(0);
  });
});

describe('Test carrier connection', () => {
  it('calls the server once per click, shows each carrier’s answer, and can be run again', async () => {
    dashboardHandler(figures());
    let calls = 0;
    server.use(
      http.post(api('admin/carriers/check'), async ({ request }) => {
        // The services refuse a body declared JSON that is empty: the call must send real JSON.
        expect(await request.json()).toEqual({});
        calls += 1;
        await delay(30);
        return HttpResponse.json({
          carriers: [
            { id: 'usps', name: 'USPS', ok: true, message: 'USPS accepted the app and the payment account.', ms: 412 },
            {
              id: 'easypost',
              name: 'USPS via EasyPost',
              ok: false,
              message: 'EasyPost refused the API key. Check EASYPOST_API_KEY.',
              ms: 88,
            },
          ],
        });
      }),
    );
    const app = renderApp('/admin/dashboard', { token: 'good-token' });
    const card = within(await screen.findByRole('region', { name: 'Carrier balance' }));
    await app.user.click(card.getByRole('button', { name: 'Test carrier connection' }));
    // While it runs the button says so and cannot be pressed again.
    expect(card.getByRole('button', { name: /Testing carrier connection/ })).toBeDisabled();
    const list = within(await card.findByRole('list', { name: 'Carrier connection' }));
    const items = list.getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual([
      '✓ USPS: connectedUSPS accepted the app and the payment account. (412 ms)',
      '✕ USPS via EasyPost: not connectedEasyPost refused the API key. Check EASYPOST_API_KEY. (88 ms)',
    ]);
    expect(calls).toBe(1);
    await app.user.click(card.getByRole('button', { name: 'Test carrier connection' }));
    await waitFor(() => expect(calls).toBe(2));
    await card.findByRole('list', { name: 'Carrier connection' });
  });

  it('says why when the check cannot be run', async () => {
    dashboardHandler(figures());
    server.use(
      http.post(api('admin/carriers/check'), () =>
        HttpResponse.json({ code: 'FORBIDDEN', message: 'Admins only' }, { status: 403 }),
      ),
    );
    const app = renderApp('/admin/dashboard', { token: 'good-token' });
    const card = within(await screen.findByRole('region', { name: 'Carrier balance' }));
    await app.user.click(card.getByRole('button', { name: 'Test carrier connection' }));
    expect(await card.findByRole('alert')).toHaveTextContent('Admins only');
    expect(card.getByRole('button', { name: 'Test carrier connection' })).toBeEnabled();
  });
});

describe('Sold by', () => {
  const USPS = { id: 'usps', name: 'USPS' };
  const EASYPOST = { id: 'easypost', name: 'USPS via EasyPost' };
  const routesReply = (priority: { id: string; name: string }[]) => ({
    services: [
      { uid: 'usps_priority_mail', name: 'USPS Priority Mail', carriers: priority, sellers: [USPS, EASYPOST] },
      { uid: 'usps_ground_advantage', name: 'USPS Ground Advantage', carriers: [USPS], sellers: [USPS] },
    ],
  });

  it('lists which carrier sells each service, then the ones standing by', async () => {
    dashboardHandler(figures());
    server.use(http.get(api('admin/carriers/routes'), () => HttpResponse.json(routesReply([USPS, EASYPOST]))));
    renderApp('/admin/dashboard', { token: 'good-token' });
    const card = within(await screen.findByRole('region', { name: 'Carrier balance' }));
    const list = within(await card.findByRole('list', { name: 'Sold by' }));
    const [priority, ground] = list.getAllByRole('listitem');
    // Two carriers sell Priority Mail: it can be switched. Only USPS sells Ground Advantage: it is said.
    expect(within(priority as HTMLElement).getByRole('combobox', { name: 'USPS Priority Mail: sold by' })).toHaveValue(
      'usps',
    );
    expect(
      within(priority as HTMLElement).getByRole('combobox', { name: 'USPS Priority Mail: when it cannot sell' }),
    ).toHaveValue('easypost');
    expect(ground?.textContent).toBe('USPS Ground AdvantageUSPS');
    expect(card.getByRole('button', { name: 'Save carriers' })).toBeDisabled();
  });

  it('switches a service to another carrier: sends only what changed, then shows the saved route', async () => {
    dashboardHandler(figures());
    const sent: unknown[] = [];
    server.use(
      http.get(api('admin/carriers/routes'), () => HttpResponse.json(routesReply([USPS, EASYPOST]))),
      http.put(api('admin/carriers/routes'), async ({ request }) => {
        sent.push(await request.json());
        await delay(50);
        return HttpResponse.json(routesReply([EASYPOST]));
      }),
    );
    const { user } = renderApp('/admin/dashboard', { token: 'good-token' });
    const card = within(await screen.findByRole('region', { name: 'Carrier balance' }));
    const first = await card.findByRole('combobox', { name: 'USPS Priority Mail: sold by' });
    await user.selectOptions(first, 'easypost');
    // The carrier now selling cannot stand by for itself: the fallback offers USPS or no one.
    const then = card.getByRole('combobox', { name: 'USPS Priority Mail: when it cannot sell' });
    expect(
      within(then)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([NO_FALLBACK, 'USPS']);
    expect(then).toHaveValue('');
    await user.click(card.getByRole('button', { name: 'Save carriers' }));
    expect(await card.findByRole('button', { name: /Switching carriers/ })).toBeDisabled();
    expect(await card.findByText(CARRIER_ROUTES_SAVED)).toBeInTheDocument();
    expect(sent).toEqual([{ services: [{ uid: 'usps_priority_mail', carriers: ['easypost'] }] }]);
    expect(card.getByRole('combobox', { name: 'USPS Priority Mail: sold by' })).toHaveValue('easypost');
    expect(card.getByRole('button', { name: 'Save carriers' })).toBeDisabled();
  });

  it('says why a switch was refused, and keeps the choice to correct', async () => {
    dashboardHandler(figures());
    server.use(
      http.get(api('admin/carriers/routes'), () => HttpResponse.json(routesReply([USPS]))),
      http.put(api('admin/carriers/routes'), () =>
        HttpResponse.json(
          { code: 'VALIDATION_FAILED', message: 'The route cannot be used: carrier easypost is not enabled.' },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderApp('/admin/dashboard', { token: 'good-token' });
    const card = within(await screen.findByRole('region', { name: 'Carrier balance' }));
    await user.selectOptions(
      await card.findByRole('combobox', { name: 'USPS Priority Mail: when it cannot sell' }),
      'easypost',
    );
    await user.click(card.getByRole('button', { name: 'Save carriers' }));
    expect(await card.findByRole('alert')).toHaveTextContent(
      'The route cannot be used: carrier easypost is not enabled.',
    );
    expect(card.getByRole('combobox', { name: 'USPS Priority Mail: when it cannot sell' })).toHaveValue('easypost');
    expect(card.getByRole('button', { name: 'Save carriers' })).toBeEnabled();
  });

  it('says so when the list cannot be read, and the rest of the card stays', async () => {
    dashboardHandler(figures());
    server.use(
      http.get(api('admin/carriers/routes'), () =>
        HttpResponse.json({ code: 'INTERNAL', message: 'Something broke' }, { status: 500 }),
      ),
    );
    renderApp('/admin/dashboard', { token: 'good-token' });
    const card = within(await screen.findByRole('region', { name: 'Carrier balance' }));
    expect(await card.findByText('Something broke')).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Test carrier connection' })).toBeEnabled();
  });
});
