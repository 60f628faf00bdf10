import { CARRIER_REASONS, refusal } from '../carrier-messages';
import { CarrierHttpError } from '../http/carrier-http';
import type { CarrierRefusal } from '../port';
import { type EpError, fieldsOf } from './api';

/** The name customers know: EasyPost sells USPS postage here, so a refusal speaks of USPS. */
export const CUSTOMER_CARRIER = 'USPS';

/**
 * EasyPost answered 4xx (or 3xx) with, usually, its error object. Thrown inside the adapter and turned into a
 * refusal at its edge; its message names the operation and EasyPost's code, never the key or the request.
 */
export class EasyPostRefused extends Error {
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly ep: EpError | null,
  ) {
    super(`easypost ${operation}: HTTP ${status}${ep ? ` ${ep.code}` : ''}`);
    this.name = 'EasyPostRefused';
  }
  get code(): string {
    return this.ep?.code ?? '';
  }
}

/** EasyPost answered 2xx with something that is not what the call returns (no shipment, no label URL…). */
export class EasyPostUnusable extends Error {
  constructor(
    readonly operation: string,
    what: string,
  ) {
    super(`easypost ${operation}: ${what}`);
    this.name = 'EasyPostUnusable';
  }
}

/** What the adapter was doing, so a refusal can name the right thing. */
export interface RefusalContext {
  /** The parcel weight, for a parcel refusal. */
  weightLb?: number;
  /** The label format being made, for a conversion refusal. */
  format?: string;
  /** What a 404 was about ("The label", "Tracking number …"). */
  subject?: string;
}

// Codes from EasyPost's error list (https://docs.easypost.com/docs/errors, "List of Error Codes"; the same list as
// the official Node client's ErrorCode type). Families are matched by prefix so a new code in a known family lands
// with its kin; anything unknown is a plain decline, never shown in EasyPost's words.
const ACCOUNT_CODES = new Set([
  'UNAUTHORIZED',
  'FORBIDDEN',
  'PAYMENT_REQUIRED',
  'PAYMENT_GATEWAY.ERROR',
  'SHIPMENT.RATE.CARRIER_ACCOUNT_INVALID',
  'SHIPMENT.CARRIER_ACCOUNTS.CONFLICT',
]);
const ACCOUNT_PREFIXES = ['USER.', 'MODE.', 'CREDIT_CARD.', 'BANK_ACCOUNT.', 'BILLING.', 'CARRIER_ACCOUNT.', 'APIKEY'];
const ADDRESS_INCOMPLETE_CODES = new Set([
  'ADDRESS.VERIFY.MISSING_STREET',
  'ADDRESS.VERIFY.MISSING_CITY_STATE_ZIP',
  'ADDRESS.PARAMETERS.INVALID',
  'ADDRESS.PARAMETERS.INVALID_CHARACTER',
]);
const FORMAT_CODES = new Set([
  'SHIPMENT.POSTAGE.INVALID_FORMAT',
  'SHIPMENT.POSTAGE.FORMAT_UNAVAILABLE',
  'DOCUMENT.CONVERSION.FAILURE',
  'IMAGE.CONVERSION.FAILURE',
]);
/** A buy that may or may not have gone through: the shipment says which. */
export const UNCERTAIN_BUY_CODES = new Set([
  'SHIPMENT.POSTAGE.NO_RESPONSE',
  'SHIPMENT.PURCHASE.IN_PROGRESS',
  'SHIPMENT.POSTAGE.EXISTS',
]);

/** Sender or recipient, from the fields an error names (`from_address.zip`, `to_address`); recipient otherwise. */
function roleOf(ep: EpError | null): 'sender' | 'recipient' {
  const fields = fieldsOf(ep?.errors).join(' ') + (ep?.message ?? '');
  return /from_address|return_address|\bfrom\b|sender|origin/i.test(fields) ? 'sender' : 'recipient';
}

function scanFormReason(code: string): string {
  if (code === 'SCAN_FORM.SHIPMENTS.REQUIRED') return CARRIER_REASONS.scanFormNoLabels();
  if (code === 'SCAN_FORM.SHIPMENTS.INVALID') return CARRIER_REASONS.scanFormLabelTaken();
  if (code === 'SCAN_FORM.BATCH.MULTIPLE_CARRIERS') return CARRIER_REASONS.scanFormMixedOrigins();
  return CARRIER_REASONS.scanFormFailed(CUSTOMER_CARRIER);
}

/** An EasyPost 4xx answer as a refusal from the catalogue. */
export function refusalForAnswer(err: EasyPostRefused, ctx: RefusalContext = {}): CarrierRefusal {
  const code = err.code;
  if (
    err.status === 401 ||
    err.status === 402 ||
    err.status === 403 ||
    ACCOUNT_CODES.has(code) ||
    ACCOUNT_PREFIXES.some((p) => code.startsWith(p))
  ) {
    return refusal('ACCOUNT_PROBLEM');
  }
  if (err.status === 429) return refusal('RATE_LIMITED', CUSTOMER_CARRIER);
  if (ADDRESS_INCOMPLETE_CODES.has(code)) return refusal('ADDRESS_INCOMPLETE', roleOf(err.ep));
  if (code.startsWith('ADDRESS.')) return refusal('ADDRESS_UNDELIVERABLE', roleOf(err.ep));
  if (code.startsWith('PARCEL.') || code.startsWith('ITEM.WEIGHT')) return refusal('WEIGHT_INVALID', ctx.weightLb ?? 0);
  if (FORMAT_CODES.has(code)) return refusal('FORMAT_UNSUPPORTED', ctx.format ?? 'requested', CUSTOMER_CARRIER);
  if (code.startsWith('SCAN_FORM.')) return refusal('SCAN_FORM_REFUSED', scanFormReason(code));
  if (code.startsWith('TRACKER.') || err.status === 404 || code === 'NOT_FOUND') {
    return refusal('NOT_FOUND', ctx.subject ?? 'The item');
  }
  if (code.startsWith('SHIPMENT.REFUND.') || code.startsWith('REFUND.')) {
    return refusal('VOID_REJECTED', CARRIER_REASONS.refundRefused(CUSTOMER_CARRIER));
  }
  return refusal('DECLINED', CUSTOMER_CARRIER);
}

/**
 * Any failure of a call as a refusal: no answer, throttled past the retries, 5xx or an unreadable answer are
 * `UNAVAILABLE`/`RATE_LIMITED` (retryable); EasyPost's refusals go through `refusalForAnswer`. Anything else is a
 * programming error and is thrown again.
 */
export function refusalFor(err: unknown, ctx: RefusalContext = {}): CarrierRefusal {
  if (err instanceof EasyPostRefused) return refusalForAnswer(err, ctx);
  if (err instanceof EasyPostUnusable) return refusal('UNAVAILABLE', CUSTOMER_CARRIER);
  if (err instanceof CarrierHttpError) {
    return err.kind === 'rate_limited'
      ? refusal('RATE_LIMITED', CUSTOMER_CARRIER)
      : refusal('UNAVAILABLE', CUSTOMER_CARRIER);
  }
  throw err;
}
