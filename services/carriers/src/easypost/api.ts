// The parts of EasyPost's objects the adapter reads (https://docs.easypost.com/docs/shipments and the pages beside
// it), each field optional or nullable as the API reference shows it, and helpers that read them defensively: an
// answer is data from outside, so a missing or odd field is an unusable answer, never a crash.

export interface EpFieldError {
  /** Verification errors carry a code (`E.ADDRESS.NOT_FOUND`); the Error object's FieldError documents none. */
  code?: string;
  field?: string;
  message?: unknown;
  suggestion?: string | null;
}

/** https://docs.easypost.com/docs/errors: `{ error: { code, message, errors } }`. */
export interface EpError {
  code: string;
  message: string;
  /** "FieldError or string array … must be handled accordingly" (the Errors page). */
  errors: (EpFieldError | string)[];
}

export interface EpVerification {
  success?: boolean;
  errors?: (EpFieldError | string)[];
  details?: unknown;
}

export interface EpAddress {
  id?: string;
  name?: string | null;
  company?: string | null;
  street1?: string | null;
  street2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  country?: string | null;
  phone?: string | null;
  email?: string | null;
  residential?: boolean | null;
  verifications?: { delivery?: EpVerification | null; zip4?: EpVerification | null } | null;
}

export interface EpRate {
  id: string;
  carrier?: string;
  service?: string;
  /** Dollars as a decimal string ("8.20"). */
  rate?: string;
  currency?: string;
  carrier_account_id?: string;
}

export interface EpPostageLabel {
  label_url?: string | null;
  label_file_type?: string | null;
  label_pdf_url?: string | null;
  label_zpl_url?: string | null;
}

export interface EpMessage {
  carrier?: string;
  type?: string;
  message?: unknown;
}

export interface EpShipment {
  id: string;
  object?: string;
  mode?: string;
  reference?: string | null;
  tracking_code?: string | null;
  rates?: EpRate[] | null;
  selected_rate?: EpRate | null;
  postage_label?: EpPostageLabel | null;
  /** "submitted", "refunded", "rejected"; the Shipping Refund page adds "not_applicable". */
  refund_status?: string | null;
  messages?: EpMessage[] | null;
}

export interface EpScanForm {
  id: string;
  status?: string;
  message?: string | null;
  form_url?: string | null;
  tracking_codes?: string[] | null;
}

export interface EpTrackingDetail {
  message?: string | null;
  description?: string | null;
  status?: string | null;
  status_detail?: string | null;
  datetime?: string | null;
  tracking_location?: { city?: string | null; state?: string | null; zip?: string | null } | null;
}

export interface EpTracker {
  id?: string;
  tracking_code?: string | null;
  status?: string | null;
  est_delivery_date?: string | null;
  shipment_id?: string | null;
  tracking_details?: EpTrackingDetail[] | null;
}

export interface EpUser {
  id?: string;
  /** Wallet balance, dollars, "XX.XXXXX". */
  balance?: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A shipment as answered, or null when the answer is not one. */
export function asShipment(body: unknown): EpShipment | null {
  return isObject(body) && typeof body.id === 'string' && body.id.startsWith('shp_')
    ? (body as unknown as EpShipment)
    : null;
}

/**
 * EasyPost's error object from an error answer's body, or null when the body is not one (an HTML page from a
 * proxy, an empty body). `message` is documented as a string; the official Node client also walks it when it is an
 * object or array, so it is flattened here the same way.
 */
export function readEpError(text: string): EpError | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(body) || !isObject(body.error)) return null;
  const e = body.error;
  if (typeof e.code !== 'string') return null;
  return {
    code: e.code,
    message: flatten(e.message),
    errors: Array.isArray(e.errors) ? (e.errors as (EpFieldError | string)[]) : [],
  };
}

function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(flatten).join(', ');
  if (isObject(value)) return Object.values(value).map(flatten).join(', ');
  return value === undefined || value === null ? '' : String(value);
}

/** The field names an error or verification names, whether its entries are FieldError objects or strings. */
export function fieldsOf(errors: readonly (EpFieldError | string)[] | undefined): string[] {
  return (errors ?? []).flatMap((e) => (typeof e === 'string' ? [] : e.field ? [e.field] : []));
}

/** The codes in a list of field errors (verification errors carry them). */
export function codesOf(errors: readonly (EpFieldError | string)[] | undefined): string[] {
  return (errors ?? []).flatMap((e) => (typeof e === 'string' ? [] : e.code ? [e.code] : []));
}

/** For logs: EasyPost's own words about an error, flattened, never shown to a customer. */
export function describeEpErrors(errors: readonly (EpFieldError | string)[] | undefined): string[] {
  return (errors ?? []).map((e) =>
    typeof e === 'string' ? e : [e.field, e.code, flatten(e.message)].filter(Boolean).join(': '),
  );
}

/**
 * Dollars as EasyPost writes them ("8.20", "0.00000", "-3.5") to integer cents, rounded half away from zero at the
 * third decimal; null for anything else. No floating point: money stays exact.
 */
export function dollarsToCents(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) value = value.toFixed(5);
  if (typeof value !== 'string') return null;
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return null;
  const [, minus, whole, fraction = ''] = m;
  const digits = `${fraction}000`;
  let cents = Number(whole) * 100 + Number(digits.slice(0, 2));
  if (Number(digits[2]) >= 5) cents += 1;
  return minus && cents !== 0 ? -cents : cents;
}
