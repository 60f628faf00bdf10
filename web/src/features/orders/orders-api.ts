import type { OrderListItem, OrdersReply } from '@flatship/proto';
import { getJson } from '../../app/http';

export type { OrderListItem, OrdersReply };

export const ordersApi = {
  /** GET /api/orders/{userId} (spec doc 2 §7). */
  list: (userId: string) => getJson<Partial<OrdersReply>>(`orders/${encodeURIComponent(userId)}`),
};

/**
 * Where a label PDF is downloaded. The browser opens it in a new tab, where no
 * header can be set, so the token travels as a query parameter (spec doc 1 §6).
 */
export function labelPdfUrl(pdfName: string, token: string | null): string {
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `/api/orders/download/v2/${encodeURIComponent(pdfName)}${query}`;
}
