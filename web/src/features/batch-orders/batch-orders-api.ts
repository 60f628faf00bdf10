import type { BatchOrder, BatchOrdersReply, BulkForceRecoveryReply, FileData } from '@flatship/proto';
import { getJson, postJson } from '../../app/http';

export type { BatchOrder, BulkForceRecoveryReply, FileData };

export const batchOrdersApi = {
  /** GET /api/orders/bulk/{userId}: the caller's bulk orders, newest first. */
  list: async (userId: string) =>
    (await getJson<BatchOrdersReply>(`orders/bulk/${encodeURIComponent(userId)}`)).bulkOrders,
  /** POST /api/orders/bulk/force-recovery/{userId}/{orderId}: writes a stuck order's files again. */
  forceRecovery: (userId: string, orderId: string) =>
    postJson<BulkForceRecoveryReply>(
      `orders/bulk/force-recovery/${encodeURIComponent(userId)}/${encodeURIComponent(orderId)}`,
      {},
    ),
};
