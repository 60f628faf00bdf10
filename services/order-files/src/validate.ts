import { isUsState, PHONE_PATTERN, ZIP_PATTERN } from '@flatship/proto';
import { type BulkRow, type BulkRowNumberField, type BulkRowTextField, normalizeBulkRow } from './bulk-row';
import { isRecipientState } from './states';

export const SERVICE_REQUIRED_MESSAGE = 'Service name must be selected from the dropdown';

interface Side {
  label: 'Sender' | 'Recipient';
  name: BulkRowTextField;
  phone: BulkRowTextField;
  street: BulkRowTextField;
  city: BulkRowTextField;
  state: BulkRowTextField;
  zip: BulkRowTextField;
  country: BulkRowTextField;
  isState: (code: string) => boolean;
}

const SIDES: Side[] = [
  {
    label: 'Sender',
    name: 'FromSenderName',
    phone: 'FromPhone',
    street: 'FromStreet1',
    city: 'FromCity',
    state: 'FromStateProvince',
    zip: 'FromZipPostal',
    country: 'FromCountry',
    isState: isUsState,
  },
  {
    label: 'Recipient',
    name: 'ToRecipientName',
    phone: 'ToPhone',
    street: 'ToStreet1',
    city: 'ToCity',
    state: 'ToStateProvince',
    zip: 'ToZipPostal',
    country: 'ToCountry',
    isState: isRecipientState,
  },
];

const PACKAGE: [BulkRowNumberField, string][] = [
  ['PackageLength', 'Length'],
  ['PackageWidth', 'Width'],
  ['PackageHeight', 'Height'],
  ['PackageWeight', 'Weight'],
];

/**
 * Every problem of one row, in column order, as the user reads them in the 'Validation
 * Errors' modal. The server runs the same function on what it receives.
 */
export function validateBulkRow(row: BulkRow): string[] {
  const r = normalizeBulkRow(row);
  const errors: string[] = [];
  for (const side of SIDES) {
    const required = (field: BulkRowTextField, label: string): boolean => {
      if (r[field] !== '') return true;
      errors.push(`${label} is required`);
      return false;
    };
    required(side.name, `${side.label} name`);
    if (r[side.phone] !== '' && !PHONE_PATTERN.test(r[side.phone])) {
      errors.push(`${side.label} phone must contain only digits, spaces and hyphens, with an optional leading +`);
    }
    required(side.street, `${side.label} street`);
    required(side.city, `${side.label} city`);
    if (required(side.state, `${side.label} state`) && !side.isState(r[side.state])) {
      errors.push(`${side.label} state must be a US state`);
    }
    if (required(side.zip, `${side.label} zip`) && !ZIP_PATTERN.test(r[side.zip])) {
      errors.push(`${side.label} zip must be a 5-digit ZIP code or ZIP+4`);
    }
    if (r[side.country] !== 'US') errors.push(`${side.label} country must be US`);
  }
  for (const [field, label] of PACKAGE) {
    const value = r[field];
    if (value === null) errors.push(`${label} is required`);
    else if (!Number.isFinite(value) || value <= 0) errors.push(`${label} must be a positive number`);
  }
  if (r.quantity === null || !Number.isInteger(r.quantity) || r.quantity < 1) {
    errors.push('Quantity must be a whole number of at least 1');
  }
  return errors;
}

/**
 * The rows that have errors, by their index in `rows`. A missing service concerns the whole
 * order, so it is reported once, first, with rowIndex -1.
 */
export function validateBulkRows(rows: BulkRow[], serviceName: string): { rowIndex: number; errors: string[] }[] {
  const result: { rowIndex: number; errors: string[] }[] = [];
  if (serviceName.trim() === '') result.push({ rowIndex: -1, errors: [SERVICE_REQUIRED_MESSAGE] });
  rows.forEach((row, rowIndex) => {
    const errors = validateBulkRow(row);
    if (errors.length > 0) result.push({ rowIndex, errors });
  });
  return result;
}

/** The modal's summary line (spec doc 2 §2). */
export function summarizeValidation(n: number): string {
  return n === 1 ? '1 row has validation errors' : `${n} rows have validation errors`;
}

/** The warning after a file load (spec doc 2 §5), worded exactly as specified. */
export function fileValidationWarning(n: number): string {
  return `${n} row(s) have validation errors. Please check the table and fix them.`;
}
