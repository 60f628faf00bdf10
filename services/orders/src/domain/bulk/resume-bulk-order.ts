import type { AuthContext } from '@flatship/kit';
import { type BulkFixReply, type BulkStatus, TERMINAL_BULK_STATUSES } from '@flatship/proto';
import { visibleOrder } from './access';
import { BULK_MESSAGES } from './bulk-messages';
import { fileDataOf, progressOf } from './bulk-view';
import { type BulkDeps, retryChargeKey } from './deps';
import { finishBulkOrder, hasAllFiles, isSettled } from './finish-bulk-order';
import type { BulkOrderRecord } from './ports';
import { WORKING_STATUSES } from './process-bulk-label';
import { abandonUnsubmitted } from './process-bulk-order';
import { chargeAndRequeue } from './retry-failed';

/** The error status an order takes when bringing it back fails, by what it was doing. */
const errorStatusFor = (status: BulkStatus): BulkStatus =>
  status === 'processing'
    ? 'processing_error'
    : status === 'retrying_failed'
      ? 'retry_processing_error'
      : 'recovery_failed';

/**
 * Brings an order back on track after a crash, a lost event or a lost file:
 * counts reconciled from the rows, a retry that was charged but never queued
 * queued, rows still in flight queued again (the worker skips what is already
 * settled), and missing files generated. Every step is idempotent, so the
 * sweeper and `fix` may run it at any time.
 */
export async function resumeBulkOrder(deps: BulkDeps, orderId: string): Promise<BulkOrderRecord | null> {
  let order = await deps.bulk.findById(orderId);
  if (!order) return null;
  if (!order.submittedAt) {
    if (order.chargeKey) await abandonUnsubmitted(deps, orderId);
    return deps.bulk.findById(orderId);
  }
  try {
    if (order.status === 'retrying_failed' || order.status === 'retry_processing_error') {
      const key = retryChargeKey(order.id, order.retryCount);
      const rows = await deps.bulk.rows(orderId);
      if (order.retryCount > 0 && !rows.some((r) => r.chargeKey === key)) {
        order = await chargeAndRequeue(deps, { ...order, status: 'retrying_failed' });
      }
    }

    const missingFiles = TERMINAL_BULK_STATUSES.includes(order.status) && !(await hasAllFiles(deps.files, order));
    order = await deps.transactor.run(async (tx) => {
      await deps.bulk.lock(orderId, tx);
      let now = await deps.bulk.reconcileCounts(orderId, tx);
      const pending = (await deps.bulk.rows(orderId, tx)).filter((r) => r.status === 'pending');
      if (pending.length > 0) {
        await deps.events.labelRequested(
          tx,
          pending.map((r) => ({ bulkOrderId: orderId, labelId: r.id, userId: r.userId, attempt: r.attempt })),
        );
        const back = now.status === 'retry_processing_error' ? 'retrying_failed' : 'processing';
        now =
          (await deps.bulk.transition(
            orderId,
            ['processing_error', 'retry_processing_error', 'recovery_failed'],
            back,
            {},
            tx,
          )) ?? now;
      } else if (isSettled(now)) {
        const from = missingFiles ? [...WORKING_STATUSES, ...TERMINAL_BULK_STATUSES] : WORKING_STATUSES;
        now = (await deps.bulk.transition(orderId, from, 'generating_files', {}, tx)) ?? now;
      }
      await deps.events.progress(tx, progressOf(now));
      return now;
    });
    if (order.status === 'generating_files') order = (await finishBulkOrder(deps, orderId)) ?? order;
    return order;
  } catch (err) {
    deps.logger.error({ err, orderId }, 'bulk order could not be resumed');
    const current = await deps.bulk.findById(orderId);
    if (current && !TERMINAL_BULK_STATUSES.includes(current.status)) {
      await deps.bulk.transition(orderId, [current.status], errorStatusFor(current.status), { stuck: true });
    }
    throw err;
  }
}

/** POST /api/orders/bulk/fix/{orderId}: the sweeper's treatment, on demand. */
export async function fixBulkOrder(deps: BulkDeps, auth: AuthContext, orderId: string): Promise<BulkFixReply> {
  await visibleOrder(deps, auth, orderId);
  const order = (await resumeBulkOrder(deps, orderId)) as BulkOrderRecord;
  return {
    message: BULK_MESSAGES.fixed,
    status: order.status,
    processedCount: order.processedCount,
    failedCount: order.failedCount,
    refundedCount: order.refundedCount,
    totalCount: order.totalCount,
    fileData: fileDataOf(order),
  };
}

/** Resumes unfinished orders that made no progress for `stallMs`; one order's failure does not stop the others. */
export async function sweepStalledBulkOrders(
  deps: BulkDeps & { now(): Date },
  opts: { stallMs: number; batchSize?: number },
): Promise<number> {
  const stalled = await deps.bulk.leaseStalled(new Date(deps.now().getTime() - opts.stallMs), opts.batchSize ?? 20);
  for (const order of stalled) {
    deps.logger.warn({ orderId: order.id, status: order.status }, 'resuming stalled bulk order');
    await resumeBulkOrder(deps, order.id).catch(() => {});
  }
  return stalled.length;
}
