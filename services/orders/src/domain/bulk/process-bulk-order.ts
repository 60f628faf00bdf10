import { randomUUID } from 'node:crypto';
import { AppError, isAppError, statusOf } from '@flatship/kit';
import { BULK_MAX_ROWS, type BulkProcessBody, type BulkProcessReply, centsToDollars } from '@flatship/proto';
import { type ValidShipment, validateShipment } from '../validate-shipment';
import { BULK_MESSAGES } from './bulk-messages';
import { progressOf } from './bulk-view';
import { abandonRefundKey, type BulkDeps, orderChargeKey } from './deps';
import type { BulkOrderRecord, NewBulkRow } from './ports';

/** How many row problems a refusal lists before summing up the rest. */
const ROW_ERRORS_SHOWN = 5;

function toShipmentInput(item: BulkProcessBody['orderData'][number]) {
  const p = item.package;
  return {
    service_name: item.service_name,
    courier: item.courier,
    sender: item.sender,
    receiver: item.receiver,
    package: {
      ...p,
      // The bulk row carries quantity and SKU in their own fields.
      package_reference1: p.quantity ?? null,
      package_reference2: p.sku_number ?? p.package_reference2 ?? null,
    },
  };
}

/** Every row checked with the single-label rules; the first problem of each bad row, numbered from 1. */
function validateRows(items: BulkProcessBody['orderData']): ValidShipment[] {
  const shipments: ValidShipment[] = [];
  const problems: string[] = [];
  items.forEach((item, i) => {
    const checked = validateShipment(toShipmentInput(item), { serviceMissingMessage: BULK_MESSAGES.serviceMissing });
    if (checked.ok) shipments.push(checked.shipment);
    else problems.push(`Row ${i + 1}: ${checked.errors.join(', ')}`);
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, ROW_ERRORS_SHOWN);
    throw new AppError('ORDERS_INVALID', BULK_MESSAGES.rowErrors(shown, problems.length - shown.length));
  }
  return shipments;
}

async function ownOrder(deps: BulkDeps, userId: string, orderId: string): Promise<BulkOrderRecord> {
  const order = await deps.bulk.findById(orderId);
  if (!order || order.userId !== userId) throw new AppError('NOT_FOUND', BULK_MESSAGES.notFound);
  return order;
}

/**
 * Submits a bulk order: every row re-validated and priced on the server, the
 * whole order charged once (or refused whole when the balance is short), then
 * the rows and one `label.requested` per row written in one transaction. The
 * labels are bought by the label worker; this answers at once.
 */
export async function processBulkOrder(
  deps: BulkDeps,
  input: { userId: string; body: BulkProcessBody },
): Promise<BulkProcessReply> {
  const { userId, body } = input;
  const order = await ownOrder(deps, userId, body.orderId);
  if (order.submittedAt) throw new AppError('ORDERS_IN_PROGRESS', BULK_MESSAGES.alreadySubmitted);
  if (body.orderData.length === 0) throw new AppError('ORDERS_INVALID', BULK_MESSAGES.noRows);
  if (body.orderData.length > BULK_MAX_ROWS) {
    throw new AppError('ORDERS_INVALID', BULK_MESSAGES.tooManyRows(BULK_MAX_ROWS));
  }
  const shipments = validateRows(body.orderData);

  // One call for the whole order; whatever the client showed as a price is ignored.
  const quotes = await deps.quotes.quote(
    userId,
    shipments.map((s) => ({ serviceName: s.serviceName, weightLb: s.parcel.weightLb })),
  );
  if (quotes.length !== shipments.length) throw new AppError('INTERNAL', 'pricing answered a different number of rows');
  const costCents = quotes.reduce((sum, q) => sum + q.priceCents, 0);

  const chargeKey = orderChargeKey(order.id);
  const reserved = await deps.bulk.reserveCharge(order.id, {
    costCents,
    chargeKey,
    source: body.source ?? 'csv',
    fileName: body.fileName ?? null,
  });
  if (!reserved) throw new AppError('ORDERS_IN_PROGRESS', BULK_MESSAGES.inProgress);

  try {
    await deps.ledger.charge({ userId, amountCents: costCents, key: chargeKey, memo: `Bulk order ${order.id}` });
  } catch (err) {
    // A refusal took nothing: the order can be submitted again (after a top-up). Anything else
    // leaves the claim in place; the sweeper settles it with payments.
    if (isAppError(err) && statusOf(err.code) < 500) await deps.bulk.releaseCharge(order.id);
    throw err;
  }

  const rows: NewBulkRow[] = shipments.map((s, i) => {
    const q = quotes[i];
    if (!q) throw new Error('unreachable: quote per row checked above');
    return {
      id: randomUUID(),
      rowIndex: i,
      input: body.orderData[i] as BulkProcessBody['orderData'][number],
      serviceUid: q.serviceUid,
      serviceName: q.serviceName,
      sender: s.sender,
      receiver: s.receiver,
      parcel: s.parcel,
      priceCents: q.priceCents,
    };
  });

  let submitted: BulkOrderRecord | null = null;
  try {
    submitted = await deps.transactor.run(async (tx) => {
      const locked = await deps.bulk.lock(order.id, tx);
      if (!locked) return null;
      if (!(await deps.bulk.submit(order.id, userId, chargeKey, rows, tx))) return null;
      await deps.events.labelRequested(
        tx,
        rows.map((r) => ({ bulkOrderId: order.id, labelId: r.id, userId, attempt: 0 })),
      );
      const now = await deps.bulk.reconcileCounts(order.id, tx);
      await deps.events.progress(tx, progressOf(now));
      return now;
    });
  } catch (err) {
    deps.logger.error({ err, orderId: order.id }, 'bulk order rows could not be stored');
  }
  if (!submitted) {
    await abandonUnsubmitted(deps, order.id);
    throw new AppError('SERVICE_UNAVAILABLE', BULK_MESSAGES.abandoned);
  }
  return {
    message: BULK_MESSAGES.accepted,
    data: { orderId: order.id, totalCount: submitted.totalCount, price: centsToDollars(costCents) },
  };
}

/**
 * An order charged but never given its rows (the request died in between, or
 * storing them failed): the charge is refunded whole and the order fails.
 * Idempotent, and a no-op for an order that was submitted after all.
 */
export async function abandonUnsubmitted(deps: BulkDeps, orderId: string): Promise<void> {
  const order = await deps.bulk.findById(orderId);
  if (!order || order.submittedAt || !order.chargeKey) return;
  const failed = await deps.transactor.run(async (tx) => {
    const locked = await deps.bulk.lock(orderId, tx);
    if (!locked || locked.submittedAt) return null;
    return deps.bulk.transition(orderId, ['processing', 'processing_error', 'recovery_failed'], 'failed', {}, tx);
  });
  if (!failed?.chargeKey) return;
  try {
    await deps.ledger.refund({
      userId: failed.userId,
      amountCents: failed.costCents,
      key: abandonRefundKey(orderId),
      chargeKey: failed.chargeKey,
      memo: `Refund of unsubmitted bulk order ${orderId}`,
    });
  } catch (err) {
    // Never charged: nothing to give back.
    if (isAppError(err) && err.code === 'PAYMENTS_CHARGE_NOT_FOUND') return;
    await deps.bulk.transition(orderId, ['failed'], 'processing_error', { stuck: true });
    throw err;
  }
}
