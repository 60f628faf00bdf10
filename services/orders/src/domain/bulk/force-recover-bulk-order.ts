import { AppError, type AuthContext } from '@flatship/kit';
import { type BulkForceRecoveryReply, FORCE_RECOVERABLE_BULK_STATUSES, isTerminalBulkStatus } from '@flatship/proto';
import { visibleOrder } from './access';
import { BULK_MESSAGES } from './bulk-messages';
import { fileDataOf } from './bulk-view';
import type { BulkDeps } from './deps';
import type { BulkOrderRecord } from './ports';
import { resumeBulkOrder } from './resume-bulk-order';

/**
 * POST /api/orders/bulk/force-recovery/{userId}/{orderId}: Force Recovery of an order stuck generating its
 * files, or whose recovery failed — the files (merged labels PDF, results CSV, marketplace confirmation) are
 * generated again from the rows, and the order takes its final status. The order must be `userId`'s (the
 * route has checked that the caller is that user or an admin); any other order is not found.
 *
 * Idempotent: nothing is charged or bought, and the files are written under the order's lock, so calls at
 * once (a double click, the user and an admin, the sweeper) generate once; a call that waited finds the
 * order finished and answers it as it is. An order that is not stuck (still buying, finished) is refused.
 * Should generation fail again the order is left recovery_failed, to be tried again.
 */
export async function forceRecoverBulkOrder(
  deps: BulkDeps,
  auth: AuthContext,
  userId: string,
  orderId: string,
): Promise<BulkForceRecoveryReply> {
  const order = await visibleOrder(deps, auth, orderId);
  if (order.userId !== userId) throw new AppError('NOT_FOUND', BULK_MESSAGES.notFound);
  if (!FORCE_RECOVERABLE_BULK_STATUSES.includes(order.status)) {
    throw new AppError('ORDERS_NOT_STUCK', BULK_MESSAGES.notStuck(order.status));
  }
  let now: BulkOrderRecord;
  try {
    now = (await resumeBulkOrder(deps, orderId)) ?? order;
  } catch (err) {
    // resumeBulkOrder has logged the cause and marked the order recovery_failed, with when it got stuck.
    deps.logger.warn({ err, orderId }, 'force recovery could not generate the order files');
    throw new AppError('ORDERS_RECOVERY_FAILED', BULK_MESSAGES.recoveryFailed);
  }
  return {
    message: isTerminalBulkStatus(now.status) ? BULK_MESSAGES.recovered : BULK_MESSAGES.recoveredResumed,
    status: now.status,
    processedCount: now.processedCount,
    failedCount: now.failedCount,
    refundedCount: now.refundedCount,
    totalCount: now.totalCount,
    fileData: fileDataOf(now),
  };
}
