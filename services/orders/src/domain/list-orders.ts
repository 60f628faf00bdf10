import { centsToDollars, type OrderListItem } from '@flatship/proto';
import type { LabelRecord, LabelsRepo } from './ports';

/** The dashboard's recent-orders table pages through this many. */
export const RECENT_LIMIT = 25;
/** The orders list is paged in the browser; past this many, older orders are left out. */
export const LIST_LIMIT = 5_000;

export function toOrderListItem(label: LabelRecord): OrderListItem {
  return {
    _id: label.id,
    courier: label.courier,
    service_name: label.serviceName,
    status: label.status,
    sender: { sender_name: label.sender.name },
    receiver: { receiver_name: label.receiver.name },
    tracking_number: label.trackingNumber ?? '',
    pdfName: label.pdfName,
    price: centsToDollars(label.priceCents),
    createdAt: label.createdAt.toISOString(),
  };
}

/** Every label of the user, single and bulk, newest first (dashboard). */
export async function listRecentOrders(deps: { labels: LabelsRepo }, userId: string): Promise<OrderListItem[]> {
  return (await deps.labels.listForUser(userId, { limit: RECENT_LIMIT })).map(toOrderListItem);
}

/** Single-label orders, newest first: bulk labels are followed through their batch orders instead. */
export async function listOrders(deps: { labels: LabelsRepo }, userId: string): Promise<OrderListItem[]> {
  return (await deps.labels.listForUser(userId, { limit: LIST_LIMIT, singleOnly: true })).map(toOrderListItem);
}

/** Labels actually bought (completed), single and bulk. */
export function countOrders(deps: { labels: LabelsRepo }, userId: string): Promise<number> {
  return deps.labels.countCompleted(userId);
}
