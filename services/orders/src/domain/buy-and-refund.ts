import { isAppError } from '@flatship/kit';
import { MESSAGES } from './messages';
import type { CarrierLabelRequest, CarrierLabelResult, CarrierPort, DomainLogger, LedgerPort } from './ports';

// What every purchase shares, single label or bulk row: buying at the carrier, and giving a charge back once.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Buys one label, trying again after each pause in `carrierRetryDelaysMs` while the carrier fails in a way
 * that may pass; a refusal, or the last failure, is the answer. A carrier that could not be reached counts as
 * such a failure: whether it bought the label is unknown, and the request's idempotency key makes the next
 * try buy nothing new.
 */
export async function buyLabel(
  deps: { carrier: CarrierPort; logger: DomainLogger; carrierRetryDelaysMs?: number[] },
  labelId: string,
  request: CarrierLabelRequest,
): Promise<CarrierLabelResult> {
  const delays = deps.carrierRetryDelaysMs ?? [];
  for (let attempt = 0; ; attempt++) {
    let result: CarrierLabelResult;
    try {
      result = await deps.carrier.purchaseLabel(request);
    } catch (err) {
      deps.logger.warn({ err, labelId }, 'carrier call failed');
      result = { ok: false, message: MESSAGES.carrierUnreachable, retryable: true };
    }
    if (result.ok || !result.retryable || attempt >= delays.length) return result;
    await sleep(delays[attempt] ?? 0);
  }
}

/** The refund key of a single label: one per label, so its charge comes back at most once. */
export const refundKeyFor = (labelId: string) => `refund:${labelId}`;

/**
 * Gives a charge back under `key`, which payments takes at most once, so calling again (a retry, a
 * redelivery, a reconciler finishing the job) moves no more money. False when payments knows no such charge
 * (it was never taken); any other failure is thrown and the caller leaves the refund for later.
 */
export async function refundCharge(
  deps: { ledger: LedgerPort },
  refund: { userId: string; amountCents: number; chargeKey: string; key: string; memo: string; adminId?: string },
): Promise<boolean> {
  try {
    await deps.ledger.refund(refund);
    return true;
  } catch (err) {
    if (isAppError(err) && err.code === 'PAYMENTS_CHARGE_NOT_FOUND') return false;
    throw err;
  }
}
