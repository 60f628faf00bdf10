import type { BatchOrdersReply, BulkFixReply, BulkForceRecoveryReply } from '@flatship/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { useFakeClock } from '../../test/fake-clock';
import { makeBatchOrder, makeUser } from '../../test/fixtures';
import { api, downloadLinkHandler, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { progressUpdated } from '../bulk-progress/bulk-progress-slice';
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
    // Its bought labels can be looked at, and refunded while unused; nothing else applies to a completed order.
    expect(within(first).getByRole('button', { name: 'Labels' })).toBeInTheDocument();
    expect(within(first).queryByText('No Actions')).toBeNull();
    expect(within(first).getByRole('button', { name: 'PDF' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Result CSV' })).toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: 'Auto Confirm' })).toBeNull();
  });

  it('says in place of Auto Confirm that an Etsy order takes no tracking file, and its progress window says so too', async () => {
    const etsy = batch(1, { source: 'etsy' });
    server.use(http.get(api('orders/bulk/u-1'), () => listed([etsy])));
    const { unmount } = renderApp('/main/batch-orders', { token: 'good-token' });
    const NOTE = 'Etsy takes no tracking file: mark orders shipped in Shop Manager.';
    await waitFor(() => expect(rows()).toHaveLength(1));
    const row = rows()[0] as HTMLElement;
    expect(within(row).getByText(NOTE)).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Auto Confirm' })).toBeNull();
    expect(within(row).getByRole('button', { name: 'Result CSV' })).toBeInTheDocument();
    unmount();

    // A running Etsy order's progress window knows its marketplace from the list, and says so once it is done.
    const running = batch(2, {
      source: 'etsy',
      status: 'processing',
      processedCount: 1,
      pdfName: null,
      resultCSVName: null,
    });
    server.use(http.get(api('orders/bulk/u-1'), () => listed([running])));
    const again = renderApp('/main/batch-orders', { token: 'good-token' });
    await again.user.click(await screen.findByRole('button', { name: 'View Progress' }));
    expect(again.store.getState().bulkProgress.source).toBe('etsy');
    act(() => {
      again.store.dispatch(
        progressUpdated({
          processedCount: 4,
          status: 'completed',
          fileData: { pdfName: 'b-2.pdf', resultCSVName: 'b-2.csv', autoConfirmCSVName: null },
        }),
      );
    });
    expect(within(await screen.findByRole('dialog')).getByText(NOTE)).toBeInTheDocument();
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
    const retry = await screen.findByRole('button', { name: 'Retry Failed' });
    // The second before the reload is counted on a fake clock.
    useFakeClock();
    await user.click(retry);
    expect(
      await screen.findByText('Retry process started successfully! Files will be regenerated automatically.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(listCalls).toBe(2));
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
          refundedCount: 0,
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

  it('offers Force Recovery for an order stuck generating files, calls it once however often clicked, and shows the outcome', async () => {
    let recovered = false;
    let calls = 0;
    let release = () => {};
    const answered = new Promise<void>((r) => {
      release = r;
    });
    server.use(
      http.get(api('orders/bulk/u-1'), () =>
        listed([
          recovered
            ? batch(1)
            : batch(1, { status: 'generating_files', pdfName: null, resultCSVName: null, processedCount: 4 }),
        ]),
      ),
      http.post(api('orders/bulk/force-recovery/u-1/b-1'), async () => {
        calls += 1;
        await answered;
        recovered = true;
        return HttpResponse.json({
          message: 'Order recovered. Its files are ready to download.',
          status: 'completed',
          processedCount: 4,
          failedCount: 0,
          refundedCount: 0,
          totalCount: 4,
          fileData: { pdfName: 'b-1.pdf', resultCSVName: 'b-1.csv', autoConfirmCSVName: null },
        } satisfies BulkForceRecoveryReply);
      }),
    );
    const { user } = renderApp('/main/batch-orders', { token: 'good-token' });
    const row = () => rows()[0] as HTMLElement;
    expect(await screen.findByText('Files Generation Stuck - Use Force Recovery')).toBeInTheDocument();
    expect(within(row()).getByText('Files Generation Stuck')).toBeInTheDocument();
    expect(within(row()).queryByText('No Actions')).toBeNull();

    const button = within(row()).getByRole('button', { name: 'Force Recovery' });
    await user.dblClick(button);
    expect(await screen.findByText('Recovering the order files...')).toBeInTheDocument();
    expect(within(row()).getByRole('button', { name: 'Recovering...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Order recovered. Its files are ready to download.')).toBeInTheDocument();
    await waitFor(() => expect(within(row()).getByText('Completed')).toBeInTheDocument());
    expect(within(row()).getByRole('button', { name: 'PDF' })).toBeInTheDocument();
    expect(within(row()).queryByRole('button', { name: 'Force Recovery' })).toBeNull();
    expect(within(row()).getByRole('button', { name: 'Labels' })).toBeInTheDocument();
    expect(calls).toBe(1);
  });

  it("shows the server's reason when Force Recovery is refused, and offers it again after a failed recovery", async () => {
    server.use(
      http.get(api('orders/bulk/u-1'), () =>
        listed([batch(1, { status: 'recovery_failed', stuckAt: new Date().toISOString() })]),
      ),
      http.post(api('orders/bulk/force-recovery/u-1/b-1'), () =>
        HttpResponse.json(
          {
            code: 'ORDERS_RECOVERY_FAILED',
            message:
              'The order files could not be generated, so the order is marked Recovery Failed. Please try Force Recovery again.',
          },
          { status: 500 },
        ),
      ),
    );
    const { user } = renderApp('/main/batch-orders', { token: 'good-token' });
    expect(await screen.findByText('Recovery Failed - Try Again')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Force Recovery' }));
    expect(
      await screen.findByText(
        'The order files could not be generated, so the order is marked Recovery Failed. Please try Force Recovery again.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Force Recovery' })).toBeEnabled());
  });

  it('shows rows an admin refunded next to the processed ones, in the list and in the progress window', async () => {
    server.use(
      http.get(api('orders/bulk/u-1'), () =>
        listed([
          batch(2, { status: 'retrying_failed', processedCount: 1, failedCount: 1, refundedCount: 2, pdfName: null }),
          batch(1, { status: 'completed_with_errors', processedCount: 2, failedCount: 1, refundedCount: 1 }),
        ]),
      ),
    );
    const { user } = renderApp('/main/batch-orders', { token: 'good-token' });
    expect(await screen.findByText('1 refunded')).toBeInTheDocument();
    const [running, finished] = rows() as HTMLElement[];
    expect(within(finished as HTMLElement).getByText('1 refunded')).toBeInTheDocument();
    expect(within(finished as HTMLElement).getByText('Completed with errors (1 failed)')).toBeInTheDocument();
    expect(within(finished as HTMLElement).getByRole('button', { name: 'Retry Failed' })).toBeInTheDocument();

    expect(within(running as HTMLElement).getByText('2 refunded')).toBeInTheDocument();
    await user.click(within(running as HTMLElement).getByRole('button', { name: 'View Progress' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Refunded').closest('div')).toHaveTextContent('Refunded2');
    expect(within(dialog).getByText('Processed').closest('div')).toHaveTextContent('Processed1 / 4');
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
