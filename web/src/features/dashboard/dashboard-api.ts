import type { Deposit, OrderListItem, RecentDepositsReply, RecentOrdersReply, TotalOrdersReply } from '@flatship/proto';
import { getJson } from '../../app/http';

/** A row of GET /api/orders/recent/{userId} (spec doc 1 §3). */
export type RecentOrder = OrderListItem;
/** A row of GET /api/payment/recent-deposits/{userId}; createdTime is unix seconds. */
export type RecentDeposit = Deposit;

const id = (userId: string) => encodeURIComponent(userId);

export const dashboardApi = {
  totalOrders: (userId: string) => getJson<TotalOrdersReply>(`orders/total/${id(userId)}`),
  recentOrders: (userId: string) => getJson<RecentOrdersReply>(`orders/recent/${id(userId)}`),
  recentDeposits: (userId: string) => getJson<RecentDepositsReply>(`payment/recent-deposits/${id(userId)}`),
};
