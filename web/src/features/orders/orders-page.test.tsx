import { screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, downloadLinkHandler, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { stubWindowOpen } from '../../test/tabs';

const server = setupTestServer(verifyHandler(makeUser()));

afterEach(() => vi.restoreAllMocks());

type Status = 'pending' | 'completed' | 'cancelled' | 'void';

/** Order `i` was made on day `i` of November 2026: a higher i is newer. */
const order = (
  i: number,
  overrides: Partial<{ status: Status; pdfName: string | null; service_name: string }> = {},
) => ({
  _id: `o-${i}`,
  courier: 'usps',
  service_name: 'USPS Ground Advantage',
  status: 'completed' as Status,
  sender: { sender_name: `Sender ${i}` },
  receiver: { receiver_name: `Receiver ${i}` },
  tracking_number: `9400${i}`,
  pdfName: `label-${i}.pdf`,
  price: 8.25,
  createdAt: new Date(2026, 10, i, 14, 5).toISOString(),
  ...overrides,
});

const table = () => within(screen.getByRole('table', { name: 'Orders List' }));
const bodyRows = () => table().getAllByRole('row').slice(1);

describe('Orders page', () => {
  it("shows 'Loading orders...' while loading, then 'No orders found' for none", async () => {
    server.use(
      http.get(api('orders/:userId'), async () => {
        await delay(200);
        return HttpResponse.json({ orders: [] });
      }),
    );
    renderApp('/main/orders', { token: 'good-token' });
    expect(await screen.findByText('Loading orders...')).toBeInTheDocument();
    expect(await screen.findByText('No orders found')).toBeInTheDocument();
    expect(screen.queryByText('Loading orders...')).not.toBeInTheDocument();
  });

  it("shows 'No orders found' and an error toast when the orders cannot be loaded", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.get(api('orders/:userId'), () => new HttpResponse(null, { status: 500 })));
    renderApp('/main/orders', { token: 'good-token' });
    expect(await screen.findByText('No orders found')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading orders');
  });

  it('lists the orders newest first, 7 per page, with the spec columns and date format', async () => {
    const requested: string[] = [];
    server.use(
      http.get(api('orders/:userId'), ({ params }) => {
        requested.push(String(params.userId));
        // Oldest first from the server: the page must reorder.
        return HttpResponse.json({ orders: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => order(i)) });
      }),
    );
    const app = renderApp('/main/orders', { token: 'good-token' });
    expect(await screen.findByText('Sender 9')).toBeInTheDocument();
    expect(requested).toEqual(['u-1']);

    expect(
      table()
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Service', 'Sender', 'Receiver', 'Tracking Number', 'Tracking', 'Added', 'Download', 'Refund']);
    expect(bodyRows()).toHaveLength(7);
    expect(bodyRows().map((r) => within(r).getAllByRole('cell')[1]?.textContent)).toEqual([
      'Sender 9',
      'Sender 8',
      'Sender 7',
      'Sender 6',
      'Sender 5',
      'Sender 4',
      'Sender 3',
    ]);
    expect(table().getByText('09-11-2026 14:05')).toBeInTheDocument();
    expect(table().getByRole('button', { name: 'Copy 94009' })).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Next' }));
    expect(bodyRows().map((r) => within(r).getAllByRole('cell')[1]?.textContent)).toEqual(['Sender 2', 'Sender 1']);
  });

  it('marks a label an admin refunded as void', async () => {
    server.use(http.get(api('orders/:userId'), () => HttpResponse.json({ orders: [order(4, { status: 'void' })] })));
    renderApp('/main/orders', { token: 'good-token' });
    await screen.findByText('Sender 4');
    const [row] = bodyRows();
    expect(row).toHaveClass('orders__row--void');
    expect(within(row as HTMLElement).getByText('Void (refunded)')).toHaveClass('order-status--void');
    // Its label is not offered for printing: the postage was given back.
    expect(within(row as HTMLElement).queryByRole('link', { name: /PDF label/ })).toBeNull();
    expect(within(row as HTMLElement).getByText('Void')).toBeInTheDocument();
  });

  it('tints rows by status with a status badge, and offers a PDF only when the order has one', async () => {
    const links: { path: string; session: string | null }[] = [];
    server.use(
      downloadLinkHandler('download-token-1', links),
      http.get(api('orders/:userId'), () =>
        HttpResponse.json({
          orders: [
            order(3, { status: 'pending', pdfName: null }),
            order(2, { status: 'completed', pdfName: 'label two.pdf' }),
            order(1, { status: 'cancelled', pdfName: null, service_name: '' }),
          ],
        }),
      ),
    );
    const { user } = renderApp('/main/orders', { token: 'good-token' });
    await screen.findByText('Sender 3');
    const [pending, completed, cancelled] = bodyRows();
    if (!pending || !completed || !cancelled) throw new Error('three rows expected');

    expect(pending).toHaveClass('orders__row--pending');
    expect(completed).toHaveClass('orders__row--completed');
    expect(cancelled).toHaveClass('orders__row--cancelled');
    expect(within(pending).getByText('Pending')).toHaveClass('order-status--pending');
    expect(within(completed).getByText('Completed')).toHaveClass('order-status--completed');
    expect(within(cancelled).getByText('Cancelled')).toHaveClass('order-status--cancelled');

    // The row's own service; the spec's fixed text only when the order names none.
    expect(within(completed).getByText('USPS Ground Advantage')).toBeInTheDocument();
    expect(within(cancelled).getByText('USPS Priority Mail')).toBeInTheDocument();

    expect(within(pending).queryByRole('button', { name: /PDF/ })).not.toBeInTheDocument();
    expect(within(cancelled).queryByRole('button', { name: /PDF/ })).not.toBeInTheDocument();
    const pdf = within(completed).getByRole('button', { name: /PDF/ });
    expect(pdf).toHaveTextContent('PDF');

    // A new tab, opened at the click, is sent to a download link made for this one file.
    const tabs = stubWindowOpen();
    await user.click(pdf);
    await waitFor(() =>
      expect(tabs.map((t) => t.url)).toEqual([
        'http://localhost/api/orders/download/v2/label%20two.pdf?token=download-token-1',
      ]),
    );
    expect(links).toEqual([{ path: '/api/orders/download/v2/label%20two.pdf', session: 'good-token' }]);
  });

  it('a PDF that cannot be had closes its tab and says why', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      http.get(api('orders/:userId'), () => HttpResponse.json({ orders: [order(1)] })),
      http.post(api('orders/download-token'), () =>
        HttpResponse.json({ code: 'FILE_NOT_FOUND', message: 'File not found' }, { status: 404 }),
      ),
    );
    const tabs = stubWindowOpen();
    const { user } = renderApp('/main/orders', { token: 'good-token' });
    await user.click(await screen.findByRole('button', { name: /PDF/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('File not found');
    expect(tabs).toMatchObject([{ url: '', closed: true }]);
  });
});
