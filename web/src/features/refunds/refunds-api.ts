import type { BatchLabel, BatchLabelsReply, BatchRefundReply, RefundLabelReply } from '@flatship/proto';
import { getJson, postJson } from '../../app/http';

export type { BatchLabel, BatchRefundReply, RefundLabelReply };

export const refundsApi = {
  /** POST /api/orders/labels/{labelId}/refund: one unused label. */
  refundLabel: (labelId: string) =>
    postJson<RefundLabelReply>(`orders/labels/${encodeURIComponent(labelId)}/refund`, {}),
  /** GET /api/orders/bulk/labels/{orderId}: a batch's labels with their refunds. */
  batchLabels: async (orderId: string) =>
    (await getJson<BatchLabelsReply>(`orders/bulk/labels/${encodeURIComponent(orderId)}`)).labels,
  /** POST /api/orders/bulk/refund/{orderId}: the named labels, or every unused one. */
  refundBatch: (orderId: string, labelIds?: string[]) =>
    postJson<BatchRefundReply>(`orders/bulk/refund/${encodeURIComponent(orderId)}`, labelIds ? { labelIds } : {}),
};
