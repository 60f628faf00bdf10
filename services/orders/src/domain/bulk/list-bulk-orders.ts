import type { BatchOrder } from '@flatship/proto';
import { toBatchOrder } from './bulk-view';
import type { BulkRepo } from './ports';

/** The Batch Orders page pages through these in the browser. */
export const BULK_LIST_LIMIT = 500;
const FAILED_LABELS_SHOWN = 100;

/** A user's submitted bulk orders, newest first, each with its first failures. */
export async function listBulkOrders(deps: { bulk: BulkRepo }, userId: string): Promise<BatchOrder[]> {
  const orders = await deps.bulk.listForUser(userId, BULK_LIST_LIMIT);
  const failed = await deps.bulk.failedRows(
    orders.filter((o) => o.failedCount > 0).map((o) => o.id),
    FAILED_LABELS_SHOWN,
  );
  return orders.map((o) => toBatchOrder(o, failed.get(o.id) ?? []));
}
