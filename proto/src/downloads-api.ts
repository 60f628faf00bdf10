import { type Static, Type } from 'typebox';
import { BULK_FILE_TYPES, type BulkFileType } from './bulk-api';

/**
 * Download links (spec doc 1 §7, doc 2 §7): `GET /api/orders/download/v2/{pdfName}?token=…` and
 * `GET /api/orders/download/{type}/{orderId}?token=…`. The `token` there is never the session token:
 * the web app asks for a download token for the one file right before opening it
 * (`POST /api/orders/download-token`), good for that path and a few minutes only.
 */
export const DownloadTokenBodySchema = Type.Object({
  /** The download path as it will be requested, e.g. `/api/orders/download/v2/<name>.pdf` (no query). */
  path: Type.String({ minLength: 1, maxLength: 300 }),
});
export type DownloadTokenBody = Static<typeof DownloadTokenBodySchema>;

export const DownloadTokenReplySchema = Type.Object({
  token: Type.String(),
  /** The path with `?token=` added: what the browser opens. */
  url: Type.String(),
  /** When the link stops working (ISO 8601). */
  expiresAt: Type.String(),
});
export type DownloadTokenReply = Static<typeof DownloadTokenReplySchema>;

/** Where a label's PDF is downloaded. */
export const labelDownloadPath = (pdfName: string): string => `/api/orders/download/v2/${encodeURIComponent(pdfName)}`;

/** Where a bulk order's file is downloaded. */
export const bulkFileDownloadPath = (type: BulkFileType, orderId: string): string =>
  `/api/orders/download/${type}/${encodeURIComponent(orderId)}`;

export type DownloadTarget =
  | { kind: 'label'; pdfName: string }
  | { kind: 'bulk-file'; type: BulkFileType; orderId: string }
  | { kind: 'scan-form'; formId: string };

/** What a download path (percent-decoded, no query) names, or null for any other path. */
export function downloadTargetOf(path: string): DownloadTarget | null {
  const m = /^\/api\/orders\/download\/([^/]+)\/([^/]+)$/.exec(path);
  if (!m) return null;
  const [, first, name] = m as unknown as [string, string, string];
  if (first === 'v2') return { kind: 'label', pdfName: name };
  if (first === 'scan-form') return { kind: 'scan-form', formId: name };
  const type = BULK_FILE_TYPES.find((t) => t === first);
  return type ? { kind: 'bulk-file', type, orderId: name } : null;
}
