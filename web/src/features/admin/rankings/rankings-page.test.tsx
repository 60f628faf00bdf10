import type { RankingRow, RankingsReply } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../../test/fixtures';
import { api, verifyHandler } from '../../../test/handlers';
import { setupTestServer } from '../../../test/msw';
import { renderApp } from '../../../test/render-app';

const server = setupTestServer(verifyHandler(makeUser({ user_role: 'admin' })));
afterEach(() => vi.restoreAllMocks());

const row = (i: number, over: Partial<RankingRow> = {}): RankingRow => ({
  userId: `u-${i}`,
  userName: `User ${i}`,
  userEmail: `user${i}@example.com`,
  userRole: 'user',
  activation: 'allow',
  labelCount: 10 - i,
  totalRevenue: 100 - i * 5.5,
  totalCost: 80 - i * 4,
  margin: 20 - i * 1.5,
  averageLabelsPerDay: (10 - i) / 30,
  firstOrderDate: '2026-11-02T10:00:00.000Z',
  lastOrderDate: '2026-11-20T15:30:00.000Z',
  ...over,
});

const reply = (rankings: RankingRow[], over: Partial<RankingsReply> = {}): RankingsReply => ({
  rankings,
  summary: {
    uniqueUsers: rankings.length,
    totalLabels: rankings.reduce((n, r) => n + r.labelCount, 0),
    totalRevenue: rankings.reduce((n, r) => n + r.totalRevenue, 0),
    totalCost: rankings.reduce((n, r) => n + r.totalCost, 0),
    margin: rankings.reduce((n, r) => n + r.margin, 0),
  },
  daily: [
    { date: '2026-11-01', labels: 3, revenue: 30.5 },
    { date: '2026-11-02', labels: 0, revenue: 0 },
    { date: '2026-11-03', labels: 5, revenue: 62 },
  ],
  period: { start: '2026-11-01', end: '2026-11-03', days: 3 },
  ...over,
});

/** Answers every rankings request with `body` and records the query strings asked for. */
function rankingsHandler(body: RankingsReply | (() => Response | Promise<Response>)) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(api('admin/user-volume-rankings'), async ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return typeof body === 'function' ? body() : HttpResponse.json(body);
    }),
  );
  return queries;
}

const table = () => within(screen.getByRole('table', { name: 'User volume rankings' }));
const bodyRows = () => table().getAllByRole('row').slice(1);

describe('User volume rankings page', () => {
  it('asks for this month, top 50 by labels, and shows the summary, the chart and the rows', async () => {
    const queries = rankingsHandler(reply([row(1, { activation: 'block' }), row(2)]));
    renderApp('/admin/user-volume-rankings', { token: 'good-token' });
    expect(await screen.findByText('User 1')).toBeInTheDocument();
    expect(Object.fromEntries(queries[0] ?? [])).toEqual({
      period: 'month',
      limit: '50',
      sort: 'labels',
      order: 'desc',
    });

    const summary = screen.getByText('Unique users').closest('dl') as HTMLElement;
    expect(within(summary).getByText('Unique users').nextSibling).toHaveTextContent('2');
    expect(within(summary).getByText('Total labels').nextSibling).toHaveTextContent('17');
    expect(within(summary).getByText('Total revenue').nextSibling).toHaveTextContent('$183.50');
    expect(within(summary).getByText('Carrier cost').nextSibling).toHaveTextContent('$148.00');
    expect(within(summary).getByText('Margin').nextSibling).toHaveTextContent('$35.50');

    expect(
      screen.getByRole('img', { name: /Labels and revenue per day, 2026-11-01 to 2026-11-03/ }),
    ).toBeInTheDocument();
    expect(screen.getAllByTestId('rankings-chart-bar')).toHaveLength(3);

    const [first] = bodyRows();
    const cells = within(first as HTMLElement)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(within(first as HTMLElement).getByRole('link', { name: 'User 1' })).toHaveAttribute(
      'href',
      '/admin/order-label-management?userId=u-1',
    );
    expect(cells).toEqual([
      '1',
      'User 1user1@example.com',
      'user',
      'Blocked',
      '9',
      '$94.50',
      '$76.00',
      '$18.50',
      '0.30',
      '02-11-2026 10:00',
      '20-11-2026 15:30',
    ]);
  });

  it('sorts by a column header through the server, then the other way on a second click', async () => {
    const queries = rankingsHandler(reply([row(1)]));
    const { user } = renderApp('/admin/user-volume-rankings', { token: 'good-token' });
    await screen.findByText('User 1');
    await user.click(screen.getByRole('button', { name: 'Revenue' }));
    await waitFor(() => expect(queries).toHaveLength(2));
    expect(queries[1]?.get('sort')).toBe('revenue');
    expect(queries[1]?.get('order')).toBe('desc');
    expect(table().getByRole('columnheader', { name: /Revenue/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByRole('button', { name: /Revenue/ }));
    await waitFor(() => expect(queries).toHaveLength(3));
    expect(queries[2]?.get('order')).toBe('asc');
    await user.click(screen.getByRole('button', { name: 'User' }));
    await waitFor(() => expect(queries).toHaveLength(4));
    expect([queries[3]?.get('sort'), queries[3]?.get('order')]).toEqual(['name', 'asc']);
    await user.click(screen.getByRole('button', { name: 'Avg / day' }));
    await waitFor(() => expect(queries).toHaveLength(5));
    expect(queries[4]?.get('sort')).toBe('averagePerDay');
  });

  it('changes period and limit, and a custom period needs both dates before it asks', async () => {
    const queries = rankingsHandler(reply([row(1)]));
    const { user } = renderApp('/admin/user-volume-rankings', { token: 'good-token' });
    await screen.findByText('User 1');
    await user.selectOptions(screen.getByLabelText('Period'), 'year');
    await waitFor(() => expect(queries).toHaveLength(2));
    expect(queries[1]?.get('period')).toBe('year');
    await user.selectOptions(screen.getByLabelText('Limit'), '100');
    await waitFor(() => expect(queries).toHaveLength(3));
    expect(queries[2]?.get('limit')).toBe('100');

    await user.selectOptions(screen.getByLabelText('Period'), 'custom');
    expect(screen.getByRole('note')).toHaveTextContent('Please select both start and end dates for custom period');
    await user.type(screen.getByLabelText('Start date'), '2026-10-01');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please select both start and end dates for custom period',
    );
    expect(queries).toHaveLength(3);

    await user.type(screen.getByLabelText('End date'), '2026-10-31');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(queries).toHaveLength(4));
    expect(Object.fromEntries(queries[3] ?? [])).toMatchObject({
      period: 'custom',
      startDate: '2026-10-01',
      endDate: '2026-10-31',
    });
  });

  it("shows 'Loading rankings...' while loading, then an empty state for a period without labels", async () => {
    rankingsHandler(async () => {
      await delay(150);
      return HttpResponse.json(reply([]));
    });
    renderApp('/admin/user-volume-rankings', { token: 'good-token' });
    expect(await screen.findByText('Loading rankings...')).toBeInTheDocument();
    expect(await screen.findByText('No labels were bought in this period')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it("toasts 'Failed to fetch rankings' when the call fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    rankingsHandler(() => new HttpResponse(null, { status: 500 }));
    renderApp('/admin/user-volume-rankings', { token: 'good-token' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch rankings');
  });

  it("tells a refused request in the server's words under the toast", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    rankingsHandler(() =>
      HttpResponse.json({ code: 'VALIDATION_FAILED', message: 'startDate must not be after endDate' }, { status: 400 }),
    );
    renderApp('/admin/user-volume-rankings', { token: 'good-token' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to fetch rankingsstartDate must not be after endDate',
    );
  });

  it("tells any other failure in the page's words alone, even when the server sent some", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    rankingsHandler(() =>
      HttpResponse.json({ code: 'SERVICE_UNAVAILABLE', message: 'Try again shortly' }, { status: 503 }),
    );
    const app = renderApp('/admin/user-volume-rankings', { token: 'good-token' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch rankings');
    expect(screen.getByRole('alert').querySelector('.toast__detail')).toBeNull();
    expect(app.store.getState().toast.toasts[0]).not.toHaveProperty('detail');
  });

  it('exports the rows shown as a CSV named after the period', async () => {
    rankingsHandler(reply([row(1, { userName: 'Smith, "Jo"' }), row(2)]));
    let blob: Blob | undefined;
    const createObjectURL = vi.fn((b: Blob) => {
      blob = b;
      return 'blob:rankings';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const { user } = renderApp('/admin/user-volume-rankings', { token: 'good-token' });
    await screen.findByText('Smith, "Jo"');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(clicked).toEqual(['user-volume-rankings-month.csv']);
    const text = await (blob as Blob).text();
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Rank,User,Email,Role,Status,Labels,Revenue,Cost,Margin,Average per day,First order,Last order',
    );
    expect(lines[1]).toBe(
      '1,"Smith, ""Jo""",user1@example.com,user,Active,9,94.50,76.00,18.50,0.30,2026-11-02T10:00:00.000Z,2026-11-20T15:30:00.000Z',
    );
    expect(lines).toHaveLength(3);
  });
});
