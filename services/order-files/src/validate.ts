import {
  type DecimalProblem,
  type DecimalRule,
  isRecipientState,
  isUsState,
  NUMBER_RULES,
  PHONE_PATTERN,
  parseDecimal,
  textProblem,
  textProblemMessage,
  ZIP_PATTERN,
} from '@flatship/proto';
import { type BulkRow, type BulkRowNumberField, type BulkRowTextField, normalizeBulkRow } from './bulk-row';

export const SERVICE_REQUIRED_MESSAGE = 'Service name must be selected from the dropdown';

/** The longest text a field may hold; a label and the results file have no room for more. */
export const MAX_TEXT = 200;

/** What a row is judged against beyond its own cells. */
export interface RowRules {
  /**
   * The carrier ids the server buys labels from (`usps`). A row's courier, read from the row,
   * must be one of them, in any case; without the list the courier is not judged (the table
   * offers only the carriers the server named).
   */
  carriers?: readonly string[];
  /**
   * Judge the row's own service (`ServiceName`), saying this when it is blank. The table picks
   * one service for the whole order (validateBulkRows), so only the server asks for this.
   */
  serviceMissingMessage?: string;
}

/** `Only USPS labels are available`, for the carriers given. */
export function courierMessage(carriers: readonly string[]): string {
  return `Only ${carriers.map((c) => c.toUpperCase()).join(', ')} labels are available`;
}

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
  /** The side's messages, written once. */
  messages: SideMessages;
}

interface SideMessages {
  name: string;
  phone: string;
  street: string;
  city: string;
  stateRequired: string;
  state: string;
  zipRequired: string;
  zip: string;
  country: string;
}

function sideMessages(label: Side['label']): SideMessages {
  return {
    name: `${label} name is required`,
    phone: `${label} phone must contain only digits, spaces and hyphens, with an optional leading +`,
    street: `${label} street is required`,
    city: `${label} city is required`,
    stateRequired: `${label} state is required`,
    state: `${label} state must be a US state`,
    zipRequired: `${label} zip is required`,
    zip: `${label} zip must be a 5-digit ZIP code or ZIP+4`,
    country: `${label} country must be US`,
  };
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
    messages: sideMessages('Sender'),
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
    messages: sideMessages('Recipient'),
  },
];

/** Each size with its rule and the spec's wording for a blank, unreadable or non-positive value. */
const PACKAGE: [BulkRowNumberField, string, DecimalRule, Partial<Record<DecimalProblem, string>>][] = (
  [
    ['PackageLength', 'Length', NUMBER_RULES.parcelDimensionIn],
    ['PackageWidth', 'Width', NUMBER_RULES.parcelDimensionIn],
    ['PackageHeight', 'Height', NUMBER_RULES.parcelDimensionIn],
    ['PackageWeight', 'Weight', NUMBER_RULES.parcelWeightLb],
  ] as const
).map(([field, label, rule]) => {
  const positive = `${label} must be a positive number`;
  return [field, label, rule, { format: positive, 'too-small': positive }];
});

/**
 * How every text cell is named in messages, in column order. The server refuses the whole order
 * when one holds a character it cannot store (proto's textProblem), so the table flags the cell first.
 */
const TEXT_LABELS: [BulkRowTextField, string][] = [
  ['orderId', 'Order ID'],
  ['orderItemId', 'Order item ID'],
  ['skuNumber', 'SKU'],
  ...SIDES.flatMap((side): [BulkRowTextField, string][] => {
    const p = side.label === 'Sender' ? 'From' : 'To';
    return [
      [side.name, `${side.label} name`],
      [side.phone, `${side.label} phone`],
      [`${p}Company` as BulkRowTextField, `${side.label} company`],
      [side.street, `${side.label} street`],
      [`${p}Street2` as BulkRowTextField, `${side.label} street 2`],
      [side.city, `${side.label} city`],
      [side.state, `${side.label} state`],
      [side.zip, `${side.label} zip`],
      [side.country, `${side.label} country`],
    ];
  }),
  ['PackageDescription', 'Description'],
  ['PackageReference1', 'Reference 1'],
  ['PackageReference2', 'Reference 2'],
];

/** Where each cell's problems are listed: the table's column order, quantity after the sizes as before. */
const FIELD_ORDER: readonly (keyof BulkRow)[] = [
  'ServiceName',
  'courier',
  ...TEXT_LABELS.slice(0, -3).map(([field]) => field),
  ...PACKAGE.map(([field]) => field),
  'quantity',
  ...TEXT_LABELS.slice(-3).map(([field]) => field),
];
const rank = (field: keyof BulkRow) => FIELD_ORDER.indexOf(field);

/**
 * A marketplace that hides the buyer until an order may ship (TikTok Shop: `J*** D***`, `(+1)312****54`) exports
 * asterisks where the recipient's details are; a label must never be bought to them.
 */
const MASKED = /\*{2,}/;
const MASKABLE: [BulkRowTextField, string][] = [
  ['ToRecipientName', 'Recipient name'],
  ['ToPhone', 'Recipient phone'],
  ['ToStreet1', 'Recipient street'],
  ['ToStreet2', 'Recipient street 2'],
  ['ToZipPostal', 'Recipient zip'],
];
const maskedMessage = (label: string, value: string): string =>
  `${label} is masked by the marketplace (${value.trim()}): export the order after it is ready to ship, or enter it`;

/** One problem of a row: the cell it belongs to and the message the user reads. */
export interface BulkRowProblem {
  field: keyof BulkRow;
  message: string;
}

/**
 * Every problem of one row with the cell it belongs to, in column order. A cell whose text
 * the server would refuse gets only that problem. The server runs the same rules on what it receives.
 */
export function bulkRowProblems(row: BulkRow, rules: RowRules = {}): BulkRowProblem[] {
  const r = normalizeBulkRow(row);
  const problems: BulkRowProblem[] = [];
  // The cells whose text the server would refuse: they get only that problem.
  let badText: Set<keyof BulkRow> | undefined;
  for (const [field, label] of TEXT_LABELS) {
    const value = r[field];
    const problem = textProblem(value);
    if (problem) {
      badText ??= new Set();
      badText.add(field);
      problems.push({ field, message: textProblemMessage(label, problem) });
    } else if (value.length > MAX_TEXT) {
      badText ??= new Set();
      badText.add(field);
      problems.push({ field, message: `${label} must be at most ${MAX_TEXT} characters` });
    }
  }
  for (const [field, label] of MASKABLE) {
    if (badText?.has(field) || !MASKED.test(r[field])) continue;
    badText ??= new Set();
    badText.add(field);
    problems.push({ field, message: maskedMessage(label, row[field]) });
  }
  const { carriers, serviceMissingMessage } = rules;
  if (serviceMissingMessage !== undefined) {
    const problem = textProblem(r.ServiceName);
    if (problem) report(problems, badText, 'ServiceName', textProblemMessage('Service name', problem));
    else if (r.ServiceName === '') report(problems, badText, 'ServiceName', serviceMissingMessage);
    else if (r.ServiceName.length > MAX_TEXT) {
      report(problems, badText, 'ServiceName', `Service name must be at most ${MAX_TEXT} characters`);
    }
  }
  if (carriers && !carriers.some((c) => c.toLowerCase() === r.courier.toLowerCase())) {
    report(problems, badText, 'courier', courierMessage(carriers));
  }
  for (const side of SIDES) {
    const m = side.messages;
    required(r, problems, badText, side.name, m.name);
    if (r[side.phone] !== '' && !PHONE_PATTERN.test(r[side.phone])) report(problems, badText, side.phone, m.phone);
    required(r, problems, badText, side.street, m.street);
    required(r, problems, badText, side.city, m.city);
    if (required(r, problems, badText, side.state, m.stateRequired) && !side.isState(r[side.state])) {
      report(problems, badText, side.state, m.state);
    }
    if (required(r, problems, badText, side.zip, m.zipRequired) && !ZIP_PATTERN.test(r[side.zip])) {
      report(problems, badText, side.zip, m.zip);
    }
    if (r[side.country] !== 'US') report(problems, badText, side.country, m.country);
  }
  for (const [field, label, rule, messages] of PACKAGE) {
    // Cells hold numbers already (parseNumberCell); a blank or unreadable one is null, and a value that
    // is not above 0 gets the spec's wording (doc 2 §5). Too many decimals and sizes over USPS's limit
    // are named as the server names them.
    const checked = parseDecimal(r[field], label, rule, messages);
    if (!checked.ok) report(problems, badText, field, checked.message);
  }
  if (!parseDecimal(r.quantity, 'Quantity', NUMBER_RULES.quantity).ok) {
    report(problems, badText, 'quantity', 'Quantity must be a whole number of at least 1');
  }
  // Stable: a cell's own problems keep the order they were found in.
  return problems.length > 1 ? problems.sort((a, b) => rank(a.field) - rank(b.field)) : problems;
}

/** Adds a problem unless the cell already has the one for text the server refuses. */
function report(
  problems: BulkRowProblem[],
  badText: Set<keyof BulkRow> | undefined,
  field: keyof BulkRow,
  message: string,
): void {
  if (!badText?.has(field)) problems.push({ field, message });
}

/** Whether the cell holds something; reports `<label> is required` when it does not. */
function required(
  r: BulkRow,
  problems: BulkRowProblem[],
  badText: Set<keyof BulkRow> | undefined,
  field: BulkRowTextField,
  message: string,
): boolean {
  if (r[field] !== '') return true;
  report(problems, badText, field, message);
  return false;
}

/**
 * Every problem of one row, in column order, as the user reads them in the 'Validation
 * Errors' modal. The server runs the same rules on what it receives.
 */
export function validateBulkRow(row: BulkRow, rules: RowRules = {}): string[] {
  return bulkRowProblems(row, rules).map((p) => p.message);
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
