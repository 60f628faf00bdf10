import type { BatchOrdersReply, BulkFixReply } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeBatchOrder, makeUser } from '../../test/fixtures';
import { api, downloadLinkHandler, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import type { BatchOrder } from './batch-orders-api';

const server = setupTestServer(verifyHandler(makeUser()), downloadLinkHandler());

const batch = (i: number, overrides: Partial<BatchOrder> = {}): BatchOrder =>
  makeBatchOrder({
    _id: `b-${i}`,
    createdAt: new Date(2026, 2, i, 9, 30).toISOString(),
    processedCount: 4,
    totalCount: 4,
    bulkOrderData: { cost: 21.5 },
    pdfName: `b-${i}.pdf`,
    resultCSVName: `b-${i}.csv`,
    ...overrides,
  });
const listed = (bulkOrders: BatchOrder[]) => HttpResponse.json({ bulkOrders } satisfies BatchOrdersReply);

const rows = () =>
  within(screen.getByRole('table', { name: 'Batch Orders List' }))
    .getAllByRole('row')
    .slice(1);

describe('Batch Orders page', () => {
  it('lists 7 per page, newest first, with every column', async () => {
    const list = Array.from({ length: 9 }, (_, i) => batch(i + 1));
    server.use(http.get(api('orders/bulk/u-1'), () => listed(list)));
    renderApp('/main/batch-orders', { token: 'good-token' });
    expect(await screen.findByRole('heading', { name: 'Batch Orders List' })).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(7));
    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Date & Time', 'Status', 'Ordered', 'Processed', 'Price', 'Download', 'Actions']);
    const first = rows()[0] as HTMLElement;
    expect(first).toHaveTextContent('09-03-2026 09:30');
    expect(first).toHaveTextContent('$21.50');
    expect(within(first).getByText('No Actions')).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'PDF' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Result CSV' })).toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: 'Auto Confirm' })).toBeNull();
  });

  it("says 'No batch orders found' for none and 'Failed to fetch batch orders' on failure", async () => {
    server.use(http.get(api('orders/bulk/u-1'), () => listed([])));
    const first = renderApp('/main/batch-orders', { token: 'good-token' });
    expect(await screen.findByText('No batch orders found')).toBeInTheDocument();
    first.unmount();
    server.use(http.get(api('orders/bulk/u-1'), () => new HttpResponse(null, { status: 500 })));
    renderApp('/main/batch-orders', { token: 'good-token' });
    expect(await screen.findByText('Failed to fetch batch orders')).toBeInTheDocument();
  });

  it('retries failed labels, says so, and reloads the list a second later', async () => {
    let listCalls = 0;
    server.use(
      http.get(api('orders/bulk/u-1'), () => {
        listCalls += 1;
        return listed([
          batch(1, {
            status: listCalls > 1 ? 'retrying_failed' : 'completed_with_errors',
            failedCount: 2,
            processedCount: 4,
          }),
        ]);
      }),
      http.post(api('orders/bulk/retry-failed/b-1'), () => HttpResponse.json({ message: 'started' })),
    );
    const { user } = renderApp('/main/batch-orders', { token: 'good-token' });
    await user.click(await screen.findByRole('button', { name: 'Retry Failed' }));
    expect(
      await screen.findByText('Retry process started successfully! Files will be regenerated automatically.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(listCalls).toBe(2), { timeout: 3000 });
    expect(await screen.findByText('Retrying Failed')).toBeInTheDocument();
  });

  it('fixes a batch with progress and outcome toasts', async () => {
    server.use(
      http.get(api('orders/bulk/u-1'), () =>
        listed([batch(1, { status: 'processing_error', processedCount: 2, totalCount: 4 })]),
      ),
      http.post(api('orders/bulk/fix/b-1'), () =>
        HttpResponse.json({
          message: 'Batch order fixed',
          status: 'processing_error',
          processedCount: 2,
          failedCount: 0,
          totalCount: 4,
          fileData: null,
        } satisfies BulkFixReply),
      ),
    );
    const { user } = renderApp('/main/batch-orders', { token: 'good-token' });
    await user.click(await screen.findByRole('button', { name: 'Fix Batch' }));
    expect(await screen.findByText('Fixing batch order...')).toBeInTheDocument();
    expect(await screen.findByText('Batch order fixed! Status and failed labels updated.')).toBeInTheDocument();

    server.use(http.post(api('orders/bulk/fix/b-1'), () => new HttpResponse(null, { status: 500 })));
    await user.click(await screen.findByRole('button', { name: 'Fix Batch' }));
    expect(await screen.findByText('Failed to fix batch order')).toBeInTheDocument();
  });

  it("opens a running order's progress window", async () => {
    server.use(
      http.get(api('orders/bulk/u-1'), () =>
        listed([batch(1, { status: 'processing', processedCount: 1, totalCount: 4, pdfName: null })]),
      ),
    );
    const { user } = renderApp('/main/batch-orders', { token: 'good-token' });
    expect(await screen.findByText('Processing...')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View Progress' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Processing Bulk Order' })).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
  });

  it('a missing file from the list reopens the window for that order with the error', async () => {
    server.use(
      http.get(api('orders/bulk/u-1'), () => listed([batch(1)])),
      http.get(api('orders/bulk/files/b-1'), () =>
        HttpResponse.json({
          pdf: true,
          resultCSV: true,
          autoConfirm: false,
          fileData: { pdfName: 'labels.pdf', resultCSVName: 'results.csv', autoConfirmCSVName: null },
        }),
      ),
      http.get(api('orders/download/pdf/b-1'), () => new HttpResponse(null, { status: 404 })),
    );
    const { user, store } = renderApp('/main/batch-orders', { token: 'good-token' });
    await user.click(await screen.findByRole('button', { name: 'PDF' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Initial Processing Error: File not found. This file may not have been generated yet.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Retry File Generation' })).toBeEnabled();
    expect(store.getState().bulkProgress.orderId).toBe('b-1');
  });
});
