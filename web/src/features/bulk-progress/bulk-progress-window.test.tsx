import type { BulkFixReply } from '@flatship/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFakeClock } from '../../test/fake-clock';
import { makeUser } from '../../test/fixtures';
import { api, downloadLinkHandler, emptyDashboardHandlers, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { bulkOrderInitialized } from './bulk-progress-actions';
import { progressUpdated } from './bulk-progress-slice';

const server = setupTestServer(verifyHandler(makeUser()), ...emptyDashboardHandlers(), downloadLinkHandler());
const ORDER = 'b-1';
const files = { pdfName: 'labels.pdf', resultCSVName: 'results.csv', autoConfirmCSVName: null };

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:file');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function openWindow(update: Parameters<typeof progressUpdated>[0] = {}, source?: string) {
  const view = renderApp('/main/dashboard', { token: 'good-token' });
  await screen.findByRole('heading', { name: 'Dashboard' });
  act(() => {
    view.store.dispatch(bulkOrderInitialized({ orderId: ORDER, totalCount: 4, source }));
    view.store.dispatch(progressUpdated(update));
  });
  await screen.findByRole('dialog');
  return view;
}

const dialog = () => screen.getByRole('dialog');

/** GET /api/orders/bulk/files/{orderId} answering which files exist; records each check. */
function filesHandler(available: { pdf: boolean; resultCSV: boolean; autoConfirm: boolean }, checks: string[] = []) {
  server.use(
    http.get(api('orders/bulk/files/:orderId'), ({ params, request }) => {
      expect(request.headers.get('token')).toBe('good-token');
      checks.push(String(params.orderId));
      return HttpResponse.json({ ...available, fileData: files });
    }),
  );
  return checks;
}
const ALL_FILES = { pdf: true, resultCSV: true, autoConfirm: true };

describe('bulk progress window', () => {
  it('shows a running order 600 px wide with a disabled close and the wait hint', async () => {
    await openWindow({ processedCount: 1 });
    expect(within(dialog()).getByRole('heading', { name: 'Processing Bulk Order' })).toBeInTheDocument();
    expect(dialog()).toHaveStyle({ maxWidth: '600px' });
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByRole('progressbar')).toHaveAttribute('data-tone', 'blue');
    const close = screen.getByRole('button', { name: 'Close progress window' });
    expect(close).toBeDisabled();
    expect(close).toHaveAttribute('title', 'Please wait for processing to complete');
    expect(screen.getByText('Please wait for processing to complete')).toBeInTheDocument();
  });

  it('minimizes to a card with processed/total and elapsed time, and expands again', async () => {
    const { user } = await openWindow({ processedCount: 3 });
    await user.click(screen.getByRole('button', { name: 'Minimize progress window' }));
    const card = screen.getByRole('complementary', { name: 'Bulk order progress' });
    expect(within(card).getByText('Bulk Order Processing')).toBeInTheDocument();
    expect(within(card).getByText('Status')).toBeInTheDocument();
    expect(within(card).getByText('3/4 processed')).toBeInTheDocument();
    expect(within(card).getByText('00:00')).toBeInTheDocument();
    // Not closable while running: no close button on the card.
    expect(within(card).queryByRole('button', { name: 'Close progress window' })).toBeNull();
    await user.click(within(card).getByRole('button', { name: 'Expand progress window' }));
    expect(dialog()).toBeInTheDocument();
  });

  it('completed: green, 100%, closable, offers the existing files only, and closing hides it', async () => {
    const { user, store } = await openWindow({ processedCount: 4, status: 'completed', fileData: files });
    expect(within(dialog()).getByRole('heading', { name: 'Order Processed Successfully!' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('data-tone', 'green');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByRole('button', { name: 'PDF' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Results CSV' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Auto-Confirm' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Close progress window' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(store.getState().bulkProgress.orderId).toBeNull();
  });

  it('says where Auto-Confirm would be that Shopify and Etsy take no tracking file, once the files are there', async () => {
    const shopify = await openWindow({ processedCount: 2 }, 'shopify');
    const SHOPIFY = 'Shopify takes no tracking file: mark orders shipped in Shopify (or with a Shopify app).';
    // Still running, no files yet: nothing to say.
    expect(within(dialog()).queryByText(SHOPIFY)).toBeNull();
    act(() => {
      shopify.store.dispatch(progressUpdated({ processedCount: 4, status: 'completed', fileData: files }));
    });
    expect(within(dialog()).getByText(SHOPIFY)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Auto-Confirm' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Results CSV' })).toBeEnabled();
    shopify.unmount();
    sessionStorage.clear();

    const etsy = await openWindow({ processedCount: 4, status: 'completed', fileData: files }, 'etsy');
    expect(
      within(dialog()).getByText('Etsy takes no tracking file: mark orders shipped in Shop Manager.'),
    ).toBeInTheDocument();
    etsy.unmount();
    sessionStorage.clear();

    // Amazon takes one: its Auto-Confirm button, and no note.
    await openWindow(
      { processedCount: 4, status: 'completed', fileData: { ...files, autoConfirmCSVName: 'Auto_Confirm.tsv' } },
      'amazon',
    );
    expect(screen.getByRole('button', { name: 'Auto-Confirm' })).toBeEnabled();
    expect(within(dialog()).queryByText(/takes no tracking file/)).toBeNull();
  });

  it('the timer ticks every second while running and stops at a terminal status', async () => {
    useFakeClock();
    const { store } = await openWindow();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(65_000);
    });
    expect(store.getState().bulkProgress.elapsedTime).toBe(65);
    expect(within(dialog()).getByText('01:05')).toBeInTheDocument();
    act(() => {
      store.dispatch(progressUpdated({ status: 'failed', processedCount: 1 }));
    });
    const stoppedAt = store.getState().bulkProgress.elapsedTime;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(store.getState().bulkProgress.elapsedTime).toBe(stoppedAt);
    expect(within(dialog()).getByText('Processing failed (1 of 4 completed)')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('data-tone', 'red');
  });

  it('retry: partial recovery reports what remains', async () => {
    // The answer waits until the test has seen the retrying state, however slow the machine.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.post(api(`orders/bulk/retry-failed/${ORDER}`), async () => {
        await answered;
        return HttpResponse.json({
          message: 'ok',
          fileData: files,
          finalProcessedCount: 4,
          finalFailedCount: 1,
          status: 'completed_with_errors',
          updatedTotalCount: 4,
          newlySuccessfulCount: 2,
        });
      }),
    );
    const { user, store } = await openWindow({
      processedCount: 4,
      failedCount: 3,
      status: 'completed_with_errors',
      fileData: files,
    });
    expect(
      within(dialog()).getByRole('heading', { name: 'Order Processed With 3 Failed Label(s)' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('data-tone', 'yellow');
    expect(screen.getByText('3 label(s) failed to process. Please check the error logs.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry 3 Failed Label(s)' }));
    expect(await screen.findByRole('button', { name: 'Retrying...' })).toBeDisabled();
    expect(within(dialog()).getByRole('heading', { name: 'Retrying 3 Failed Label(s)...' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close progress window' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'PDF' })).toBeDisabled();
    answer();
    expect(await screen.findByText('2 labels recovered. 1 still failed.')).toBeInTheDocument();
    expect(store.getState().bulkProgress).toMatchObject({ failedCount: 1, isRetrying: false });
    expect(screen.getByRole('button', { name: 'Retry 1 Failed Label(s)' })).toBeEnabled();
  });

  it("retry: 'No failed labels found' means the order is complete", async () => {
    server.use(
      http.post(api(`orders/bulk/retry-failed/${ORDER}`), () =>
        HttpResponse.json(
          { code: 'ORDERS_NO_FAILED_LABELS', message: 'No failed labels found for this order' },
          { status: 400 },
        ),
      ),
    );
    const { user, store } = await openWindow({ processedCount: 4, failedCount: 2, status: 'completed_with_errors' });
    await user.click(screen.getByRole('button', { name: 'Retry 2 Failed Label(s)' }));
    expect(await within(dialog()).findByRole('heading', { name: 'Order Processed Successfully!' })).toBeInTheDocument();
    expect(store.getState().bulkProgress).toMatchObject({ failedCount: 0, orderStatus: 'completed', retryError: null });
  });

  it('retry: a refusal shows the server message, a bare failure the fallback', async () => {
    server.use(
      http.post(api(`orders/bulk/retry-failed/${ORDER}`), () =>
        HttpResponse.json({ code: 'PAYMENTS_INSUFFICIENT_BALANCE', message: 'Insufficient balance' }, { status: 402 }),
      ),
    );
    const { user, store } = await openWindow({ processedCount: 4, failedCount: 2, status: 'completed_with_errors' });
    await user.click(screen.getByRole('button', { name: 'Retry 2 Failed Label(s)' }));
    expect(await screen.findByText('Insufficient balance')).toBeInTheDocument();
    expect(store.getState().bulkProgress.orderStatus).toBe('completed_with_errors');

    server.use(http.post(api(`orders/bulk/retry-failed/${ORDER}`), () => new HttpResponse('oops', { status: 500 })));
    await user.click(screen.getByRole('button', { name: 'Retry 2 Failed Label(s)' }));
    expect(await screen.findByText('Failed to retry failed labels')).toBeInTheDocument();
  });

  it('downloads a file named by Content-Disposition and says so', async () => {
    const checks = filesHandler(ALL_FILES);
    server.use(
      http.get(api(`orders/download/pdf/${ORDER}`), ({ request }) => {
        // A download link's token, never the session's.
        expect(new URL(request.url).searchParams.get('token')).toBe('download-token-1');
        return new HttpResponse('%PDF-1.7', {
          headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="Batch_77.pdf"' },
        });
      }),
    );
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    const { user } = await openWindow({ processedCount: 4, status: 'completed', fileData: files });
    await user.click(screen.getByRole('button', { name: 'PDF' }));
    expect(await screen.findByText('PDF download completed successfully!')).toBeInTheDocument();
    expect(clicks).toEqual(['Batch_77.pdf']);
    expect(URL.createObjectURL).toHaveBeenCalledOnce();
    expect(checks).toEqual([ORDER]);
  });

  it('a ZPL the server is still preparing shows how far it got, asks again as told, and downloads once ready', async () => {
    filesHandler(ALL_FILES);
    let done = 1;
    let asked = 0;
    server.use(
      http.get(api(`orders/download/pdf/${ORDER}`), () => {
        asked += 1;
        if (done < 3) {
          return HttpResponse.json(
            { status: 'preparing', done, total: 3, message: `Preparing ZPL… ${done} of 3 labels` },
            { status: 202, headers: { 'retry-after': '0' } },
          );
        }
        return new HttpResponse('^XA^XZ\n', {
          headers: {
            'content-type': 'application/zpl',
            'content-disposition': 'attachment; filename="Labels_03-07.zpl"',
          },
        });
      }),
    );
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    const { user } = await openWindow({ processedCount: 4, status: 'completed', fileData: files });
    await user.click(screen.getByRole('button', { name: 'PDF' }));
    expect(await screen.findByRole('button', { name: 'Preparing ZPL… 1 of 3' })).toBeDisabled();
    done = 2;
    expect(await screen.findByRole('button', { name: 'Preparing ZPL… 2 of 3' })).toBeDisabled();
    expect(clicks).toEqual([]);
    done = 3;
    expect(await screen.findByText('PDF download completed successfully!')).toBeInTheDocument();
    expect(clicks).toEqual(['Labels_03-07.zpl']);
    expect(asked).toBeGreaterThanOrEqual(3);
    expect(screen.getByRole('button', { name: 'PDF' })).toBeEnabled();
  });

  it('checks the file first: a file the server does not have is reported without downloading', async () => {
    let downloads = 0;
    filesHandler({ pdf: true, resultCSV: false, autoConfirm: false });
    server.use(
      http.get(api(`orders/download/result-csv/${ORDER}`), () => {
        downloads += 1;
        return new HttpResponse('a,b');
      }),
    );
    const { user } = await openWindow({ processedCount: 4, status: 'completed', fileData: files });
    await user.click(screen.getByRole('button', { name: 'Results CSV' }));
    const message = 'File not found. This file may not have been generated yet.';
    expect(await within(dialog()).findByText(`Initial Processing Error: ${message}`)).toBeInTheDocument();
    expect(within(dialog()).getByRole('button', { name: 'Retry File Generation' })).toBeEnabled();
    expect(downloads).toBe(0);
  });

  it('a failed file check says so (server message, else the fallback) and downloads nothing', async () => {
    let downloads = 0;
    server.use(
      http.get(api('orders/bulk/files/:orderId'), () => new HttpResponse('down', { status: 503 })),
      http.get(api(`orders/download/pdf/${ORDER}`), () => {
        downloads += 1;
        return new HttpResponse('%PDF-1.7');
      }),
    );
    const { user } = await openWindow({ processedCount: 4, status: 'completed', fileData: files });
    await user.click(screen.getByRole('button', { name: 'PDF' }));
    expect(await screen.findByText('Failed to check file availability')).toBeInTheDocument();

    server.use(
      http.get(api('orders/bulk/files/:orderId'), () =>
        HttpResponse.json({ code: 'BULK_ORDER_NOT_FOUND', message: 'Bulk order not found' }, { status: 404 }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'PDF' }));
    expect(await screen.findByText('Bulk order not found')).toBeInTheDocument();
    expect(downloads).toBe(0);
  });

  it('a missing file shows the error in the window and retries file generation', async () => {
    let fixCalls = 0;
    // The check said yes, but the file was gone by the time it was fetched.
    filesHandler(ALL_FILES);
    server.use(
      http.get(api(`orders/download/result-csv/${ORDER}`), () => new HttpResponse(null, { status: 404 })),
      http.post(api(`orders/bulk/fix/${ORDER}`), () => {
        fixCalls += 1;
        const reply: BulkFixReply = {
          message: 'Batch order fixed',
          status: 'completed',
          processedCount: 4,
          failedCount: 0,
          refundedCount: 0,
          totalCount: 4,
          fileData: { ...files, resultCSVName: 'Batch_77_results.csv' },
        };
        return HttpResponse.json(reply);
      }),
    );
    const { user, store } = await openWindow({ processedCount: 4, status: 'completed', fileData: files });
    await user.click(screen.getByRole('button', { name: 'Minimize progress window' }));
    await user.click(screen.getByRole('button', { name: 'Expand progress window' }));
    await user.click(screen.getByRole('button', { name: 'Results CSV' }));
    const message = 'File not found. This file may not have been generated yet.';
    expect(await within(dialog()).findByText(`Initial Processing Error: ${message}`)).toBeInTheDocument();
    expect(within(dialog()).getByRole('heading', { name: 'Order Processing Failed!' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry File Generation' }));
    await waitFor(() => expect(store.getState().bulkProgress.error).toBeNull());
    expect(fixCalls).toBe(1);
    expect(store.getState().bulkProgress.fileData?.resultCSVName).toBe('Batch_77_results.csv');
  });

  it('comes back after a reload of the tab for the followed order', async () => {
    const first = await openWindow();
    first.unmount();
    expect(sessionStorage.getItem('bulkProgressOrder')).toContain(ORDER);
    renderApp('/main/dashboard', { token: 'good-token' });
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });
  it('remembers the order’s marketplace across a reload, so the no-tracking-file note still shows', async () => {
    const first = await openWindow({}, 'etsy');
    first.unmount();
    const again = renderApp('/main/dashboard', { token: 'good-token' });
    await screen.findByRole('dialog');
    expect(again.store.getState().bulkProgress.source).toBe('etsy');
    act(() => {
      again.store.dispatch(progressUpdated({ processedCount: 4, status: 'completed', fileData: files }));
    });
    expect(
      within(dialog()).getByText('Etsy takes no tracking file: mark orders shipped in Shop Manager.'),
    ).toBeInTheDocument();
  });
});
