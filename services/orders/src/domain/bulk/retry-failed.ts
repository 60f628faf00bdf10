import { AppError, type AuthContext, isAppError, statusOf } from '@flatship/kit';
import { type RetryReply, TERMINAL_BULK_STATUSES } from '@flatship/proto';
import { visibleOrder } from './access';
import { BULK_MESSAGES } from './bulk-messages';
import { fileDataOf, progressOf } from './bulk-view';
import { type BulkDeps, retryChargeKey } from './deps';
import { finalStatusOf } from './finish-bulk-order';
import type { BulkOrderRecord } from './ports';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Charges retry `n` of an order (idempotent by key) and puts its failed rows
 * back in the queue as their next attempt. Also how a sweeper finishes a
 * retry that died between the charge and the queueing. A refused charge puts
 * the order back where it was.
 */
export async function chargeAndRequeue(deps: BulkDeps, order: BulkOrderRecord): Promise<BulkOrderRecord> {
  const key = retryChargeKey(order.id, order.retryCount);
  try {
    await deps.ledger.charge({
      userId: order.userId,
      amountCents: order.retryCostCents,
      key,
      memo: `Retry ${order.retryCount} of bulk order ${order.id}`,
    });
  } catch (err) {
    if (isAppError(err) && statusOf(err.code) < 500) {
      await deps.bulk.transition(order.id, ['retrying_failed', 'retry_processing_error'], finalStatusOf(order));
    }
    throw err;
  }
  return deps.transactor.run(async (tx) => {
    await deps.bulk.lock(order.id, tx);
    const rows = await deps.bulk.requeueFailed(order.id, key, tx);
    await deps.events.labelRequested(
      tx,
      rows.map((r) => ({ bulkOrderId: order.id, labelId: r.id, userId: r.userId, attempt: r.attempt })),
    );
    const now = await deps.bulk.reconcileCounts(order.id, tx);
    await deps.events.progress(tx, progressOf(now));
    return now;
  });
}

/**
 * Retries the failed labels of a finished order: charges their price once
 * more (refused whole when the balance is short), re-queues them, and waits a
 * little for the outcome so the answer can say how many were recovered.
 */
export async function retryFailed(
  deps: BulkDeps,
  auth: AuthContext,
  orderId: string,
  opts: { waitMs: number },
): Promise<RetryReply> {
  await visibleOrder(deps, auth, orderId);
  const started = await deps.transactor.run(async (tx) => {
    await deps.bulk.lock(orderId, tx);
    const order = await deps.bulk.reconcileCounts(orderId, tx);
    if (!TERMINAL_BULK_STATUSES.includes(order.status)) {
      throw new AppError('ORDERS_IN_PROGRESS', BULK_MESSAGES.inProgress);
    }
    const failed = (await deps.bulk.rows(orderId, tx)).filter((r) => r.status === 'cancelled');
    if (failed.length === 0) throw new AppError('BAD_REQUEST', BULK_MESSAGES.noFailedLabels);
    const moved = await deps.bulk.transition(
      orderId,
      TERMINAL_BULK_STATUSES,
      'retrying_failed',
      { retryCount: order.retryCount + 1, retryCostCents: failed.reduce((sum, r) => sum + r.priceCents, 0) },
      tx,
    );
    if (!moved) throw new AppError('ORDERS_IN_PROGRESS', BULK_MESSAGES.inProgress);
    return { before: order, order: moved, count: failed.length };
  });
  await chargeAndRequeue(deps, started.order);

  const deadline = Date.now() + opts.waitMs;
  let now = (await deps.bulk.findById(orderId)) ?? started.order;
  while (!TERMINAL_BULK_STATUSES.includes(now.status) && Date.now() < deadline) {
    await sleep(100);
    now = (await deps.bulk.findById(orderId)) ?? now;
  }
  // Labels bought, refunded since or not: an admin refunding one meanwhile takes nothing from what the retry recovered.
  const bought = (o: BulkOrderRecord) => o.processedCount + o.refundedCount;
  const recovered = Math.max(0, bought(now) - bought(started.before));
  const finished = TERMINAL_BULK_STATUSES.includes(now.status);
  return {
    message: finished ? BULK_MESSAGES.retryDone(recovered, now.failedCount) : BULK_MESSAGES.retryStarted(started.count),
    fileData: fileDataOf(now),
    finalProcessedCount: now.processedCount,
    finalFailedCount: now.failedCount,
    finalRefundedCount: now.refundedCount,
    status: now.status,
    updatedTotalCount: now.totalCount,
    newlySuccessfulCount: recovered,
  };
}
