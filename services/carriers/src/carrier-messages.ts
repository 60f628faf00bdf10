import type { CarrierRefusal } from './port';

/**
 * Every refusal a carrier adapter gives, in one place: what the customer reads, and whether trying the same
 * request again could help. Adapters map their carrier's error codes onto these; a carrier's own words, JSON or
 * stack traces never reach a user (they go to the log).
 */
export const CARRIER_ERRORS = {
  /** An address is missing a part the carrier needs. */
  ADDRESS_INCOMPLETE: {
    retryable: false,
    message: (role: 'sender' | 'recipient') => `Address validation failed: the ${role} address is incomplete.`,
  },
  ADDRESS_ZIP_INVALID: {
    retryable: false,
    message: (role: 'sender' | 'recipient', zip: string) =>
      `Address validation failed: the ${role} ZIP code ${zip} is not a valid US ZIP code.`,
  },
  /** The carrier cannot deliver to the address as given. */
  ADDRESS_UNDELIVERABLE: {
    retryable: false,
    message: (role: 'sender' | 'recipient') => `Address validation failed: the ${role} address could not be verified.`,
  },
  WEIGHT_INVALID: {
    retryable: false,
    message: (weight: number) => `Invalid weight: ${weight} is not a parcel weight.`,
  },
  /** A side of the parcel is not a length (0, negative, not a number). */
  DIMENSIONS_INVALID: {
    retryable: false,
    message: () => 'Invalid package size: every side must be more than 0 inches.',
  },
  WEIGHT_LIMIT: {
    retryable: false,
    message: (service: string, maxLb: number, weight: string) =>
      `Weight limit exceeded: ${service} accepts parcels up to ${maxLb} lb; this one weighs ${weight}.`,
  },
  SERVICE_UNKNOWN: {
    retryable: false,
    message: (service: string, carrier: string) => `Unknown service ${service} for carrier ${carrier}`,
  },
  /** The carrier does not make label files in a format asked for. */
  FORMAT_UNSUPPORTED: {
    retryable: false,
    message: (format: string, carrier: string) => `${carrier} cannot make labels in the ${format} format.`,
  },
  /** The carrier refused the shipment for a reason of its own that the customer can act on. */
  DECLINED: {
    retryable: false,
    message: (carrier: string) =>
      `Label purchase declined: ${carrier} could not process this shipment. Please review it and try again.`,
  },
  /** The carrier did not answer in time, answered 5xx, or answered something unreadable. */
  UNAVAILABLE: {
    retryable: true,
    message: (carrier: string) => `${carrier} is not answering right now. Please try again in a few minutes.`,
  },
  /** Still throttled after the retries the adapter allows itself. */
  RATE_LIMITED: {
    retryable: true,
    message: (carrier: string) => `${carrier} is busy right now. Please try again in a few minutes.`,
  },
  /** The platform's credentials or payment account were refused: an operator's problem, not the customer's. */
  ACCOUNT_PROBLEM: {
    retryable: true,
    message: () => 'Labels cannot be bought right now. Our team has been told; please try again later.',
  },
  LABEL_RENDER_FAILED: {
    retryable: true,
    message: () => 'Label purchase failed: the label could not be generated. Please try again.',
  },
  /** A void asked for a label the carrier will not refund (used, scanned, or too old). */
  VOID_REJECTED: {
    retryable: false,
    message: (reason: string) => `The refund was refused: ${reason}`,
  },
  NOT_FOUND: {
    retryable: false,
    message: (what: string) => `${what} was not found at the carrier.`,
  },
  SCAN_FORM_REFUSED: {
    retryable: false,
    message: (reason: string) => `The SCAN form could not be made: ${reason}`,
  },
} as const;

/**
 * The reasons that travel inside an answer rather than as a refusal (a refund `rejected`, an address
 * `undeliverable`, a SCAN form refused), fit for the customer. Adapters pick one; a carrier's own words go to the log.
 */
export const CARRIER_REASONS = {
  /** The carrier turned the refund down (USPS: the label was scanned or used, or asked for too late). */
  refundRefused: (carrier: string) =>
    `${carrier} did not accept the refund; the label may already have been used or scanned, or be too old to refund.`,
  /** The label cannot be refunded through the carrier at all (billed on scan, nothing was charged up front). */
  refundNotApplicable: (carrier: string) => `${carrier} does not refund this label.`,
  /** A refund was asked for a label that was never bought. */
  refundNothingBought: () => 'This label was never bought, so there is nothing to refund.',
  addressNotFound: () => 'The address was not found.',
  houseNumberMissing: () => 'The house number is missing.',
  houseNumberInvalid: () => 'The house number does not exist on this street.',
  streetNotFound: () => 'The street was not found in this city and ZIP code.',
  unitMissing: () => 'The apartment, suite or unit number is missing.',
  unitInvalid: () => 'The apartment, suite or unit number is not valid at this address.',
  addressUnverified: () => 'The address could not be verified.',
  scanFormLabelUnknown: (carrier: string) => `a label in it was not bought through ${carrier}.`,
  scanFormMixedOrigins: () => 'its labels were not all sent from the same address.',
  scanFormLabelTaken: () =>
    'a label in it cannot go on this form (sent from another address, already on a form, refunded, or dated later).',
  scanFormNoLabels: () => 'it lists no labels.',
  scanFormFailed: (carrier: string) => `${carrier} could not make the form.`,
  // The USPS carrier's, by the kind of answer USPS gave.
  ADDRESS_NOT_FOUND: 'The carrier has no record of this address. Please check the street, city and ZIP code.',
  ADDRESS_AMBIGUOUS:
    'More than one address matches. Please add the apartment, suite or unit number, or check the street.',
  ADDRESS_CITY_STATE: 'The city, state and ZIP code do not match. Please check them.',
  ADDRESS_INSUFFICIENT: 'The address is missing information needed to find it. Please check the street and city.',
  ADDRESS_SECONDARY_MISSING: 'The address needs an apartment, suite or unit number.',
  ADDRESS_SECONDARY_UNCONFIRMED: 'The apartment, suite or unit number could not be confirmed. Please check it.',
  ADDRESS_NOT_DELIVERABLE: 'The carrier does not deliver to this address.',
  REFUND_NOT_ELIGIBLE: 'the label can no longer be refunded (it may have been used, scanned or be too old).',
  REFUND_LABEL_UNKNOWN: 'the carrier has no record of this label.',
  SCAN_FORM_LABELS_INELIGIBLE:
    'some labels cannot go on a SCAN form (already on one, already sent to the carrier, or not from this account).',
  SCAN_FORM_NO_LABELS: 'there are no labels to put on it.',
} as const;

export type CarrierErrorCode = keyof typeof CARRIER_ERRORS;

type MessageArgs<C extends CarrierErrorCode> = Parameters<(typeof CARRIER_ERRORS)[C]['message']>;

/** A refusal from the catalogue. */
export function refusal<C extends CarrierErrorCode>(code: C, ...args: MessageArgs<C>): CarrierRefusal {
  const entry = CARRIER_ERRORS[code];
  const message = (entry.message as (...a: MessageArgs<C>) => string)(...args);
  return { ok: false, message, retryable: entry.retryable, code };
}
