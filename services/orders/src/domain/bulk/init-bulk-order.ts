import { randomUUID } from 'node:crypto';
import { BULK_MESSAGES } from './bulk-messages';
import type { BulkRepo } from './ports';

/** Creates an empty bulk order; its rows, price and charge come with `processBulkOrder`. */
export async function initBulkOrder(deps: { bulk: BulkRepo }, userId: string) {
  const order = await deps.bulk.create({ id: randomUUID(), userId });
  return { message: BULK_MESSAGES.initialised, data: { orderId: order.id } };
}
