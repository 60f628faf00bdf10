import type { OrderListItem, OrdersReply, TrackingStage } from '@flatship/proto';
import { getJson } from '../../app/http';
import { queryString } from '../../app/query-string';

export type { OrderListItem, OrdersReply };

export const ordersApi = {
  /** GET /api/orders/{userId} (spec doc 2 §7); with `tracking`, only the labels at that tracking stage. */
  list: (userId: string, tracking: TrackingStage | null = null) => {
    const query = queryString({ tracking });
    return getJson<Partial<OrdersReply>>(`orders/${encodeURIComponent(userId)}${query ? `?${query}` : ''}`);
  },
};
