import type { BulkFixReply, RetryReply } from '@flatship/proto';
import { postJson } from '../../app/http';

export type { BulkFixReply, RetryReply };

const id = (orderId: string) => encodeURIComponent(orderId);

/** Also the retry and fix buttons of the batch orders list. */
export const bulkProgressApi = {
  /** POST /api/orders/bulk/retry-failed/{orderId}: buys the failed labels again. */
  retryFailed: (orderId: string) => postJson<RetryReply>(`orders/bulk/retry-failed/${id(orderId)}`, {}),
  /** POST /api/orders/bulk/fix/{orderId}: reconciles counts and regenerates missing files. */
  fix: (orderId: string) => postJson<BulkFixReply>(`orders/bulk/fix/${id(orderId)}`, {}),
};
