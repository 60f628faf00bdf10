import type { AdminBulkOrderRow, AdminLabelRow, AdminUsersReply } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../../test/fixtures';
import { api, downloadLinkHandler, verifyHandler } from '../../../test/handlers';
import { setupTestServer } from '../../../test/msw';
import { renderApp } from '../../../test/render-app';
import { stubWindowOpen } from '../../../test/tabs';

const server = setupTestServer(verifyHandler(makeUser({ user_role: 'admin' })), downloadLinkHandler());
afterEach(() => vi.restoreAllMocks());

const USER = '11111111-1111-4111-8111-111111111111';
const ORDER = '22222222-2222-4222-8222-222222222222';

const label = (i: number, over: Partial<AdminLabelRow> = {}): AdminLabelRow => ({
  _id: `00000000-0000-4000-8000-00000000000${i}`,
  userId: USER,
  bulkOrderId: null,
  row: null,
  status: 'completed',
  courier: 'usps',
  serviceUid: 'usps_priority_mail',
  serviceName: 'USPS Priority Mail',
  price: 8.25,
  senderName: 'Ada Sender',
  receiverName: `Receiver ${i}`,
  receiverPlace: 'Austin, TX 73301',
  trackingNumber: `9400${i}`,
  pdfName: `label-${i}.pdf`,
  error: null,
  refunded: false,
  voidedAt: null,
  voidedBy: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  refundStatus: null,
  refundReason: null,
  refundable: true,
  refundBlockedReason: null,
  trackingStage: 'pre_transit',
  ...over,
});

const bulkOrder: AdminBulkOrderRow = {
  _id: ORDER,
  userId: USER,
  status: 'completed_with_errors',
  source: 'csv',
  fileName: 'november.csv',
  totalCount: 2,
  processedCount: 1,
  failedCount: 1,
  refundedCount: 0,
  cost: 16.5,
  hasPdf: true,
  hasResultCsv: true,
  hasAutoConfirmCsv: false,
  createdAt: '2026-11-19T09:00:00.000Z',
};

const jane = makeUser({ _id: USER, name: 'Jane Shipper', email: 'jane@example.com', referralCode: 'JANE1' });
const bob = makeUser({
  _id: '33333333-3333-4333-8333-333333333333',
  name: 'Bob Sender',
  email: 'bob@example.com',
  referralCode: 'BOB9',
});

/** Every user search the picker sent, newest last. */
let userSearches: URLSearchParams[] = [];

/** GET /api/auth/users as the server answers it: name, email or code containing the text. */
const usersSearchHandler = () =>
  http.get(api('auth/users'), ({ request }) => {
    const params = new URL(request.url).searchParams;
    userSearches.push(params);
    const q = (params.get('search') ?? '').toLowerCase();
    const users = [jane, bob].filter((u) => [u.name, u.email, u.referralCode].some((t) => t.toLowerCase().includes(q)));
    return HttpResponse.json({
      users,
      totalCount: users.length,
      page: 1,
      limit: Number(params.get('limit')),
      totals: { balance: 0, totalDeposit: 0, totalSpent: 0 },
    } satisfies AdminUsersReply);
  });

/** The page's reads; `labels` answers the label list (and a bulk order's rows) and records each query. */
function handlers(labels: (q: URLSearchParams) => AdminLabelRow[], totalCount?: number) {
  const queries: URLSearchParams[] = [];
  userSearches = [];
  server.use(
    usersSearchHandler(),
    http.get(api('orders/admin/labels'), ({ request }) => {
      const q = new URL(request.url).searchParams;
      queries.push(q);
      const rows = labels(q);
      return HttpResponse.json({
        labels: rows,
        totalCount: totalCount ?? rows.length,
        page: Number(q.get('page')),
        limit: 25,
      });
    }),
    http.get(api('orders/admin/bulk-orders'), () =>
      HttpResponse.json({ bulkOrders: [bulkOrder], totalCount: 1, page: 1, limit: 25 }),
    ),
    http.get(api('rawServices'), () =>
      HttpResponse.json([
        {
          _id: 's1',
          uid: 'usps_priority_mail',
          name: 'USPS Priority Mail',
          category: 'usps',
          carrier: 'usps',
          maxWeight: 70,
          status: 'active',
        },
        {
          _id: 's2',
          uid: 'usps_ground_advantage',
          name: 'USPS Ground Advantage',
          category: 'usps',
          carrier: 'usps',
          maxWeight: 70,
          status: 'active',
        },
      ]),
    ),
  );
  return queries;
}

const labelsTable = () => within(screen.getByRole('table', { name: 'Labels' }));

describe('Order label management page', () => {
  it('lists every user’s labels with a PDF link, and filters through the server', async () => {
    const queries = handlers(() => [label(1), label(2, { status: 'void', refunded: true })], 60);
    const { user } = renderApp('/admin/order-label-management', { token: 'good-token' });
    expect(await screen.findByText('Receiver 1')).toBeInTheDocument();
    expect(screen.getByText('60 labels')).toBeInTheDocument();
    expect(Object.fromEntries(queries[0] ?? [])).toEqual({ page: '1', limit: '25' });
    const tabs = stubWindowOpen();
    await user.click(screen.getByRole('button', { name: 'Download label 94001' }));
    await waitFor(() =>
      expect(tabs.map((t) => t.url)).toEqual([
        'http://localhost/api/orders/download/v2/label-1.pdf?token=download-token-1',
      ]),
    );
    // A void label offers its file but no second refund.
    expect(screen.getByRole('button', { name: 'Refund label 94001' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Refund label 94002' })).not.toBeInTheDocument();
    expect(labelsTable().getByText('Void (refunded)')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Tracking number'), ' 9400 ');
    await user.selectOptions(screen.getByLabelText('Status'), 'completed');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Service' }), 'usps_ground_advantage');
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-30');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(queries).toHaveLength(2));
    expect(Object.fromEntries(queries[1] ?? [])).toEqual({
      page: '1',
      limit: '25',
      tracking: '9400',
      status: 'completed',
      service: 'usps_ground_advantage',
      from: '2026-11-01',
      to: '2026-11-30',
    });

    // A user's id filters by that user; the pages go through the server too.
    await user.click(labelsTable().getAllByRole('button', { name: USER.slice(0, 8) })[0] as HTMLElement);
    await waitFor(() => expect(queries).toHaveLength(3));
    expect(queries[2]?.get('userId')).toBe(USER);
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(queries).toHaveLength(4));
    expect(queries[3]?.get('page')).toBe('2');
    expect(queries[3]?.get('userId')).toBe(USER);
  });

  it('opens on one user’s labels and bulk orders from ?userId=', async () => {
    const queries = handlers(() => [label(1)]);
    const bulkQueries: URLSearchParams[] = [];
    server.use(
      http.get(api('orders/admin/bulk-orders'), ({ request }) => {
        bulkQueries.push(new URL(request.url).searchParams);
        return HttpResponse.json({ bulkOrders: [], totalCount: 0, page: 1, limit: 25 });
      }),
    );
    renderApp(`/admin/order-label-management?userId=${USER}`, { token: 'good-token' });
    expect(await screen.findByText('Receiver 1')).toBeInTheDocument();
    expect(queries[0]?.get('userId')).toBe(USER);
    expect(bulkQueries[0]?.get('userId')).toBe(USER);
    // Known only by its id until the operator picks another user.
    expect(screen.getByRole('combobox', { name: 'User' })).toHaveValue(USER);
  });

  it('filters by a user picked by name or email, searched on the server 10 at a time', async () => {
    const queries = handlers(() => [label(1)]);
    const bulkQueries: URLSearchParams[] = [];
    server.use(
      http.get(api('orders/admin/bulk-orders'), ({ request }) => {
        bulkQueries.push(new URL(request.url).searchParams);
        return HttpResponse.json({ bulkOrders: [], totalCount: 0, page: 1, limit: 25 });
      }),
    );
    const { user } = renderApp('/admin/order-label-management', { token: 'good-token' });
    expect(await screen.findByText('Receiver 1')).toBeInTheDocument();

    const picker = screen.getByRole('combobox', { name: 'User' });
    await user.type(picker, 'jane');
    await waitFor(() =>
      expect(userSearches.map((s) => [s.get('search'), s.get('limit')])).toContainEqual(['jane', '10']),
    );
    // Typing waits for a pause: not one request per key.
    expect(userSearches.map((s) => s.get('search'))).not.toContain('j');
    await user.click(await screen.findByRole('option', { name: 'Jane Shipper (jane@example.com)' }));
    expect(picker).toHaveValue('Jane Shipper (jane@example.com)');
    // Picking alone does not search: the filters go together.
    expect(queries).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(queries).toHaveLength(2));
    expect(Object.fromEntries(queries[1] ?? [])).toEqual({ page: '1', limit: '25', userId: USER });

    // 'Any user' drops the filter.
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Any user' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(queries).toHaveLength(3));
    expect(Object.fromEntries(queries[2] ?? [])).toEqual({ page: '1', limit: '25' });

    // The bulk orders have the same picker; an email finds the user too.
    await user.click(screen.getByRole('tab', { name: 'Bulk orders' }));
    const bulkPicker = screen.getByRole('combobox', { name: 'User' });
    await user.type(bulkPicker, 'bob@');
    await user.click(await screen.findByRole('option', { name: 'Bob Sender (bob@example.com)' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(bulkQueries.at(-1)?.get('userId')).toBe(bob._id));
  });

  it("toasts 'Failed to load users' with the server's reason when the user search fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    handlers(() => [label(1)]);
    server.use(
      http.get(api('auth/users'), ({ request }) =>
        new URL(request.url).searchParams.get('search') === 'broken'
          ? HttpResponse.json({ code: 'INTERNAL', message: 'Auth is unavailable' }, { status: 400 })
          : HttpResponse.json({
              users: [jane],
              totalCount: 1,
              page: 1,
              limit: 10,
              totals: { balance: 0, totalDeposit: 0, totalSpent: 0 },
            }),
      ),
    );
    const { user } = renderApp('/admin/order-label-management', { token: 'good-token' });
    expect(await screen.findByText('Receiver 1')).toBeInTheDocument();
    await user.type(screen.getByRole('combobox', { name: 'User' }), 'broken');
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Failed to load users');
    expect(toast).toHaveTextContent('Auth is unavailable');
  });

  it('refunds a label after confirmation and shows it void', async () => {
    handlers(() => [label(1)]);
    const refunds: string[] = [];
    server.use(
      http.post(api('orders/admin/labels/:id/refund'), ({ params }) => {
        refunds.push(String(params.id));
        return HttpResponse.json({ message: 'Label refunded', label: label(1, { status: 'void', refunded: true }) });
      }),
    );
    const { user } = renderApp('/admin/order-label-management', { token: 'good-token' });
    await user.click(await screen.findByRole('button', { name: 'Refund label 94001' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Refund $8.25 to the user for label 94001?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(refunds).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Refund label 94001' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Label refunded');
    expect(refunds).toEqual([label(1)._id]);
    expect(labelsTable().getByText('Void (refunded)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Refund label 94001' })).not.toBeInTheDocument();
    // A void label is not offered for printing any more.
    expect(labelsTable().queryByRole('link', { name: 'Download label 94001' })).not.toBeInTheDocument();
    expect(labelsTable().getByText('PDF void')).toBeInTheDocument();
  });

  it('offers Force Recovery for a bulk order stuck generating files, for its owner, and shows what became of it', async () => {
    handlers(() => [label(1)]);
    let recovered = false;
    const recoveries: string[] = [];
    server.use(
      http.get(api('orders/admin/bulk-orders'), () =>
        HttpResponse.json({
          bulkOrders: [
            recovered
              ? { ...bulkOrder, totalCount: 3, refundedCount: 1 }
              : {
                  ...bulkOrder,
                  status: 'generating_files',
                  totalCount: 3,
                  refundedCount: 1,
                  hasPdf: false,
                  hasResultCsv: false,
                },
          ],
          totalCount: 1,
          page: 1,
          limit: 25,
        }),
      ),
      http.post(api('orders/bulk/force-recovery/:userId/:orderId'), ({ params }) => {
        recoveries.push(`${params.userId}/${params.orderId}`);
        recovered = true;
        return HttpResponse.json({
          message: 'Order recovered. Its files are ready to download.',
          status: 'completed_with_errors',
          processedCount: 1,
          failedCount: 1,
          refundedCount: 1,
          totalCount: 3,
          fileData: { pdfName: 'Labels_11-19.pdf', resultCSVName: 'Order_Results_11-19.csv', autoConfirmCSVName: null },
        });
      }),
    );
    const { user } = renderApp('/admin/order-label-management', { token: 'good-token' });
    await user.click(await screen.findByRole('tab', { name: 'Bulk orders' }));
    const orders = within(screen.getByRole('table', { name: 'Bulk orders' }));
    expect(await orders.findByText('Files generation stuck')).toBeInTheDocument();
    expect(orders.getByText('1/3, 1 failed, 1 refunded')).toBeInTheDocument();
    expect(orders.queryByRole('button', { name: 'Labels PDF' })).not.toBeInTheDocument();

    await user.click(orders.getByRole('button', { name: 'Force Recovery of bulk order november.csv' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Order recovered. Its files are ready to download.');
    expect(recoveries).toEqual([`${USER}/${ORDER}`]);
    expect(await orders.findByRole('button', { name: 'Labels PDF' })).toBeInTheDocument();
    expect(orders.getByText('completed_with_errors')).toBeInTheDocument();
    expect(orders.queryByRole('button', { name: /Force Recovery/ })).not.toBeInTheDocument();
  });

  it('tells the server’s reason when a refund is refused', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    handlers(() => [label(1)]);
    server.use(
      http.post(api('orders/admin/labels/:id/refund'), () =>
        HttpResponse.json(
          { code: 'ORDERS_LABEL_ALREADY_REFUNDED', message: 'Label already refunded' },
          { status: 409 },
        ),
      ),
    );
    const { user } = renderApp('/admin/order-label-management', { token: 'good-token' });
    await user.click(await screen.findByRole('button', { name: 'Refund label 94001' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Label already refunded');
  });

  it('shows bulk orders with their files, and opens an order’s rows', async () => {
    const queries = handlers((q) =>
      q.get('bulkOrderId') === ORDER
        ? [
            label(3, { bulkOrderId: ORDER, row: 1 }),
            label(4, {
              bulkOrderId: ORDER,
              row: 2,
              status: 'cancelled',
              pdfName: null,
              trackingNumber: null,
              error: 'Address not found',
            }),
          ]
        : [label(1)],
    );
    const { user } = renderApp('/admin/order-label-management', { token: 'good-token' });
    await user.click(await screen.findByRole('tab', { name: 'Bulk orders' }));
    const orders = within(screen.getByRole('table', { name: 'Bulk orders' }));
    expect(await orders.findByText('november.csv')).toBeInTheDocument();
    expect(orders.getByText('1/2, 1 failed')).toBeInTheDocument();
    // Attachments: saved through a download link made at the click, no tab left behind.
    const tabs = stubWindowOpen();
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      if (this.hasAttribute('download')) saved.push(this.href);
    });
    await user.click(orders.getByRole('button', { name: 'Labels PDF' }));
    await user.click(orders.getByRole('button', { name: 'Results CSV' }));
    await waitFor(() =>
      expect(saved.sort()).toEqual([
        `http://localhost/api/orders/download/pdf/${ORDER}?token=download-token-1`,
        `http://localhost/api/orders/download/result-csv/${ORDER}?token=download-token-1`,
      ]),
    );
    expect(tabs).toEqual([]);
    expect(orders.queryByRole('button', { name: 'Auto-confirm CSV' })).not.toBeInTheDocument();

    await user.click(orders.getByRole('button', { name: 'View rows' }));
    const rows = within(await screen.findByRole('table', { name: 'Bulk order rows' }));
    expect(await rows.findByText('Receiver 3')).toBeInTheDocument();
    expect(rows.getByText('#2')).toBeInTheDocument();
    expect(rows.getByText('Failed')).toHaveAttribute('title', 'Address not found');
    expect(queries.at(-1)?.get('bulkOrderId')).toBe(ORDER);
    expect(screen.getByRole('heading', { name: 'Rows of november.csv' })).toBeInTheDocument();
  });

  it("toasts 'Failed to load labels' when the list cannot be loaded", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    handlers(() => []);
    server.use(http.get(api('orders/admin/labels'), () => new HttpResponse(null, { status: 500 })));
    renderApp('/admin/order-label-management', { token: 'good-token' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load labels');
    expect(screen.getByText('No labels match these filters')).toBeInTheDocument();
  });
});
