import { randomUUID } from 'node:crypto';
import { AppError, isAppError, statusOf } from '@flatship/kit';
import { centsToDollars, type OrderCreateBody, type OrderCreateReply } from '@flatship/proto';
import { type CheckAddressDeps, verifyOne } from './check-address';
import { courierOf } from './courier-of';
import {
  type FulfilDeps,
  type FulfilOutcome,
  finishRefund,
  fulfilLabel,
  refundKeyFor,
  settledOutcome,
} from './fulfil-label';
import { MESSAGES } from './messages';
import type { LabelRecord, PurchaseHold, PurchaseLocks, QuotePort } from './ports';
import { requestHash } from './request-hash';
import { type ShipmentAddress, validateOrderBody } from './validate-shipment';

export interface CreateLabelDeps extends FulfilDeps, CheckAddressDeps {
  /** The couriers labels may be bought from (the enabled carriers); the default courier when absent. */
  couriers?: readonly string[];
  quotes: QuotePort;
  purchaseLocks: PurchaseLocks;
}

export interface CreateLabelInput {
  /** Whose balance pays; the route has checked that the caller may act for this user. */
  userId: string;
  body: OrderCreateBody;
  /**
   * From the `Idempotency-Key` header, scoped to the paying user: the same key with the same body
   * never buys twice (see `answerRetry`); with another body it is refused.
   */
  idempotencyKey: string | null;
}

export const chargeKeyFor = (labelId: string) => `label:${labelId}`;

export function createdReply(label: LabelRecord): OrderCreateReply {
  return {
    message: MESSAGES.labelCreated,
    data: {
      orderId: label.id,
      pdfName: label.pdfName ?? '',
      tracking_number: label.trackingNumber ?? '',
      price: centsToDollars(label.priceCents),
    },
  };
}

/** The same key for another request is a client bug that must not buy (or answer with) the wrong label. */
function assertSameRequest(label: LabelRecord, hash: string): void {
  // Rows from before the hash was kept cannot be compared.
  if (label.requestHash !== null && label.requestHash !== hash) {
    throw new AppError('ORDERS_IDEMPOTENCY_KEY_REUSED', MESSAGES.keyReused);
  }
}

const inProgress = () => new AppError('ORDERS_IN_PROGRESS', MESSAGES.inProgress);

/** The answer the first request with this key got (or is still working on). */
function replay(label: LabelRecord): OrderCreateReply {
  if (label.status === 'completed') return createdReply(label);
  if (label.status === 'cancelled') {
    throw new AppError(label.errorCode ?? 'ORDERS_CARRIER_FAILED', label.error ?? MESSAGES.abandoned);
  }
  throw inProgress();
}

function answer(outcome: FulfilOutcome): OrderCreateReply {
  if (outcome.kind === 'completed') return createdReply(outcome.label);
  throw new AppError(outcome.errorCode, outcome.message);
}

/**
 * A key seen before. A label bought under it is answered again, and so is a
 * refusal that a retry cannot change (the carrier refused this shipment). A
 * purchase still pending is carried on by this request when no one is at work
 * on it (see `carryOn`), and answered 409 when someone is. A purchase that
 * ended without a label for a reason that may pass (cut off and settled, carrier
 * unreachable, balance short) holds no money: its key is handed to this
 * request, which buys afresh (null).
 */
async function answerRetry(
  deps: CreateLabelDeps,
  earlier: LabelRecord,
  hash: string,
): Promise<OrderCreateReply | null> {
  assertSameRequest(earlier, hash);
  let label = earlier;
  if (label.status === 'pending') {
    const carried = await carryOn(deps, label);
    if ('reply' in carried) return carried.reply;
    label = carried.settled;
  }
  if (label.status !== 'cancelled' || !label.retryable) return replay(label);
  // Only one retry can take the key; any other is told the purchase is under way.
  if (!(await deps.labels.releaseIdempotencyKey(label.id))) throw inProgress();
  deps.logger.info({ labelId: label.id, errorCode: label.errorCode }, 'idempotency key buys afresh');
  return null;
}

/**
 * A retry of a purchase whose row is still pending. If the request working on
 * it holds it, that request is alive: 409. If no one does, the purchase was cut
 * off (its process died, or an outage left the row to the reconciler), and this
 * request carries it on at once under the same charge and carrier keys, so
 * payments and the carrier take it at most once. A row whose refund had begun
 * is only refunded and cancelled; what it became is then answered as usual.
 */
async function carryOn(
  deps: CreateLabelDeps,
  earlier: LabelRecord,
): Promise<{ reply: OrderCreateReply } | { settled: LabelRecord }> {
  const hold = await deps.purchaseLocks.tryHold(earlier.id);
  if (!hold) throw inProgress();
  try {
    const label = await deps.labels.findById(earlier.id);
    if (!label) throw new AppError('INTERNAL', `label ${earlier.id} vanished`);
    if (label.status !== 'pending') return { settled: label };
    if (label.refundStartedAt) {
      const outcome = await finishRefund(deps, label);
      // Payments could not take the refund now; the reconciler goes on with it.
      if (outcome.kind === 'pending') throw inProgress();
      if (outcome.kind === 'completed') return { reply: createdReply(outcome.label) };
      return { settled: outcome.label };
    }
    deps.logger.info({ labelId: label.id }, 'carrying on a purchase that was cut off');
    return { reply: await purchase(deps, label, hold) };
  } finally {
    await hold.release();
  }
}

/**
 * The To address is checked with the carrier before anything is charged: one the carrier will not deliver to is
 * bought only when the buyer said so (`address_acknowledged`), as the form asks. A carrier that cannot be asked does
 * not stop the purchase.
 */
async function assertDeliverable(deps: CreateLabelDeps, to: ShipmentAddress, acknowledged: boolean): Promise<void> {
  if (acknowledged || !deps.addressVerifier) return;
  const check = await verifyOne(deps, to);
  if (check.verdict !== 'undeliverable') return;
  throw new AppError(
    'ORDERS_ADDRESS_UNDELIVERABLE',
    `USPS cannot deliver to this To address. ${check.message ?? ''} Tick "Ship to this address anyway" to buy the label anyway.`.replace(
      '  ',
      ' ',
    ),
  );
}

/**
 * Buys one label: validate, price on the server, record the row, charge,
 * buy from the carrier, store the PDF. Money never moves without a row that
 * says why, and a label that was not bought is refunded. The purchase is held
 * (`PurchaseLocks`) from before its row exists until it is done, so nothing
 * settles it while it runs, and a crash lets go of it at once.
 */
export async function createLabel(deps: CreateLabelDeps, input: CreateLabelInput): Promise<OrderCreateReply> {
  const checked = validateOrderBody(input.body, deps.couriers);
  if (!checked.ok) throw new AppError('ORDERS_INVALID', checked.errors[0] ?? 'The order is not valid');
  const { shipment } = checked;

  const hash = requestHash(input.body);
  if (input.idempotencyKey) {
    const earlier = await deps.labels.findByIdempotencyKey(input.userId, input.idempotencyKey);
    if (earlier) {
      const again = await answerRetry(deps, earlier, hash);
      if (again) return again;
    }
  }

  await assertDeliverable(deps, shipment.receiver, input.body.address_acknowledged === true);

  // Whatever price the client sent is ignored: this is the price charged.
  const [quote] = await deps.quotes.quote(input.userId, [
    { serviceName: shipment.serviceName, weightLb: shipment.parcel.weightLb },
  ]);
  if (!quote) throw new AppError('INTERNAL', 'pricing returned no quote');

  const id = randomUUID();
  const hold = await deps.purchaseLocks.tryHold(id);
  if (!hold) throw new AppError('INTERNAL', `label ${id} is held before it exists`);
  try {
    const inserted = await deps.labels.insertPending({
      id,
      userId: input.userId,
      idempotencyKey: input.idempotencyKey,
      courier: courierOf(quote.serviceUid),
      serviceUid: quote.serviceUid,
      serviceName: quote.serviceName,
      sender: shipment.sender,
      receiver: shipment.receiver,
      parcel: shipment.parcel,
      priceCents: quote.priceCents,
      chargeKey: chargeKeyFor(id),
      requestHash: input.idempotencyKey ? hash : null,
    });
    // Lost a race with a concurrent request carrying the same key.
    if (!inserted.ok) {
      assertSameRequest(inserted.existing, hash);
      return replay(inserted.existing);
    }
    return await purchase(deps, inserted.label, hold);
  } finally {
    await hold.release();
  }
}

/**
 * Charges (unless that is known to be done) and buys the label of a pending
 * row this request holds. The charge is sent only after the held connection
 * itself has seen the row pending with no refund begun; if the row was
 * settled by someone else while the charge was on its way (possible only if
 * the hold was lost with its connection), the charge is given back.
 */
async function purchase(deps: CreateLabelDeps, label: LabelRecord, hold: PurchaseHold): Promise<OrderCreateReply> {
  if (!label.chargedAt) {
    if (!(await hold.canCharge())) return answer(await settledOutcome(deps, label.id));
    try {
      await deps.ledger.charge({
        userId: label.userId,
        amountCents: label.priceCents,
        key: label.chargeKey,
        memo: `Label ${label.id} (${label.serviceName})`,
      });
    } catch (err) {
      // A refusal (4xx) means nothing was charged. Anything else leaves the row pending
      // and uncharged as far as we know; the reconciler settles it with payments.
      if (isAppError(err) && statusOf(err.code) < 500) {
        await deps.labels.cancel(label.id, {
          errorCode: err.code,
          error: err.message,
          refunded: false,
          // After a top-up the same request may go through.
          retryable: err.code === 'PAYMENTS_INSUFFICIENT_BALANCE',
        });
      }
      throw err;
    }
    if (!(await deps.labels.markCharged(label.id))) return answer(await giveBackLateCharge(deps, label));
  }
  return answer(await fulfilLabel(deps, label, { keepRetryable: false }));
}

/**
 * A charge that landed after the row was settled without it. If the row was
 * completed (by someone who took the same charge key), the charge pays for that
 * label. Otherwise nothing was bought with it, so it goes back, under the one
 * refund key of the label, which payments takes at most once.
 */
async function giveBackLateCharge(deps: CreateLabelDeps, label: LabelRecord): Promise<FulfilOutcome> {
  const now = await settledOutcome(deps, label.id);
  if (now.kind === 'completed') return now;
  try {
    await deps.ledger.refund({
      userId: label.userId,
      amountCents: label.priceCents,
      key: refundKeyFor(label.id),
      chargeKey: label.chargeKey,
      memo: `Refund of label ${label.id}, charged after it was settled`,
    });
  } catch (err) {
    // Nothing on the row asks for this refund again: whoever settled it found no charge.
    deps.logger.error({ err, labelId: label.id }, 'a charge taken after its label was settled could not be refunded');
    throw err;
  }
  await deps.labels.markRefunded(label.id);
  return settledOutcome(deps, label.id);
}
