import type {
  AdminBulkOrdersQuery,
  AdminBulkOrdersReply,
  AdminLabelsQuery,
  AdminLabelsReply,
  AdminRefundLabelReply,
  BulkForceRecoveryReply,
} from '@flatship/proto';
import { getJson, postJson } from '../../../app/http';
import { queryString } from '../../../app/query-string';

/** Order label management calls (proto/src/admin-orders-api.ts). */
export const orderLabelsApi = {
  labels: (query: AdminLabelsQuery) => getJson<AdminLabelsReply>(`orders/admin/labels?${queryString(query)}`),
  bulkOrders: (query: AdminBulkOrdersQuery) =>
    getJson<AdminBulkOrdersReply>(`orders/admin/bulk-orders?${queryString(query)}`),
  refund: (labelId: string) =>
    postJson<AdminRefundLabelReply>(`orders/admin/labels/${encodeURIComponent(labelId)}/refund`, {}),
  /** Force Recovery of a user's stuck bulk order (the owner's id in the path, as the customer's own call has it). */
  forceRecovery: (userId: string, orderId: string) =>
    postJson<BulkForceRecoveryReply>(
      `orders/bulk/force-recovery/${encodeURIComponent(userId)}/${encodeURIComponent(orderId)}`,
      {},
    ),
};
