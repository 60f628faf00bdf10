import { type DecimalRule, isUsState, NUMBER_RULES, PHONE_PATTERN, parseDecimal, ZIP_PATTERN } from '@flatship/proto';

/**
 * The server-side rules for one shipment, shared by single labels and every
 * row of a bulk order. Pure: takes the wire shape, returns either a
 * normalised shipment or every problem found, each a sentence a user can act on.
 */

export const MAX_TEXT = 200;
/** USPS's longest side for any domestic parcel, in inches. */
export const MAX_DIMENSION_IN = NUMBER_RULES.parcelDimensionIn.max;

type Text = string | null | undefined;
type Numeric = number | string | null | undefined;

export interface SenderInput {
  sender_name?: Text;
  sender_phone?: Text;
  sender_company?: Text;
  sender_address1?: Text;
  sender_address2?: Text;
  sender_city?: Text;
  sender_state_province?: Text;
  sender_zip_postal?: Numeric;
  sender_country?: Text;
}

export interface ReceiverInput {
  receiver_name?: Text;
  receiver_phone?: Text;
  receiver_company?: Text;
  receiver_address1?: Text;
  receiver_address2?: Text;
  receiver_city?: Text;
  receiver_state_province?: Text;
  receiver_zip_postal?: Numeric;
  receiver_country?: Text;
}

export interface PackageInput {
  package_length?: Numeric;
  package_width?: Numeric;
  package_height?: Numeric;
  package_weight?: Numeric;
  package_weight_unit?: Text;
  package_description?: Text;
  /** Quantity. */
  package_reference1?: Numeric;
  /** SKU. */
  package_reference2?: Text;
}

export interface ShipmentInput {
  service_name?: Text;
  courier?: Text;
  sender: SenderInput;
  receiver: ReceiverInput;
  package: PackageInput;
}

export interface ShipmentAddress {
  name: string;
  company?: string;
  phone?: string;
  street1: string;
  street2?: string;
  city: string;
  state: string;
  zip: string;
  country: 'US';
}

export interface ShipmentParcel {
  length: number;
  width: number;
  height: number;
  weightLb: number;
  description?: string;
  quantity?: number;
  sku?: string;
}

export interface ValidShipment {
  serviceName: string;
  sender: ShipmentAddress;
  receiver: ShipmentAddress;
  parcel: ShipmentParcel;
}

export type ShipmentValidation = { ok: true; shipment: ValidShipment } | { ok: false; errors: string[] };

export interface ValidateOptions {
  /** The single-label form and the bulk screen word a missing service differently. */
  serviceMissingMessage?: string;
}

const US_COUNTRY = new Set(['US', 'USA', 'UNITED STATES']);
const POUNDS = new Set(['LB', 'LBS']);

function text(v: unknown): string {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return '';
}

const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

function checkAddress(
  side: 'Sender' | 'Recipient',
  raw: {
    name: unknown;
    phone: unknown;
    company: unknown;
    address1: unknown;
    address2: unknown;
    city: unknown;
    state: unknown;
    zip: unknown;
    country: unknown;
  },
  errors: string[],
): ShipmentAddress {
  const field = (label: string, v: unknown, required: boolean): string => {
    const s = text(v);
    if (required && !s) errors.push(`${side} ${label} is required`);
    else if (s.length > MAX_TEXT) errors.push(`${side} ${label} must be at most ${MAX_TEXT} characters`);
    return s;
  };
  const name = field('name', raw.name, true);
  const street1 = field('street', raw.address1, true);
  const street2 = field('street line 2', raw.address2, false);
  const company = field('company', raw.company, false);
  const city = field('city', raw.city, true);

  const phone = field('phone', raw.phone, false);
  if (phone && !PHONE_PATTERN.test(phone)) {
    errors.push(`${side} phone may contain only digits, spaces and hyphens, with an optional leading +`);
  }

  const state = text(raw.state).toUpperCase();
  if (!state) errors.push(`${side} state is required`);
  else if (!isUsState(state)) errors.push(`${side} state must be a US state (two-letter code)`);

  // Spreadsheets turn ZIPs into numbers and drop leading zeros (02134 → 2134).
  let zip = typeof raw.zip === 'number' && Number.isInteger(raw.zip) ? String(raw.zip).padStart(5, '0') : text(raw.zip);
  if (!zip) errors.push(`${side} zip is required`);
  else if (!ZIP_PATTERN.test(zip)) {
    errors.push(`${side} zip must be a 5-digit ZIP code or ZIP+4`);
    zip = '';
  }

  const country = text(raw.country).toUpperCase();
  if (country && !US_COUNTRY.has(country)) errors.push('Only US addresses are supported');

  return {
    name,
    ...(company ? { company } : {}),
    ...(phone ? { phone } : {}),
    street1,
    ...(street2 ? { street2 } : {}),
    city,
    state,
    zip,
    country: 'US',
  };
}

/** A parcel number in plain decimal notation (proto's parseDecimal); 0 after a problem, which is reported. */
function checkMeasure(label: string, v: unknown, rule: DecimalRule, errors: string[]): number {
  // The spec's wording for a value that is not above 0 (doc 2 §5).
  const checked = parseDecimal(v, label, rule, { 'too-small': `${label} must be a positive number` });
  if (checked.ok) return checked.value;
  errors.push(checked.message);
  return 0;
}

export function validateShipment(input: ShipmentInput, opts: ValidateOptions = {}): ShipmentValidation {
  const errors: string[] = [];

  const serviceName = text(input.service_name);
  if (!serviceName) errors.push(opts.serviceMissingMessage ?? 'Please select a service');
  else if (serviceName.length > MAX_TEXT) errors.push(`Service name must be at most ${MAX_TEXT} characters`);

  const courier = text(input.courier).toLowerCase();
  if (courier && courier !== 'usps') errors.push('Only USPS labels are available');

  const s = input.sender ?? {};
  const sender = checkAddress(
    'Sender',
    {
      name: s.sender_name,
      phone: s.sender_phone,
      company: s.sender_company,
      address1: s.sender_address1,
      address2: s.sender_address2,
      city: s.sender_city,
      state: s.sender_state_province,
      zip: s.sender_zip_postal,
      country: s.sender_country,
    },
    errors,
  );
  const r = input.receiver ?? {};
  const receiver = checkAddress(
    'Recipient',
    {
      name: r.receiver_name,
      phone: r.receiver_phone,
      company: r.receiver_company,
      address1: r.receiver_address1,
      address2: r.receiver_address2,
      city: r.receiver_city,
      state: r.receiver_state_province,
      zip: r.receiver_zip_postal,
      country: r.receiver_country,
    },
    errors,
  );

  const p = input.package ?? {};
  const length = checkMeasure('Length', p.package_length, NUMBER_RULES.parcelDimensionIn, errors);
  const width = checkMeasure('Width', p.package_width, NUMBER_RULES.parcelDimensionIn, errors);
  const height = checkMeasure('Height', p.package_height, NUMBER_RULES.parcelDimensionIn, errors);
  // The ceiling is the chosen service's maxWeight, which only pricing knows; it refuses heavier parcels.
  const weightLb = checkMeasure('Weight', p.package_weight, NUMBER_RULES.parcelWeightLb, errors);

  const unit = text(p.package_weight_unit).toUpperCase();
  if (unit && !POUNDS.has(unit)) errors.push('Weight must be given in pounds (LB)');

  const description = text(p.package_description);
  if (description.length > MAX_TEXT) errors.push(`Description must be at most ${MAX_TEXT} characters`);
  const sku = text(p.package_reference2);
  if (sku.length > MAX_TEXT) errors.push(`SKU must be at most ${MAX_TEXT} characters`);

  let quantity: number | undefined;
  if (!isBlank(p.package_reference1)) {
    const q = parseDecimal(p.package_reference1, 'Quantity', NUMBER_RULES.quantity);
    if (!q.ok) errors.push('Quantity must be a whole number of at least 1');
    else quantity = q.value;
  }

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    shipment: {
      serviceName,
      sender,
      receiver,
      parcel: {
        length,
        width,
        height,
        weightLb,
        ...(description ? { description } : {}),
        ...(quantity !== undefined ? { quantity } : {}),
        ...(sku ? { sku } : {}),
      },
    },
  };
}
