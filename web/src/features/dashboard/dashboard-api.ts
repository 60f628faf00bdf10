import { getJson } from '../../app/http';

/** A row of GET /api/orders/recent/{userId} (spec doc 1 §3). */
export interface RecentOrder {
  _id?: string;
  courier: string;
  sender: { sender_name: string };
  receiver: { receiver_name: string };
  tracking_number: string;
  createdAt: string;
}

/** A row of GET /api/payment/recent-deposits/{userId}; createdTime is unix seconds. */
export interface RecentDeposit {
  _id?: string;
  invoiceId?: string;
  amount: number | string;
  createdTime: number;
  status: string;
}

const id = (userId: string) => encodeURIComponent(userId);

export const dashboardApi = {
  totalOrders: (userId: string) => getJson<{ totalOrders: number }>(`orders/total/${id(userId)}`),
  recentOrders: (userId: string) => getJson<{ recentOrders: RecentOrder[] }>(`orders/recent/${id(userId)}`),
  recentDeposits: (userId: string) => getJson<RecentDeposit[]>(`payment/recent-deposits/${id(userId)}`),
};
