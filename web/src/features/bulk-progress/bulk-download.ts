import { type BulkFileType, bulkFileDownloadPath, bulkFileNames, type DownloadTokenReply } from '@flatship/proto';
import { HTTPError } from 'ky';
import { http, readErrorBody } from '../../app/http';

/** Toast labels: '{label} download completed successfully!' */
export const FILE_LABELS: Record<BulkFileType, string> = {
  pdf: 'PDF',
  'result-csv': 'Results CSV',
  'auto-csv': 'Auto-Confirm',
};

export const DOWNLOAD_ERRORS = {
  orderIdRequired: 'Order ID is required',
  notFound: 'File not found. This file may not have been generated yet.',
  stillProcessing: 'File is still being processed. Please try again in a few moments.',
  unauthorized: 'Authentication failed. Please refresh the page and try again.',
  forbidden: "Access denied. You don't have permission to download this file.",
  server: 'Server error occurred while preparing the download. Please try again.',
  otherStatus: 'Failed to download file. Please try again.',
  network: 'Network error. Please check your internet connection and try again.',
  cancelled: 'Download was cancelled.',
  fallback: 'Unable to download file. Please try again or contact support if the problem persists.',
  toastFallback: 'Download failed. Please try again.',
} as const;

/** Progress reports at most this often (spec doc 2 §7). */
export const PROGRESS_INTERVAL_MS = 100;
/** Without a Content-Length the bar never claims more than this before the end. */
export const UNKNOWN_LENGTH_CAP = 90;
/** The bar rests at its last value this long before showing 100%. */
export const COMPLETE_PAUSE_MS = 200;

/** A download failed; `message` is the text the user sees. */
export class DownloadError extends Error {
  readonly status: number;
  constructor(message: string, status = 0) {
    super(message);
    this.name = 'DownloadError';
    this.status = status;
  }
  get isFileNotFound(): boolean {
    return this.status === 404 || this.message.includes('File not found');
  }
}

/** How far the server got preparing a file it makes in the background (a bulk order's ZPL), and when to ask again. */
export interface Preparing {
  done: number;
  total: number;
  retryAfterMs: number;
}

/** The file is being prepared on the server: asked for again after `retryAfterMs`. */
export class FilePreparing extends DownloadError {
  readonly preparing: Preparing;
  constructor(preparing: Preparing) {
    super(preparingText(preparing), 202);
    this.name = 'FilePreparing';
    this.preparing = preparing;
  }
}

/** When the server does not say when to ask again. */
export const PREPARING_RETRY_MS = 2000;

export const preparingText = ({ done, total }: { done: number; total: number }) => `Preparing ZPL… ${done} of ${total}`;

/** A download button's words: its file's name, then its percent while downloading, or how far its preparation got. */
export const buttonText = (
  label: string,
  percent: number | undefined,
  preparing: { done: number; total: number } | undefined,
): string => (preparing ? preparingText(preparing) : percent === undefined ? label : `${label} ${percent}%`);

/** A 202 `{status: 'preparing', done, total}` as what to show and when to ask again; null for any other 202. */
async function preparingOf(response: Response): Promise<Preparing | null> {
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { status?: unknown; done?: unknown; total?: unknown } | null;
  if (body?.status !== 'preparing' || typeof body.done !== 'number' || typeof body.total !== 'number') return null;
  const seconds = Number(response.headers.get('retry-after'));
  const retryAfterMs =
    response.headers.has('retry-after') && Number.isFinite(seconds) && seconds >= 0
      ? seconds * 1000
      : PREPARING_RETRY_MS;
  return { done: body.done, total: body.total, retryAfterMs };
}

export function messageForStatus(status: number): string {
  switch (status) {
    case 404:
      return DOWNLOAD_ERRORS.notFound;
    case 202:
      return DOWNLOAD_ERRORS.stillProcessing;
    case 401:
      return DOWNLOAD_ERRORS.unauthorized;
    case 403:
      return DOWNLOAD_ERRORS.forbidden;
    case 500:
      return DOWNLOAD_ERRORS.server;
    default:
      return DOWNLOAD_ERRORS.otherStatus;
  }
}

/** Spec doc 2: "the server message if the body has one"; a blank one is none, and the status says what happened. */
async function serverMessage(response: Response): Promise<string | null> {
  const body = await readErrorBody(response);
  return body?.message.trim() ? body.message : null;
}

/** The server's names for the file (proto's bulkFileNames), dated today on this device. */
export function fallbackFileName(type: BulkFileType, now = new Date()): string {
  return bulkFileNames(now.getMonth() + 1, now.getDate())[type];
}

/** The name in a Content-Disposition header (RFC 6266 `filename*` first), or null. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:[\w-]+)?'[^']*'([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // Malformed escapes: try the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = (plain?.[2] ?? plain?.[1])?.trim();
  // Never let a server name escape into a path.
  return name ? (name.split(/[\\/]/).pop() ?? null) || null : null;
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/**
 * GET /api/orders/download/{type}/{orderId}?token=… as a blob, through a
 * download link asked for just before (POST /api/orders/download-token: the
 * token in it is good for this file and a few minutes only; the session token
 * never goes in the URL). No time-out (label PDFs of big orders take a while);
 * `onProgress` gets 0–100 at most every 100 ms, capped at 90 while the length
 * is unknown.
 */
export async function fetchBulkFile(
  type: BulkFileType,
  orderId: string,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<DownloadedFile> {
  if (!orderId) throw new DownloadError(DOWNLOAD_ERRORS.orderIdRequired);
  let lastReport = 0;
  let response: Response;
  try {
    const link = await http
      .post('orders/download-token', {
        json: { path: bulkFileDownloadPath(type, orderId) },
        retry: 0,
        ...(signal ? { signal } : {}),
      })
      .json<DownloadTokenReply>();
    // Relative to the client's /api prefix.
    response = await http.get(link.url.replace(/^\/api\//, ''), {
      timeout: false,
      retry: 0,
      ...(signal ? { signal } : {}),
      onDownloadProgress: ({ percent, transferredBytes }) => {
        // The end is shown by the caller after a short pause, not here.
        if (percent >= 1) return;
        const now = Date.now();
        if (now - lastReport < PROGRESS_INTERVAL_MS) return;
        lastReport = now;
        // ky reports percent 0 throughout when the server sent no Content-Length.
        onProgress(
          percent > 0
            ? Math.min(99, Math.round(percent * 100))
            : Math.min(UNKNOWN_LENGTH_CAP, Math.round(transferredBytes / 20_000)),
        );
      },
    });
    if (response.status === 202) {
      const preparing = await preparingOf(response);
      if (preparing) throw new FilePreparing(preparing);
      throw new DownloadError((await serverMessage(response)) ?? DOWNLOAD_ERRORS.stillProcessing, 202);
    }
    const blob = await response.blob();
    const fileName = fileNameFromDisposition(response.headers.get('content-disposition')) ?? fallbackFileName(type);
    return { blob, fileName };
  } catch (error) {
    throw await toDownloadError(error);
  }
}

export async function toDownloadError(error: unknown): Promise<DownloadError> {
  if (error instanceof DownloadError) return error;
  if (error instanceof HTTPError) {
    const { status } = error.response;
    return new DownloadError((await serverMessage(error.response)) ?? messageForStatus(status), status);
  }
  // A DOMException, which is not an Error in every engine: its name is what says the request was aborted.
  if ((error as { name?: unknown } | null)?.name === 'AbortError') return new DownloadError(DOWNLOAD_ERRORS.cancelled);
  if (error instanceof TypeError) return new DownloadError(DOWNLOAD_ERRORS.network);
  return new DownloadError(DOWNLOAD_ERRORS.fallback);
}

/** Hands the blob to the browser as a file through a short-lived object URL. */
export function saveBlob({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: some browsers start reading the URL only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
