import { TERMINAL_BULK_STATUSES } from '@flatship/proto';
import type { Tx } from '../ports';
import { progressOf } from './bulk-view';
import type { BulkDeps } from './deps';
import { finishBulkOrder, isSettled } from './finish-bulk-order';
import type { BulkOrderRecord } from './ports';

/**
 * After an admin refunded one of an order's labels (its row is void now), in the refund's transaction and
 * under the order's lock: the order is recounted, the row counting as refunded, so its counts still add up
 * and it ends as it would have. A finished order goes back to generating its files, which must leave the
 * void label out; its status does not change (a refund is no failure). The live view is told either way.
 */
export async function recountAfterRowRefund(
  deps: Pick<BulkDeps, 'bulk' | 'events'>,
  orderId: string,
  tx: Tx,
): Promise<BulkOrderRecord> {
  let order = await deps.bulk.reconcileCounts(orderId, tx);
  if (TERMINAL_BULK_STATUSES.includes(order.status) && isSettled(order)) {
    order = (await deps.bulk.transition(orderId, TERMINAL_BULK_STATUSES, 'generating_files', {}, tx)) ?? order;
  }
  await deps.events.progress(tx, progressOf(order));
  return order;
}

/**
 * Once the refund has committed: an order sent back to generating its files gets them now. The refund
 * stands either way; files that could not be written are left to the sweeper and to Force Recovery.
 */
export async function regenerateAfterRowRefund(deps: BulkDeps, order: BulkOrderRecord): Promise<BulkOrderRecord> {
  if (order.status !== 'generating_files') return order;
  try {
    return (await finishBulkOrder(deps, order.id, { isRegeneration: true })) ?? order;
  } catch (err) {
    deps.logger.error(
      { err, orderId: order.id },
      'files of a bulk order with a refunded label could not be regenerated yet',
    );
    return order;
  }
}
