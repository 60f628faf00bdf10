import { randomUUID } from 'node:crypto';
import { isAppError } from '@flatship/kit';
import type { LabelRequestedEvent } from '@flatship/proto';
import { labelFileKey } from '../files';
import { carrierRequestFor } from '../fulfil-label';
import { MESSAGES } from '../messages';
import type { CarrierLabelResult, Tx } from '../ports';
import { type BulkWorkerDeps, carrierKeyOf, rowRefundKey } from './deps';
import { finishBulkOrder } from './finish-bulk-order';
import type { BulkOrderRecord, BulkRowRecord } from './ports';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Statuses in which rows are being worked on; the last row to settle moves the order to generating_files. */
export const WORKING_STATUSES = [
  'processing',
  'retrying_failed',
  'processing_error',
  'retry_processing_error',
  'recovery_failed',
] as const;

async function buy(deps: BulkWorkerDeps, row: BulkRowRecord): Promise<CarrierLabelResult> {
  const delays = deps.carrierRetryDelaysMs ?? [];
  const request = { ...carrierRequestFor(row), idempotencyKey: carrierKeyOf(row.id, row.attempt) };
  for (let attempt = 0; ; attempt++) {
    let result: CarrierLabelResult;
    try {
      result = await deps.carrier.purchaseLabel(request);
    } catch (err) {
      // Whether the carrier bought it is unknown; the same key makes the next try safe.
      deps.logger.warn({ err, labelId: row.id }, 'carrier call failed');
      result = { ok: false, message: MESSAGES.carrierUnreachable, retryable: true };
    }
    if (result.ok || !result.retryable || attempt >= delays.length) return result;
    await sleep(delays[attempt] ?? 0);
  }
}

/**
 * After a row settled, in its transaction: counts from the rows, and when
 * nothing is left in flight the order moves to generating_files. The order
 * row lock taken first makes exactly one settling transaction see the end.
 */
async function settle(
  deps: BulkWorkerDeps,
  tx: Tx,
  orderId: string,
  change: () => Promise<BulkRowRecord | null>,
): Promise<{ row: BulkRowRecord | null; order: BulkOrderRecord; finishing: boolean }> {
  await deps.bulk.lock(orderId, tx);
  const row = await change();
  let order = await deps.bulk.reconcileCounts(orderId, tx);
  let finishing = false;
  if (order.processedCount + order.failedCount === order.totalCount) {
    const moved = await deps.bulk.transition(orderId, WORKING_STATUSES, 'generating_files', {}, tx);
    if (moved) {
      order = moved;
      finishing = true;
    }
  }
  return { row, order, finishing };
}

/**
 * Handles one `label.requested`: buys the row's label (carrier key = label id
 * and attempt), stores its PDF and completes the row with `label.purchased`;
 * or, when the carrier refuses, refunds the row once and marks it failed.
 * Redelivery is harmless: a settled row or an old attempt is skipped, a
 * repeated purchase returns the same label, a repeated refund moves nothing.
 */
export async function processBulkLabel(deps: BulkWorkerDeps, event: LabelRequestedEvent): Promise<void> {
  const row = await deps.bulk.findRow(event.labelId);
  if (!row || row.bulkOrderId !== event.bulkOrderId) {
    deps.logger.warn({ ...event }, 'label.requested for an unknown row; skipped');
    return;
  }
  if (row.status !== 'pending' || row.attempt !== event.attempt) return;

  const result = await buy(deps, row);
  let outcome: Awaited<ReturnType<typeof settle>>;
  if (result.ok) {
    const pdfName = `${randomUUID()}.pdf`;
    const key = labelFileKey(row.userId, pdfName);
    await deps.files.put(key, result.pdf);
    outcome = await deps.transactor.run((tx) =>
      settle(deps, tx, row.bulkOrderId, async () => {
        const done = await deps.bulk.completeRow(
          row.id,
          row.attempt,
          { trackingNumber: result.trackingNumber, pdfName },
          tx,
        );
        if (done) await deps.publishLabelPurchased(tx, done);
        return done;
      }),
    );
    if (!outcome.row) {
      await deps.files
        .remove(key)
        .catch((err: unknown) => deps.logger.warn({ err, key }, 'could not remove unused file'));
    }
  } else {
    let refunded = true;
    try {
      await deps.ledger.refund({
        userId: row.userId,
        amountCents: row.priceCents,
        key: rowRefundKey(row.id, row.attempt),
        chargeKey: row.chargeKey,
        memo: `Refund of bulk label ${row.id}`,
      });
    } catch (err) {
      // Anything but "no such charge" is thrown, so the event comes again and the refund is retried.
      if (!(isAppError(err) && err.code === 'PAYMENTS_CHARGE_NOT_FOUND')) throw err;
      refunded = false;
      deps.logger.error({ labelId: row.id, chargeKey: row.chargeKey }, 'bulk row had no charge to refund');
    }
    outcome = await deps.transactor.run((tx) =>
      settle(deps, tx, row.bulkOrderId, () =>
        deps.bulk.failRow(
          row.id,
          row.attempt,
          { errorCode: 'ORDERS_CARRIER_FAILED', error: result.message, refunded },
          tx,
        ),
      ),
    );
  }

  if (!outcome.finishing) {
    deps.progress.notify(outcome.order);
    return;
  }
  deps.progress.finished(row.bulkOrderId);
  try {
    await finishBulkOrder(deps, row.bulkOrderId);
  } catch (err) {
    // The row is settled; redelivering its event would not finish the order. The sweeper will.
    deps.logger.error({ err, orderId: row.bulkOrderId }, 'bulk order files could not be generated yet');
  }
}
