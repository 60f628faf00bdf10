import {
  type BulkRow,
  bulkRowProblems,
  fromBulkOrderItem,
  fromOrderCreateBody,
  normalizeBulkRow,
  type RowRules,
  weightUnitProblem,
} from '@flatship/order-files/rows';
import { type BulkOrderItem, DEFAULT_COURIER, type OrderCreateBody } from '@flatship/proto';

/**
 * What the carrier needs from one shipment. Whether a shipment is valid is decided by the
 * shared row rules of order-files (`bulkRowProblems`), the same the browser runs on the bulk
 * table and the single-label form: a single label and every bulk row are read into a row
 * (`fromOrderCreateBody`, `fromBulkOrderItem`) and judged there. This only turns a valid row
 * into the shipment stored and sent to the carrier.
 */

/** When the composition root names no enabled carriers (tests), a row's courier must be the default one. */
export const LABEL_CARRIERS: readonly string[] = [DEFAULT_COURIER];

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

export interface ValidateOptions extends Required<Pick<RowRules, 'carriers' | 'serviceMissingMessage'>> {
  /** The wire's `package_weight_unit`: the rows hold pounds, so only pounds (or nothing) is taken. */
  weightUnit?: unknown;
}

const optional = <K extends string>(key: K, value: string): { [P in K]?: string } =>
  (value ? { [key]: value } : {}) as { [P in K]?: string };

/** Every problem of the row (the shared rules), or the shipment it describes. */
export function validateShipment(row: BulkRow, opts: ValidateOptions): ShipmentValidation {
  const errors = bulkRowProblems(row, opts).map((p) => p.message);
  const unitProblem = weightUnitProblem(opts.weightUnit);
  if (unitProblem) errors.push(unitProblem);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, shipment: toShipment(normalizeBulkRow(row)) };
}

/** The single-label form's wording for a missing service (it has no service column). */
export const SERVICE_MISSING_MESSAGE = 'Please select a service';

/** A single-label order (POST /api/orders/v2), judged as a row. */
export function validateOrderBody(body: OrderCreateBody, carriers: readonly string[] = LABEL_CARRIERS) {
  return validateShipment(fromOrderCreateBody(body), {
    carriers,
    serviceMissingMessage: SERVICE_MISSING_MESSAGE,
    weightUnit: body.package.package_weight_unit,
  });
}

/** Row `index` of a bulk order, judged as the table judged it. */
export function validateBulkItem(
  item: BulkOrderItem,
  index: number,
  opts: { carriers?: readonly string[]; serviceMissingMessage: string },
) {
  return validateShipment(fromBulkOrderItem(item, index), {
    carriers: opts.carriers ?? LABEL_CARRIERS,
    serviceMissingMessage: opts.serviceMissingMessage,
    weightUnit: item.package.package_weight_unit,
  });
}

/** A normalised row that passed the rules, as the carrier needs it. */
function toShipment(r: BulkRow): ValidShipment {
  const number = (v: number | null): number => {
    if (v === null) throw new Error('unreachable: a valid row has its sizes');
    return v;
  };
  return {
    serviceName: r.ServiceName,
    sender: {
      name: r.FromSenderName,
      ...optional('company', r.FromCompany),
      ...optional('phone', r.FromPhone),
      street1: r.FromStreet1,
      ...optional('street2', r.FromStreet2),
      city: r.FromCity,
      state: r.FromStateProvince,
      zip: r.FromZipPostal,
      country: 'US',
    },
    receiver: {
      name: r.ToRecipientName,
      ...optional('company', r.ToCompany),
      ...optional('phone', r.ToPhone),
      street1: r.ToStreet1,
      ...optional('street2', r.ToStreet2),
      city: r.ToCity,
      state: r.ToStateProvince,
      zip: r.ToZipPostal,
      country: 'US',
    },
    parcel: {
      length: number(r.PackageLength),
      width: number(r.PackageWidth),
      height: number(r.PackageHeight),
      weightLb: number(r.PackageWeight),
      ...optional('description', r.PackageDescription),
      quantity: number(r.quantity),
      ...optional('sku', r.skuNumber),
    },
  };
}

/** "City, ST 12345", as lists of labels show where one goes. */
export const placeOf = (a: Pick<ShipmentAddress, 'city' | 'state' | 'zip'>): string =>
  [a.city, [a.state, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
