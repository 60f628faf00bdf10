import type { OrderListItem, OrdersReply } from '@flatship/proto';
import { getJson } from '../../app/http';

export type { OrderListItem, OrdersReply };

export const ordersApi = {
  /** GET /api/orders/{userId} (spec doc 2 §7). */
  list: (userId: string) => getJson<Partial<OrdersReply>>(`orders/${encodeURIComponent(userId)}`),
};
