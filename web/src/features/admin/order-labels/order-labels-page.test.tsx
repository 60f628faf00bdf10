import type { AdminBulkOrderRow, AdminLabelRow } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../../test/fixtures';
import { api, verifyHandler } from '../../../test/handlers';
import { setupTestServer } from '../../../test/msw';
import { renderApp } from '../../../test/render-app';

const server = setupTestServer(verifyHandler(makeUser({ user_role: 'admin' })));
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
  cost: 16.5,
  hasPdf: true,
  hasResultCsv: true,
  hasAutoConfirmCsv: false,
  createdAt: '2026-11-19T09:00:00.000Z',
};

/** The page's reads; `labels` answers the label list (and a bulk order's rows) and records each query. */
function handlers(labels: (q: URLSearchParams) => AdminLabelRow[], totalCount?: number) {
  const queries: URLSearchParams[] = [];
  server.use(
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
    const pdf = screen.getByRole('link', { name: 'Download label 94001' });
    expect(pdf).toHaveAttribute('href', '/api/orders/download/v2/label-1.pdf?token=good-token');
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
    expect(screen.getByLabelText('User ID')).toHaveValue(USER);
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
    expect(orders.getByRole('link', { name: 'Labels PDF' })).toHaveAttribute(
      'href',
      `/api/orders/download/pdf/${ORDER}?token=good-token`,
    );
    expect(orders.getByRole('link', { name: 'Results CSV' })).toHaveAttribute(
      'href',
      `/api/orders/download/result-csv/${ORDER}?token=good-token`,
    );
    expect(orders.queryByRole('link', { name: 'Auto-confirm CSV' })).not.toBeInTheDocument();

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
