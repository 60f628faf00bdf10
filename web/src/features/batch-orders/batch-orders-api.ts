import type { BatchOrder, BatchOrdersReply, FileData } from '@flatship/proto';
import { getJson } from '../../app/http';

export type { BatchOrder, FileData };

export const batchOrdersApi = {
  /** GET /api/orders/bulk/{userId}: the caller's bulk orders, newest first. */
  list: async (userId: string) =>
    (await getJson<BatchOrdersReply>(`orders/bulk/${encodeURIComponent(userId)}`)).bulkOrders,
};
