import type { RecentDepositsReply, RecentOrdersReply } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeOrderListItem, makeUser } from '../../test/fixtures';
import { api, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const server = setupTestServer(verifyHandler(makeUser()));

afterEach(() => vi.restoreAllMocks());

const order = (i: number) =>
  makeOrderListItem({
    _id: `o-${i}`,
    sender: { sender_name: `Sender ${i}` },
    receiver: { receiver_name: `Receiver ${i}` },
    tracking_number: `9400${i}`,
    createdAt: new Date(2026, 10, 22, 14, 5).toISOString(),
  });

function card(label: string) {
  const cards = screen.getByRole('region', { name: 'Account summary' });
  return within(cards).getByText(label).parentElement as HTMLElement;
}

describe('Dashboard', () => {
  it('still renders with zeros and empty tables when the data services fail', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      http.get(api('orders/total/:userId'), () => new HttpResponse(null, { status: 404 })),
      http.get(api('orders/recent/:userId'), () =>
        HttpResponse.json({ code: 'SERVICE_UNAVAILABLE', message: 'Unavailable' }, { status: 503 }),
      ),
      http.get(api('payment/recent-deposits/:userId'), () => HttpResponse.error()),
    );
    renderApp('/main/dashboard', { token: 'good-token' });

    expect(await screen.findByText('Welcome back, Jane Shipper')).toBeInTheDocument();
    expect(await screen.findByText('No orders found')).toBeInTheDocument();
    expect(await screen.findByText('No deposit found')).toBeInTheDocument();
    expect(card('Balance')).toHaveTextContent('$12.50');
    expect(card('Total Deposit')).toHaveTextContent('$100.00');
    expect(card('Total Orders')).toHaveTextContent('0');
    expect(card('Total Spent')).toHaveTextContent('$87.50');
    expect(logged).toHaveBeenCalled();
  });

  it('shows totals, recent orders (5 per page, copyable tracking) and coloured deposits', async () => {
    const requested: string[] = [];
    server.use(
      http.get(api('orders/total/:userId'), ({ params }) => {
        requested.push(String(params.userId));
        return HttpResponse.json({ totalOrders: 42 });
      }),
      http.get(api('orders/recent/:userId'), () =>
        HttpResponse.json({ recentOrders: [1, 2, 3, 4, 5, 6].map(order) } satisfies RecentOrdersReply),
      ),
      http.get(api('payment/recent-deposits/:userId'), () =>
        HttpResponse.json([
          { _id: 'd-1', amount: 50, createdTime: new Date(2026, 10, 20, 9, 30).getTime() / 1000, status: 'Settled' },
          { _id: 'd-2', amount: 12.5, createdTime: new Date(2026, 10, 21, 18, 0).getTime() / 1000, status: 'Expired' },
          {
            _id: 'd-3',
            amount: 20.255,
            createdTime: new Date(2026, 10, 22, 7, 0).getTime() / 1000,
            status: 'Processing',
          },
        ] satisfies RecentDepositsReply),
      ),
    );
    const app = renderApp('/main/dashboard', { token: 'good-token' });

    const orders = within(await screen.findByRole('region', { name: 'Recent Orders' }));
    expect(await orders.findByText('Sender 1')).toBeInTheDocument();
    expect(requested).toEqual(['u-1']);
    expect(card('Total Orders')).toHaveTextContent('42');
    expect(orders.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Courier',
      'Sender',
      'Receiver',
      'Tracking Number',
      'Created',
    ]);
    expect(orders.getAllByRole('row')).toHaveLength(6);
    expect(orders.queryByText('Sender 6')).not.toBeInTheDocument();
    expect(orders.getAllByText('22-11-2026 14:05')).toHaveLength(5);

    await app.user.click(orders.getByRole('button', { name: 'Copy 94001' }));
    expect(orders.getByText('Copied!')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('94001');
    await waitFor(() => expect(orders.queryByText('Copied!')).not.toBeInTheDocument());

    await app.user.click(orders.getByRole('button', { name: 'Next' }));
    expect(orders.getByText('Sender 6')).toBeInTheDocument();

    const deposits = within(screen.getByRole('region', { name: 'Recent Deposits' }));
    expect(deposits.getByText('$50')).toBeInTheDocument();
    expect(deposits.getByText('$20.26')).toBeInTheDocument();
    expect(deposits.getByText('20-11-2026 09:30')).toBeInTheDocument();
    expect(deposits.getByText('Settled')).toHaveClass('status-pill--settled');
    expect(deposits.getByText('Expired')).toHaveClass('status-pill--expired');
    expect(deposits.getByText('Processing')).toHaveClass('status-pill--pending');
  });
});
