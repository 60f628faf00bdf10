import { randomUUID } from 'node:crypto';
import { AppError, isAppError, statusOf } from '@flatship/kit';
import { centsToDollars, type OrderCreateBody, type OrderCreateReply } from '@flatship/proto';
import { type FulfilDeps, fulfilLabel } from './fulfil-label';
import { MESSAGES } from './messages';
import type { LabelRecord, QuotePort } from './ports';
import { requestHash } from './request-hash';
import { validateShipment } from './validate-shipment';

export interface CreateLabelDeps extends FulfilDeps {
  quotes: QuotePort;
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

/** The answer the first request with this key got (or is still working on). */
function replay(label: LabelRecord): OrderCreateReply {
  if (label.status === 'completed') return createdReply(label);
  if (label.status === 'cancelled') {
    throw new AppError(label.errorCode ?? 'ORDERS_CARRIER_FAILED', label.error ?? MESSAGES.abandoned);
  }
  throw new AppError('ORDERS_IN_PROGRESS', MESSAGES.inProgress);
}

/**
 * A key seen before. A label bought under it is answered again, and so is a
 * refusal that a retry cannot change (the carrier refused this shipment). A
 * purchase that ended without a label for a reason that may pass (cut off and
 * settled by the reconciler, carrier unreachable, balance short) holds no money:
 * its key is handed to this request, which buys afresh (null). Still pending: 409.
 */
async function answerRetry(
  deps: CreateLabelDeps,
  earlier: LabelRecord,
  hash: string,
): Promise<OrderCreateReply | null> {
  assertSameRequest(earlier, hash);
  if (earlier.status !== 'cancelled' || !earlier.retryable) return replay(earlier);
  // Only one retry can take the key; any other is told the purchase is under way.
  if (!(await deps.labels.releaseIdempotencyKey(earlier.id))) {
    throw new AppError('ORDERS_IN_PROGRESS', MESSAGES.inProgress);
  }
  deps.logger.info({ labelId: earlier.id, errorCode: earlier.errorCode }, 'idempotency key buys afresh');
  return null;
}

/**
 * Buys one label: validate, price on the server, record the row, charge,
 * buy from the carrier, store the PDF. Money never moves without a row that
 * says why, and a label that was not bought is refunded.
 */
export async function createLabel(deps: CreateLabelDeps, input: CreateLabelInput): Promise<OrderCreateReply> {
  const checked = validateShipment(input.body);
  if (!checked.ok) throw new AppError('ORDERS_INVALID', checked.errors[0] ?? 'The order is not valid');
  const { shipment } = checked;

  const hash = requestHash(input.body);
  if (input.idempotencyKey) {
    const earlier = await deps.labels.findByIdempotencyKey(input.userId, input.idempotencyKey);
    if (earlier) {
      const answer = await answerRetry(deps, earlier, hash);
      if (answer) return answer;
    }
  }

  // Whatever price the client sent is ignored: this is the price charged.
  const [quote] = await deps.quotes.quote(input.userId, [
    { serviceName: shipment.serviceName, weightLb: shipment.parcel.weightLb },
  ]);
  if (!quote) throw new AppError('INTERNAL', 'pricing returned no quote');

  const id = randomUUID();
  const inserted = await deps.labels.insertPending({
    id,
    userId: input.userId,
    idempotencyKey: input.idempotencyKey,
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
  const label = inserted.label;

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
  await deps.labels.markCharged(label.id);

  const outcome = await fulfilLabel(deps, label, { keepRetryable: false });
  if (outcome.kind === 'completed') return createdReply(outcome.label);
  throw new AppError(outcome.errorCode, outcome.message);
}
