import { randomUUID } from 'node:crypto';
import type { LabelRequestedEvent } from '@flatship/proto';
import { buyLabel, refundCharge } from '../buy-and-refund';
import { labelFileKey } from '../files';
import { carrierRequestFor, purchaseOf } from '../fulfil-label';
import { keepCarrierZpl, purchaseFormatsFor, zplFileKey } from '../label-formats';
import type { CarrierLabelRequest, LabelPurchase } from '../ports';
import { type BulkWorkerDeps, carrierKeyOf, rowRefundKey } from './deps';
import { finishBulkOrder, isSettled } from './finish-bulk-order';
import type { BulkOrderRecord, BulkRowRecord } from './ports';

/** Statuses in which rows are being worked on; the last row to settle moves the order to generating_files. */
export const WORKING_STATUSES = [
  'processing',
  'retrying_failed',
  'processing_error',
  'retry_processing_error',
  'recovery_failed',
] as const;

type Purchase =
  | { row: BulkRowRecord; ok: true; trackingNumber: string; pdfName: string; keys: string[]; purchase: LabelPurchase }
  | { row: BulkRowRecord; ok: false; message: string };

/** Buys one row's label and stores its PDF; a refusal is an outcome, a failure to store is thrown. */
async function purchase(
  deps: BulkWorkerDeps,
  row: BulkRowRecord,
  formats: Pick<CarrierLabelRequest, 'formats'>,
): Promise<Purchase> {
  const request = { ...carrierRequestFor(row), idempotencyKey: carrierKeyOf(row.id, row.attempt), ...formats };
  const result = await buyLabel(deps, row.id, request);
  if (!result.ok) return { row, ok: false, message: result.message };
  const pdfName = `${randomUUID()}.pdf`;
  const key = labelFileKey(row.userId, pdfName);
  await deps.files.put(key, result.pdf);
  await keepCarrierZpl(deps.files, { userId: row.userId, pdfName }, result.zpl);
  const keys = [key, zplFileKey(row.userId, pdfName)];
  return { row, ok: true, trackingNumber: result.trackingNumber, pdfName, keys, purchase: purchaseOf(result) };
}

/** Refunds a refused row once (the key is the row and attempt); false when payments has no charge to refund. */
async function refund(deps: BulkWorkerDeps, row: BulkRowRecord): Promise<boolean> {
  // Anything but "no such charge" is thrown, so the row stays pending and its event comes again.
  const refunded = await refundCharge(deps, {
    userId: row.userId,
    amountCents: row.priceCents,
    key: rowRefundKey(row.id, row.attempt),
    chargeKey: row.chargeKey,
    memo: `Refund of bulk label ${row.id}`,
  });
  if (!refunded) deps.logger.error({ labelId: row.id, chargeKey: row.chargeKey }, 'bulk row had no charge to refund');
  return refunded;
}

const removeQuietly = (deps: BulkWorkerDeps, keys: string[]) =>
  Promise.all(
    keys.map((key) =>
      deps.files.remove(key).catch((err: unknown) => deps.logger.warn({ err, key }, 'could not remove unused file')),
    ),
  );

/** The rows these events still ask for: known bulk rows, pending, at the attempt the event names, once each. */
function rowsToWork(deps: BulkWorkerDeps, events: LabelRequestedEvent[], found: BulkRowRecord[]): BulkRowRecord[] {
  const byId = new Map(found.map((r) => [r.id, r]));
  const picked = new Map<string, BulkRowRecord>();
  for (const event of events) {
    const row = byId.get(event.labelId);
    if (!row || row.bulkOrderId !== event.bulkOrderId) {
      deps.logger.warn({ ...event }, 'label.requested for an unknown row; skipped');
      continue;
    }
    if (row.status === 'pending' && row.attempt === event.attempt) picked.set(row.id, row);
  }
  return [...picked.values()];
}

/**
 * Handles a batch of `label.requested`: buys every row's label at once (the
 * carrier key is the label id and attempt), stores the PDFs, refunds each
 * refused row once, then settles the whole batch in one transaction — rows
 * completed with their `label.purchased` or failed, counts recomputed from the
 * rows under each order's lock, and an order whose last row settled moved to
 * generating_files (exactly one transaction sees that end). Redelivery is
 * harmless: a settled row or an old attempt is skipped, a repeated purchase
 * returns the same label, a repeated refund moves nothing. When something
 * could not be done (payments away, a file not stored) the rows that could are
 * still settled and the error is thrown, so the rest come again.
 */
export async function processBulkLabels(deps: BulkWorkerDeps, events: LabelRequestedEvent[]): Promise<void> {
  if (events.length === 0) return;
  const work = rowsToWork(deps, events, await deps.bulk.findRows(events.map((e) => e.labelId)));
  if (work.length === 0) return;

  const bought: Extract<Purchase, { ok: true }>[] = [];
  const failed: { row: BulkRowRecord; message: string; refunded: boolean }[] = [];
  let firstError: unknown;
  // One look at each buyer's print setting for the whole batch (a batch is mostly one order's rows).
  const formatsByUser = new Map<string, Promise<Pick<CarrierLabelRequest, 'formats'>>>();
  const formatsOf = (userId: string) => {
    let formats = formatsByUser.get(userId);
    if (!formats) {
      formats = purchaseFormatsFor(deps, userId);
      formatsByUser.set(userId, formats);
    }
    return formats;
  };
  const purchases = await Promise.allSettled(work.map(async (row) => purchase(deps, row, await formatsOf(row.userId))));
  const refunds = await Promise.allSettled(
    purchases.map(async (p) => {
      if (p.status === 'rejected') throw p.reason;
      if (p.value.ok) bought.push(p.value);
      else failed.push({ row: p.value.row, message: p.value.message, refunded: await refund(deps, p.value.row) });
    }),
  );
  for (const r of refunds) if (r.status === 'rejected') firstError ??= r.reason;

  const orderIds = [
    ...new Set([...bought.map((b) => b.row.bulkOrderId), ...failed.map((f) => f.row.bulkOrderId)]),
  ].sort();
  const outcome = await deps.transactor.run(async (tx) => {
    // Orders are locked in id order, so two batches touching the same orders cannot deadlock.
    for (const id of orderIds) await deps.bulk.lock(id, tx);
    const completed = await deps.bulk.completeRows(
      bought.map((b) => ({
        id: b.row.id,
        attempt: b.row.attempt,
        trackingNumber: b.trackingNumber,
        pdfName: b.pdfName,
        purchase: b.purchase,
      })),
      tx,
    );
    await deps.publishLabelPurchased(tx, completed);
    await deps.bulk.failRows(
      failed.map((f) => ({
        id: f.row.id,
        attempt: f.row.attempt,
        errorCode: 'ORDERS_CARRIER_FAILED',
        error: f.message,
        refunded: f.refunded,
      })),
      tx,
    );
    const orders: { order: BulkOrderRecord; finishing: boolean }[] = [];
    for (const id of orderIds) {
      let order = await deps.bulk.reconcileCounts(id, tx);
      let finishing = false;
      if (isSettled(order)) {
        const moved = await deps.bulk.transition(id, WORKING_STATUSES, 'generating_files', {}, tx);
        if (moved) {
          order = moved;
          finishing = true;
        }
      }
      orders.push({ order, finishing });
    }
    return { completed: new Set(completed.map((r) => r.id)), orders };
  });

  // A row settled meanwhile by another delivery keeps that delivery's file; this one's is not needed.
  await removeQuietly(
    deps,
    bought.filter((b) => !outcome.completed.has(b.row.id)).flatMap((b) => b.keys),
  );

  for (const { order, finishing } of outcome.orders) {
    if (!finishing) {
      deps.progress.notify(order);
      continue;
    }
    deps.progress.finished(order.id);
    try {
      await finishBulkOrder(deps, order.id);
    } catch (err) {
      // The rows are settled; redelivering their events would not finish the order. The sweeper will.
      deps.logger.error({ err, orderId: order.id }, 'bulk order files could not be generated yet');
    }
  }
  if (firstError !== undefined) throw firstError;
}
