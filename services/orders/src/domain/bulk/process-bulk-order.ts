import { randomUUID } from 'node:crypto';
import { AppError, isAppError, statusOf } from '@flatship/kit';
import { BULK_MAX_ROWS, type BulkProcessBody, type BulkProcessReply, centsToDollars } from '@flatship/proto';
import { refundCharge } from '../buy-and-refund';
import { courierOf } from '../courier-of';
import { requestHash } from '../request-hash';
import { type ValidShipment, validateBulkItem } from '../validate-shipment';
import { BULK_MESSAGES } from './bulk-messages';
import { progressOf } from './bulk-view';
import { abandonRefundKey, type BulkDeps, orderChargeKey } from './deps';
import type { BulkOrderRecord, ChargePlan, NewBulkRow } from './ports';

/** How many row problems a refusal lists before summing up the rest. */
const ROW_ERRORS_SHOWN = 5;

/** Every row checked with the rules the bulk table ran; the problems of each bad row, numbered from 1. */
function validateRows(items: BulkProcessBody['orderData'], couriers?: readonly string[]): ValidShipment[] {
  const shipments: ValidShipment[] = [];
  const problems: string[] = [];
  items.forEach((item, i) => {
    const checked = validateBulkItem(item, i, {
      carriers: couriers,
      serviceMissingMessage: BULK_MESSAGES.serviceMissing,
    });
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

const submitting = () => new AppError('ORDERS_IN_PROGRESS', BULK_MESSAGES.submitting);

/** The order's claim is this very submit's: same key, same amount, same request. */
const isClaimedFor = (order: BulkOrderRecord, plan: ChargePlan) =>
  order.chargeKey === plan.chargeKey && order.costCents === plan.costCents && order.submitHash === plan.submitHash;

/**
 * Claims the order's charge for this submit, committed before any money moves
 * so that a crash always leaves a claim the sweeper can settle. A claim nobody
 * holds the lock of belongs to a submit that was cut off (by a crash, or by an
 * answer from payments that never came): the same submit sent again carries it
 * on at once under the same charge key, which payments takes at most once,
 * whether or not the first got that far. Another submit waits until the sweeper
 * has settled it, since what the first was charging for is unknown.
 */
async function claimCharge(deps: BulkDeps, orderId: string, plan: ChargePlan): Promise<void> {
  await deps.transactor.run(async (tx) => {
    const order = await deps.bulk.tryLock(orderId, tx);
    if (!order) throw submitting();
    if (order.submittedAt) throw new AppError('ORDERS_IN_PROGRESS', BULK_MESSAGES.alreadySubmitted);
    // Failed before it was submitted: its charge was refunded under the order's one charge key.
    if (order.status === 'failed') throw new AppError('ORDERS_IN_PROGRESS', BULK_MESSAGES.cancelled);
    if (order.status !== 'processing') throw submitting();
    if (!order.chargeKey) {
      if (!(await deps.bulk.reserveCharge(orderId, plan, tx))) throw submitting();
    } else if (!isClaimedFor(order, plan)) {
      throw submitting();
    }
  });
}

/**
 * Submits a bulk order: every row re-validated and priced on the server, the
 * whole order charged once (or refused whole when the balance is short), then
 * the rows and one `label.requested` per row written in one transaction. The
 * labels are bought by the label worker; this answers at once.
 *
 * The submit holds the order's row lock from its charge until its rows are
 * stored, so a crash lets go of the order the moment the process dies, and a
 * resubmit or the sweeper can tell a submit at work from one that is gone.
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
  const shipments = validateRows(body.orderData, deps.couriers);

  // One call for the whole order; whatever the client showed as a price is ignored.
  const quotes = await deps.quotes.quote(
    userId,
    shipments.map((s) => ({ serviceName: s.serviceName, weightLb: s.parcel.weightLb })),
  );
  if (quotes.length !== shipments.length) throw new AppError('INTERNAL', 'pricing answered a different number of rows');
  const costCents = quotes.reduce((sum, q) => sum + q.priceCents, 0);

  const chargeKey = orderChargeKey(order.id);
  const plan: ChargePlan = {
    costCents,
    chargeKey,
    submitHash: requestHash(body),
    source: body.source ?? 'csv',
    fileName: body.fileName ?? null,
  };

  const rows: NewBulkRow[] = shipments.map((s, i) => {
    const q = quotes[i];
    if (!q) throw new Error('unreachable: quote per row checked above');
    return {
      id: randomUUID(),
      rowIndex: i,
      input: body.orderData[i] as BulkProcessBody['orderData'][number],
      courier: courierOf(q.serviceUid),
      serviceUid: q.serviceUid,
      serviceName: q.serviceName,
      sender: s.sender,
      receiver: s.receiver,
      parcel: s.parcel,
      priceCents: q.priceCents,
    };
  });

  await claimCharge(deps, order.id, plan);

  let charged = false;
  let outcome: { submitted: BulkOrderRecord } | { refused: unknown };
  try {
    outcome = await deps.transactor.run(async (tx) => {
      const locked = await deps.bulk.tryLock(order.id, tx);
      // Another copy of this submit got the lock first and is carrying it on.
      if (!locked) throw submitting();
      if (locked.submittedAt) throw new AppError('ORDERS_IN_PROGRESS', BULK_MESSAGES.alreadySubmitted);
      if (locked.status !== 'processing' || !isClaimedFor(locked, plan)) throw submitting();
      try {
        await deps.ledger.charge({ userId, amountCents: costCents, key: chargeKey, memo: `Bulk order ${order.id}` });
      } catch (err) {
        // A refusal took nothing: the order can be submitted again (after a top-up). Anything else
        // leaves the claim in place, for this submit sent again or for the sweeper; so does a key
        // conflict, which means payments holds a charge under this key.
        if (isAppError(err) && statusOf(err.code) < 500 && err.code !== 'PAYMENTS_IDEMPOTENCY_CONFLICT') {
          await deps.bulk.releaseCharge(order.id, tx);
          return { refused: err };
        }
        throw err;
      }
      charged = true;
      if (!(await deps.bulk.submit(order.id, userId, chargeKey, rows, tx))) {
        throw new Error(`bulk order ${order.id} changed under its lock`);
      }
      await deps.events.labelRequested(
        tx,
        rows.map((r) => ({ bulkOrderId: order.id, labelId: r.id, userId, attempt: 0 })),
      );
      const now = await deps.bulk.reconcileCounts(order.id, tx);
      await deps.events.progress(tx, progressOf(now));
      return { submitted: now };
    });
  } catch (err) {
    if (!charged) throw err;
    deps.logger.error({ err, orderId: order.id }, 'bulk order rows could not be stored');
    await abandonUnsubmitted(deps, order.id);
    throw new AppError('SERVICE_UNAVAILABLE', BULK_MESSAGES.abandoned);
  }
  if ('refused' in outcome) throw outcome.refused;
  const submitted = outcome.submitted;
  const addressWarnings = await zipWarnings(shipments);
  if (addressWarnings.length > 0) {
    deps.logger.info({ orderId: order.id, rows: addressWarnings.length }, 'bulk order bought with doubtful ZIPs');
  }
  return {
    message: BULK_MESSAGES.accepted,
    data: { orderId: order.id, totalCount: submitted.totalCount, price: centsToDollars(costCents) },
    ...(addressWarnings.length > 0 ? { addressWarnings } : {}),
  };
}

const UNSUBMITTED_STATUSES = ['processing', 'processing_error', 'recovery_failed'] as const;

/**
 * An order whose charge was claimed but that never got its rows (the submit
 * died in between, or storing them failed). If payments took the charge, it is
 * refunded whole and the order fails; if it never did, the claim is let go and
 * the order may be submitted again as if never tried. Idempotent, and a no-op
 * for an order that was submitted after all or whose submit is still at work
 * (it holds the order's lock).
 */
export async function abandonUnsubmitted(deps: BulkDeps, orderId: string): Promise<void> {
  const order = await deps.bulk.findById(orderId);
  if (!order || order.submittedAt || !order.chargeKey) return;
  let refundFailed: unknown = null;
  await deps.transactor.run(async (tx) => {
    const locked = await deps.bulk.tryLock(orderId, tx);
    if (!locked?.chargeKey || locked.submittedAt) return;
    if (!(UNSUBMITTED_STATUSES as readonly string[]).includes(locked.status)) return;
    // Under the lock, so no submit can carry the claim on while its charge is being given back.
    let refunded: boolean;
    try {
      refunded = await refundCharge(deps, {
        userId: locked.userId,
        amountCents: locked.costCents,
        key: abandonRefundKey(orderId),
        chargeKey: locked.chargeKey,
        memo: `Refund of unsubmitted bulk order ${orderId}`,
      });
    } catch (err) {
      refundFailed = err;
      return;
    }
    if (!refunded) {
      // Never charged: nothing to give back, and the charge key is still unused.
      await deps.bulk.releaseCharge(orderId, tx);
      return;
    }
    await deps.bulk.transition(orderId, UNSUBMITTED_STATUSES, 'failed', {}, tx);
  });
  if (refundFailed) {
    await deps.bulk.transition(orderId, UNSUBMITTED_STATUSES, 'processing_error', { stuck: true });
    throw refundFailed;
  }
}

/**
 * The rows' ZIP doubts, judged by the same offline check the table ran at load (order-files `zipFlags`). Its ZIP table
 * is loaded by the first bulk order, not at every start of the service.
 */
async function zipWarnings(shipments: readonly ValidShipment[]): Promise<{ rowIndex: number; message: string }[]> {
  const { zipFlags } = await import('@flatship/order-files/zip-check');
  return shipments.flatMap((s, rowIndex) =>
    zipFlags({
      ToZipPostal: s.receiver.zip,
      ToStateProvince: s.receiver.state,
      FromZipPostal: s.sender.zip,
      FromStateProvince: s.sender.state,
    }).map((f) => ({ rowIndex, message: f.message })),
  );
}
