import {
  type BulkOrderItem,
  type OrderCreateBody,
  DEFAULT_COURIER as PROTO_DEFAULT_COURIER,
  readDecimal,
} from '@flatship/proto';
import { normalizeCountry, normalizePhone, normalizeState, normalizeZip } from './states';

/** One shipment in the bulk table (spec doc 2 §3 "Bulk row"). Dimensions in inches, weight in pounds. */
export interface BulkRow {
  _id: string;
  orderId: string;
  orderItemId: string;
  skuNumber: string;
  quantity: number | null;
  courier: string;
  ServiceName: string;
  FromSenderName: string;
  FromCompany: string;
  FromPhone: string;
  FromStreet1: string;
  FromStreet2: string;
  FromCity: string;
  FromStateProvince: string;
  FromZipPostal: string;
  FromCountry: string;
  ToRecipientName: string;
  ToCompany: string;
  ToPhone: string;
  ToStreet1: string;
  ToStreet2: string;
  ToCity: string;
  ToStateProvince: string;
  ToZipPostal: string;
  ToCountry: string;
  PackageLength: number | null;
  PackageWidth: number | null;
  PackageHeight: number | null;
  PackageWeight: number | null;
  PackageDescription: string;
  PackageReference1: string;
  PackageReference2: string;
}

export type BulkRowTextField = {
  [K in keyof BulkRow]: BulkRow[K] extends string ? K : never;
}[keyof BulkRow];
export type BulkRowNumberField = 'quantity' | 'PackageLength' | 'PackageWidth' | 'PackageHeight' | 'PackageWeight';

/** The shared default courier as the bulk table and its files have always shown it (`USPS`); the server reads it regardless of case. */
export const DEFAULT_COURIER = PROTO_DEFAULT_COURIER.toUpperCase();
export const DEFAULT_COUNTRY = 'US';
export const WEIGHT_UNIT = 'LB';
const POUNDS = new Set(['', 'LB', 'LBS']);
export const WEIGHT_UNIT_MESSAGE = 'Weight must be given in pounds (LB)';

/** Rows hold pounds: a shipment sent on the wire may name pounds or no unit; anything else is refused. */
export function weightUnitProblem(unit: unknown): string | null {
  const read = typeof unit === 'string' ? unit.trim().toUpperCase() : unit == null ? '' : null;
  return read !== null && POUNDS.has(read) ? null : WEIGHT_UNIT_MESSAGE;
}
export const DEFAULT_QUANTITY = 1;

export function emptyBulkRow(id: string): BulkRow {
  return {
    _id: id,
    orderId: '',
    orderItemId: '',
    skuNumber: '',
    quantity: DEFAULT_QUANTITY,
    courier: DEFAULT_COURIER,
    ServiceName: '',
    FromSenderName: '',
    FromCompany: '',
    FromPhone: '',
    FromStreet1: '',
    FromStreet2: '',
    FromCity: '',
    FromStateProvince: '',
    FromZipPostal: '',
    FromCountry: DEFAULT_COUNTRY,
    ToRecipientName: '',
    ToCompany: '',
    ToPhone: '',
    ToStreet1: '',
    ToStreet2: '',
    ToCity: '',
    ToStateProvince: '',
    ToZipPostal: '',
    ToCountry: DEFAULT_COUNTRY,
    PackageLength: null,
    PackageWidth: null,
    PackageHeight: null,
    PackageWeight: null,
    PackageDescription: '',
    PackageReference1: '',
    PackageReference2: '',
  };
}

/**
 * A table cell or a wire value as a number: numbers stay, text in plain decimal notation is
 * read (proto's readDecimal), anything else (blank, 'abc', '12in', '0x10', '1e3', NaN,
 * Infinity) is null, which validation reports.
 */
export function parseNumberCell(v: unknown): number | null {
  const read = readDecimal(v);
  return typeof read === 'object' ? read.value : null;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/**
 * A number as sent: blank is null (`<Field> is required`); anything else that is not a plain
 * decimal is NaN, which the rules name as not a positive number rather than as missing.
 */
const wireNumber = (v: unknown): number | null => {
  if (text(v).trim() === '' && typeof v !== 'number') return null;
  return parseNumberCell(v) ?? Number.NaN;
};

/** A ZIP sent as a number lost its leading zeros on the way (02134 → 2134); a US ZIP has five digits. */
const wireZip = (v: unknown): string =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? String(v).padStart(5, '0') : text(v);

// A spreadsheet cell may wrap onto several lines (Alt+Enter in Excel); on a label and in the
// results file every field is one line, and the server refuses tabs and line breaks in them.
const LINE_BREAKS = /\s*[\t\n\r\u2028\u2029]\s*/g;
const LINE_BREAK = /[\t\n\r\u2028\u2029]/;

/** Trimmed, the line breaks inside (and the spaces around them) one space each. */
function oneLine(value: string): string {
  const trimmed = value.trim();
  return LINE_BREAK.test(trimmed) ? trimmed.replace(LINE_BREAKS, ' ') : trimmed;
}

/**
 * The row as it will be stored and sent: text trimmed and on one line, states as two-letter
 * codes, the default country, phones and ZIP+4 in their canonical form. Validation judges this form.
 */
export function normalizeBulkRow(row: BulkRow): BulkRow {
  const out = { ...row };
  const fields = out as unknown as Record<string, unknown>;
  for (const key in fields) {
    const value = fields[key];
    if (typeof value === 'string') fields[key] = oneLine(value);
  }
  out.courier = out.courier || DEFAULT_COURIER;
  out.FromStateProvince = normalizeState(out.FromStateProvince);
  out.ToStateProvince = normalizeState(out.ToStateProvince);
  out.FromCountry = normalizeCountry(out.FromCountry);
  out.ToCountry = normalizeCountry(out.ToCountry);
  out.FromZipPostal = normalizeZip(out.FromZipPostal);
  out.ToZipPostal = normalizeZip(out.ToZipPostal);
  out.FromPhone = normalizePhone(out.FromPhone);
  out.ToPhone = normalizePhone(out.ToPhone);
  return out;
}

/** The bulk order item the browser sends (spec doc 2 §3), from the normalised row; the picked service wins. */
export function toBulkOrderItem(row: BulkRow, serviceName: string): BulkOrderItem {
  const r = normalizeBulkRow(row);
  return {
    courier: r.courier,
    service_name: serviceName.trim() || r.ServiceName,
    manifested: false,
    sender: {
      order_id: r.orderId,
      sender_name: r.FromSenderName,
      sender_phone: r.FromPhone,
      sender_company: r.FromCompany,
      sender_address1: r.FromStreet1,
      sender_address2: r.FromStreet2,
      sender_city: r.FromCity,
      sender_state_province: r.FromStateProvince,
      sender_zip_postal: r.FromZipPostal,
      sender_country: r.FromCountry,
    },
    receiver: {
      receiver_name: r.ToRecipientName,
      receiver_phone: r.ToPhone,
      receiver_company: r.ToCompany,
      receiver_address1: r.ToStreet1,
      receiver_address2: r.ToStreet2,
      receiver_city: r.ToCity,
      receiver_state_province: r.ToStateProvince,
      receiver_zip_postal: r.ToZipPostal,
      receiver_country: r.ToCountry,
    },
    package: {
      order_item_id: r.orderItemId,
      quantity: r.quantity ?? DEFAULT_QUANTITY,
      sku_number: r.skuNumber,
      package_length: r.PackageLength,
      package_width: r.PackageWidth,
      package_height: r.PackageHeight,
      package_weight: r.PackageWeight,
      package_weight_unit: WEIGHT_UNIT,
      package_description: r.PackageDescription,
      package_reference1: r.PackageReference1,
      package_reference2: r.PackageReference2,
    },
  };
}

/**
 * The row a received item describes, without normalising it, so the server validates what
 * was sent. Numbers sent as text are parsed; a blank quantity is the default 1.
 */
export function fromBulkOrderItem(item: BulkOrderItem, index: number): BulkRow {
  const s = item.sender;
  const r = item.receiver;
  const p = item.package;
  const quantityText = text(p.quantity).trim();
  return {
    _id: `row-${index + 1}`,
    orderId: text(s.order_id),
    orderItemId: text(p.order_item_id),
    skuNumber: text(p.sku_number),
    quantity: quantityText === '' ? DEFAULT_QUANTITY : wireNumber(p.quantity),
    courier: item.courier ?? DEFAULT_COURIER,
    ServiceName: item.service_name,
    FromSenderName: text(s.sender_name),
    FromCompany: text(s.sender_company),
    FromPhone: text(s.sender_phone),
    FromStreet1: text(s.sender_address1),
    FromStreet2: text(s.sender_address2),
    FromCity: text(s.sender_city),
    FromStateProvince: text(s.sender_state_province),
    FromZipPostal: wireZip(s.sender_zip_postal),
    FromCountry: text(s.sender_country) || DEFAULT_COUNTRY,
    ToRecipientName: text(r.receiver_name),
    ToCompany: text(r.receiver_company),
    ToPhone: text(r.receiver_phone),
    ToStreet1: text(r.receiver_address1),
    ToStreet2: text(r.receiver_address2),
    ToCity: text(r.receiver_city),
    ToStateProvince: text(r.receiver_state_province),
    ToZipPostal: wireZip(r.receiver_zip_postal),
    ToCountry: text(r.receiver_country) || DEFAULT_COUNTRY,
    PackageLength: wireNumber(p.package_length),
    PackageWidth: wireNumber(p.package_width),
    PackageHeight: wireNumber(p.package_height),
    PackageWeight: wireNumber(p.package_weight),
    PackageDescription: text(p.package_description),
    PackageReference1: text(p.package_reference1),
    PackageReference2: text(p.package_reference2),
  };
}

/**
 * The row a single-label order describes (spec doc 1 §3), so one label is judged by the same
 * rules as a bulk row: reference1 is the form's Quantity (blank: the default 1) and reference2
 * its SKU Number. Nothing is normalised here either.
 */
export function fromOrderCreateBody(body: OrderCreateBody): BulkRow {
  const p = body.package;
  const quantityText = text(p.package_reference1).trim();
  return fromBulkOrderItem(
    {
      courier: body.courier,
      service_name: body.service_name,
      sender: { ...body.sender, order_id: null },
      receiver: body.receiver,
      package: {
        ...p,
        order_item_id: null,
        quantity: quantityText === '' ? null : p.package_reference1,
        sku_number: p.package_reference2,
        package_reference1: null,
        package_reference2: null,
      },
    },
    0,
  );
}
