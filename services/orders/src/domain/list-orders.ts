import { centsToDollars, type OrderListItem, type TrackingStage } from '@flatship/proto';
import type { Clock, LabelRecord, LabelsRepo } from './ports';
import { refundView } from './refunds';
import { labelTrackingStage } from './tracking';

type ListDeps = { labels: LabelsRepo; clock: Clock; refundWindowDays?: number };

/** The dashboard's recent-orders table pages through this many. */
export const RECENT_LIMIT = 25;
/** The orders list is paged in the browser; past this many, older orders are left out. */
export const LIST_LIMIT = 5_000;

export function toOrderListItem(label: LabelRecord, now: Date, windowDays: number | undefined): OrderListItem {
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
    ...refundView(label, now, windowDays),
    trackingStage: labelTrackingStage(label),
  };
}

function listItems(deps: ListDeps, labels: LabelRecord[]): OrderListItem[] {
  const now = deps.clock.now();
  return labels.map((l) => toOrderListItem(l, now, deps.refundWindowDays));
}

/** Every label of the user, single and bulk, newest first (dashboard). */
export async function listRecentOrders(deps: ListDeps, userId: string): Promise<OrderListItem[]> {
  return listItems(deps, await deps.labels.listForUser(userId, { limit: RECENT_LIMIT }));
}

/**
 * Single-label orders, newest first: bulk labels are followed through their batch orders instead. With `tracking`,
 * only the bought labels whose parcel is at that stage.
 */
export async function listOrders(
  deps: ListDeps,
  userId: string,
  filter: { tracking?: TrackingStage | undefined } = {},
): Promise<OrderListItem[]> {
  return listItems(
    deps,
    await deps.labels.listForUser(userId, {
      limit: LIST_LIMIT,
      singleOnly: true,
      ...(filter.tracking ? { tracking: filter.tracking } : {}),
    }),
  );
}

/** Labels actually bought (completed), single and bulk. */
export function countOrders(deps: { labels: LabelsRepo }, userId: string): Promise<number> {
  return deps.labels.countCompleted(userId);
}
