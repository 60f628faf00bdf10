import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { tokenStorage } from '../../app/token-storage';
import { api, downloadLinkHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { DOWNLOAD_ERRORS, fallbackFileName, fetchBulkFile, fileNameFromDisposition } from './bulk-download';

const server = setupTestServer(downloadLinkHandler());
const noop = () => {};

async function failureFor(response: () => Response | Promise<Response>) {
  server.use(http.get(api('orders/download/pdf/o-1'), response));
  try {
    await fetchBulkFile('pdf', 'o-1', noop);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('download did not fail');
}

describe('download links', () => {
  it('asks for a link to the file first, and the URL it fetches carries that link token, never the session', async () => {
    tokenStorage.set('session-token-7');
    const asked: { path: string; session: string | null }[] = [];
    const fetched: string[] = [];
    server.use(
      downloadLinkHandler('link-token-3', asked),
      http.get(api('orders/download/result-csv/o%201'), ({ request }) => {
        fetched.push(request.url);
        return new HttpResponse('a,b\n', { headers: { 'content-disposition': 'attachment; filename="r.csv"' } });
      }),
    );
    try {
      const file = await fetchBulkFile('result-csv', 'o 1', noop);
      expect(file.fileName).toBe('r.csv');
    } finally {
      tokenStorage.clear();
    }
    expect(asked).toEqual([{ path: '/api/orders/download/result-csv/o%201', session: 'session-token-7' }]);
    expect(fetched).toEqual(['http://localhost/api/orders/download/result-csv/o%201?token=link-token-3']);
  });

  it("a link refused for the file is that file's error", async () => {
    server.use(
      http.post(api('orders/download-token'), () =>
        HttpResponse.json({ code: 'FILE_NOT_FOUND', message: 'File not found' }, { status: 404 }),
      ),
    );
    const failure = await fetchBulkFile('pdf', 'o-1', noop).catch((e: Error) => e);
    expect(failure).toMatchObject({ message: 'File not found', status: 404, isFileNotFound: true });
  });
});

describe('download errors', () => {
  it.each([
    [404, 'File not found. This file may not have been generated yet.'],
    [401, 'Authentication failed. Please refresh the page and try again.'],
    [403, "Access denied. You don't have permission to download this file."],
    [500, 'Server error occurred while preparing the download. Please try again.'],
    [502, 'Failed to download file. Please try again.'],
    [410, 'Failed to download file. Please try again.'],
  ])('status %i reads %s', async (status, text) => {
    expect(await failureFor(() => new HttpResponse(null, { status }))).toBe(text);
  });

  it('202 means the file is still being made', async () => {
    expect(await failureFor(() => new HttpResponse(null, { status: 202 }))).toBe(
      'File is still being processed. Please try again in a few moments.',
    );
  });

  it("the server's own message wins over the status text", async () => {
    expect(
      await failureFor(() =>
        HttpResponse.json({ code: 'FILE_NOT_FOUND', message: 'Labels PDF was purged' }, { status: 404 }),
      ),
    ).toBe('Labels PDF was purged');
  });

  it('a message of only spaces, an empty one, no message or a body that is not JSON reads as none: the status text', async () => {
    // A bare { error } is not the error format (proto's ErrorBody): no message either.
    for (const body of [{ code: 'X', message: '   ' }, { code: 'X', message: '' }, { error: 'Not yours' }]) {
      expect(await failureFor(() => HttpResponse.json(body, { status: 403 }))).toBe(DOWNLOAD_ERRORS.forbidden);
    }
    expect(await failureFor(() => new HttpResponse('<h1>Bad gateway</h1>', { status: 404 }))).toBe(
      DOWNLOAD_ERRORS.notFound,
    );
  });

  it('202 with a message says that message', async () => {
    expect(
      await failureFor(() =>
        HttpResponse.json({ code: 'FILE_PENDING', message: 'Labels are being drawn' }, { status: 202 }),
      ),
    ).toBe('Labels are being drawn');
  });

  it('a network failure and a cancel have their own texts', async () => {
    expect(await failureFor(() => HttpResponse.error())).toBe(DOWNLOAD_ERRORS.network);
    const abort = new AbortController();
    server.use(
      http.get(api('orders/download/pdf/o-1'), async () => {
        abort.abort();
        await new Promise((r) => setTimeout(r, 20));
        return new HttpResponse('x');
      }),
    );
    await expect(fetchBulkFile('pdf', 'o-1', noop, abort.signal)).rejects.toThrow('Download was cancelled.');
  });

  it('an order id is required', async () => {
    await expect(fetchBulkFile('pdf', '', noop)).rejects.toThrow('Order ID is required');
  });
});

describe('download file names', () => {
  it('reads Content-Disposition, the encoded form first, never a path', () => {
    expect(fileNameFromDisposition('attachment; filename="Labels_A.pdf"')).toBe('Labels_A.pdf');
    expect(fileNameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameFromDisposition('attachment; filename="x.pdf"; filename*=UTF-8\'\'R%C3%A9sultats.csv')).toBe(
      'Résultats.csv',
    );
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });

  it('falls back to dated names per type', () => {
    const day = new Date(2026, 2, 7);
    expect(fallbackFileName('pdf', day)).toBe('Labels_03-07.pdf');
    expect(fallbackFileName('result-csv', day)).toBe('Order_Results_03-07.csv');
    expect(fallbackFileName('auto-csv', day)).toBe('Auto_Confirm_03-07.tsv');
  });

  it('uses the fallback when the server names nothing, and reports progress capped at 90 without a length', async () => {
    // Each chunk comes 150 ms after the one before, on a fake clock: more than the 100 ms between two reports.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      server.use(
        http.get(api('orders/download/auto-csv/o-1'), () => {
          const chunks = [new Uint8Array(3_000_000), new Uint8Array(3_000_000)];
          const body = new ReadableStream({
            pull(controller) {
              const next = chunks.shift();
              if (!next) return controller.close();
              vi.setSystemTime(Date.now() + 150);
              controller.enqueue(next);
            },
          });
          return new HttpResponse(body);
        }),
      );
      const seen: number[] = [];
      const file = await fetchBulkFile('auto-csv', 'o-1', (p) => seen.push(p));
      expect(file.fileName).toMatch(/^Auto_Confirm_\d+-\d+\.tsv$/);
      expect(file.blob.size).toBe(6_000_000);
      // 3 MB in, far past what 90 stands for: the cap holds.
      expect(seen).toContain(90);
      expect(Math.max(...seen)).toBeLessThanOrEqual(90);
    } finally {
      vi.useRealTimers();
    }
  });
});
