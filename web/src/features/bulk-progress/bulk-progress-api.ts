import type { BulkFilesReply, BulkFileType, BulkFixReply, RetryReply } from '@flatship/proto';
import { getJson, postJson } from '../../app/http';

export type { BulkFilesReply, BulkFixReply, RetryReply };

/** The flag of BulkFilesReply that tells whether a file of `type` can be downloaded now. */
export function isFileAvailable(reply: BulkFilesReply, type: BulkFileType): boolean {
  const flag = { pdf: reply.pdf, 'result-csv': reply.resultCSV, 'auto-csv': reply.autoConfirm }[type];
  return flag === true;
}

const id = (orderId: string) => encodeURIComponent(orderId);

/** Also the retry and fix buttons of the batch orders list. */
export const bulkProgressApi = {
  /** POST /api/orders/bulk/retry-failed/{orderId}: buys the failed labels again. */
  retryFailed: (orderId: string) => postJson<RetryReply>(`orders/bulk/retry-failed/${id(orderId)}`, {}),
  /** POST /api/orders/bulk/fix/{orderId}: reconciles counts and regenerates missing files. */
  fix: (orderId: string) => postJson<BulkFixReply>(`orders/bulk/fix/${id(orderId)}`, {}),
  /** GET /api/orders/bulk/files/{orderId}: which of the order's files exist now. */
  files: (orderId: string) => getJson<BulkFilesReply>(`orders/bulk/files/${id(orderId)}`),
};
