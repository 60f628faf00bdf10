import Papa from 'papaparse';
import {
  type BulkRow,
  type BulkRowNumberField,
  type BulkRowTextField,
  emptyBulkRow,
  parseNumberCell,
} from './bulk-row';
import { joinProblems, OrderFileError } from './errors';
import { columnOf, type Grid, headerKey, isBlankRow, missingColumnsMessage, parseQuantity } from './grid';
import { neutralizeCell, restoreCell } from './spreadsheet-cell';
import { normalizeCountry, normalizePhone, normalizeState, repairFileZip } from './states';

type Field = BulkRowTextField | BulkRowNumberField;

interface Column {
  header: string;
  field: Field;
  /** Other headers accepted for the column; the BulkRow key itself always is. */
  aliases?: string[];
}

/**
 * The project's bulk CSV template, one column per bulk-row field of spec doc 2 §3 that a file
 * supplies. _id, courier and ServiceName are left out: the table assigns ids, the courier starts
 * as the default one (the server records each label with the carrier of its service) and the
 * service is picked from the dropdown for the whole order.
 */
const COLUMNS: Column[] = [
  { header: 'Order ID', field: 'orderId', aliases: ['Order Number'] },
  { header: 'Order Item ID', field: 'orderItemId' },
  { header: 'SKU', field: 'skuNumber', aliases: ['SKU Number'] },
  { header: 'Quantity', field: 'quantity', aliases: ['Qty'] },
  { header: 'From Name', field: 'FromSenderName', aliases: ['Sender Name'] },
  { header: 'From Company', field: 'FromCompany', aliases: ['Sender Company'] },
  { header: 'From Phone', field: 'FromPhone', aliases: ['Sender Phone'] },
  { header: 'From Street 1', field: 'FromStreet1', aliases: ['From Street', 'Sender Street', 'Sender Address 1'] },
  { header: 'From Street 2', field: 'FromStreet2', aliases: ['Sender Street 2', 'Sender Address 2'] },
  { header: 'From City', field: 'FromCity', aliases: ['Sender City'] },
  { header: 'From State', field: 'FromStateProvince', aliases: ['Sender State'] },
  { header: 'From Zip', field: 'FromZipPostal', aliases: ['Sender Zip', 'From Zip Code'] },
  { header: 'From Country', field: 'FromCountry', aliases: ['Sender Country'] },
  { header: 'To Name', field: 'ToRecipientName', aliases: ['Recipient Name'] },
  { header: 'To Company', field: 'ToCompany', aliases: ['Recipient Company'] },
  { header: 'To Phone', field: 'ToPhone', aliases: ['Recipient Phone'] },
  { header: 'To Street 1', field: 'ToStreet1', aliases: ['To Street', 'Recipient Street', 'Recipient Address 1'] },
  { header: 'To Street 2', field: 'ToStreet2', aliases: ['Recipient Street 2', 'Recipient Address 2'] },
  { header: 'To City', field: 'ToCity', aliases: ['Recipient City'] },
  { header: 'To State', field: 'ToStateProvince', aliases: ['Recipient State'] },
  { header: 'To Zip', field: 'ToZipPostal', aliases: ['Recipient Zip', 'To Zip Code'] },
  { header: 'To Country', field: 'ToCountry', aliases: ['Recipient Country'] },
  { header: 'Length', field: 'PackageLength', aliases: ['L'] },
  { header: 'Width', field: 'PackageWidth', aliases: ['W'] },
  { header: 'Height', field: 'PackageHeight', aliases: ['H'] },
  { header: 'Weight', field: 'PackageWeight', aliases: ['Wt', 'Weight (lb)', 'Weight (lbs)'] },
  { header: 'Description', field: 'PackageDescription' },
  { header: 'Reference 1', field: 'PackageReference1' },
  { header: 'Reference 2', field: 'PackageReference2' },
];

export const TEMPLATE_HEADERS: readonly string[] = COLUMNS.map((c) => c.header);

/** Without these a file cannot describe a shipment; the sender may come from the saved address. */
const REQUIRED_FIELDS: Field[] = ['ToRecipientName', 'ToStreet1', 'ToCity', 'ToStateProvince', 'ToZipPostal'];

const SENDER_FIELDS: BulkRowTextField[] = [
  'FromSenderName',
  'FromCompany',
  'FromPhone',
  'FromStreet1',
  'FromStreet2',
  'FromCity',
  'FromStateProvince',
  'FromZipPostal',
];

const NUMBER_FIELDS = new Set<Field>(['PackageLength', 'PackageWidth', 'PackageHeight', 'PackageWeight']);

const cellOf = (row: BulkRow, field: Field): string => {
  const value = row[field];
  return value === null ? '' : String(value);
};

// The BOM makes Excel open the file as UTF-8, so accented names survive a double-click.
const BOM = '\uFEFF';

/** Every cell, header or value, goes through neutralizeCell: these files are opened in spreadsheets. */
function unparse(rows: readonly (readonly string[])[]): string {
  return `${BOM}${Papa.unparse(
    rows.map((row) => row.map(neutralizeCell)),
    { newline: '\r\n' },
  )}\r\n`;
}

/** The 'Bulk Template CSV' download: the header row only, so no sample row can be shipped by mistake. */
export function templateCsv(): string {
  return unparse([TEMPLATE_HEADERS]);
}

/** Rows in the template's columns (read back by readOrderFile), plus extra columns such as a results file's status. */
export function rowsToCsv(
  rows: BulkRow[],
  extra?: { headers: string[]; values: (row: BulkRow, i: number) => string[] },
): string {
  const headers = [...TEMPLATE_HEADERS, ...(extra?.headers ?? [])];
  const data = rows.map((row, i) => [...COLUMNS.map((c) => cellOf(row, c.field)), ...(extra?.values(row, i) ?? [])]);
  return unparse([headers, ...data]);
}

const DELIMITERS = [',', ';', '\t'] as const;

/**
 * The delimiter the header line uses most (commas win a tie), or Papa's guess when it names none. Judged on the
 * header because data cells may hold a delimiter unquoted: TikTok Shop ends ids and times with a literal tab, which
 * made Papa's guess (the most even field count over ten lines, a short file's blank last line included) pick tabs.
 */
function headerDelimiter(text: string): { delimiter: string } | { delimitersToGuess: string[] } {
  const header = /^[^\S\r\n]*\S[^\r\n]*/m.exec(text)?.[0] ?? '';
  let best: string | null = null;
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = header.split(d).length - 1;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best ? { delimiter: best } : { delimitersToGuess: [...DELIMITERS] };
}

/** Quotes, embedded commas and line breaks are the parser's job; semicolon and tab files from other locales are detected. */
export function parseCsvGrid(text: string): Grid {
  const body = text.replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(body, {
    header: false,
    skipEmptyLines: false,
    ...headerDelimiter(body),
  });
  const grid: Grid = { rows: [], rowNumbers: [] };
  parsed.data.forEach((row, i) => {
    // A file this product wrote (or a spreadsheet the user typed '= into) has text quoted as text.
    grid.rows.push(row.map(restoreCell));
    // Records, not lines: a quoted cell may span lines, and a spreadsheet shows it as one row.
    grid.rowNumbers.push(i + 1);
  });
  return grid;
}

/** Rows of a file in the template's format, in file order. */
export function templateRowsFromGrid(grid: Grid): BulkRow[] {
  const headerIndex = grid.rows.findIndex((row) => !isBlankRow(row));
  if (headerIndex < 0) throw new OrderFileError('This file is empty');
  const keys = grid.rows[headerIndex]!.map(headerKey);
  const indexes = COLUMNS.map((c) => ({ ...c, index: columnOf(keys, [c.header, c.field, ...(c.aliases ?? [])]) }));
  const missing = indexes.filter((c) => REQUIRED_FIELDS.includes(c.field) && c.index < 0).map((c) => c.header);
  if (missing.length > 0) {
    throw new OrderFileError(
      `${missingColumnsMessage(missing)}. Download the Bulk Template CSV for the expected headers`,
    );
  }

  const rows: BulkRow[] = [];
  const badQuantities: string[] = [];
  for (let i = headerIndex + 1; i < grid.rows.length; i++) {
    const cells = grid.rows[i]!;
    if (isBlankRow(cells)) continue;
    const row = emptyBulkRow(`r${rows.length + 1}`);
    const values = row as unknown as Record<Field, string | number | null>;
    for (const column of indexes) {
      if (column.index < 0) continue;
      const cell = (cells[column.index] ?? '').trim();
      if (column.field === 'quantity') {
        const quantity = parseQuantity(cell);
        if (quantity === null)
          badQuantities.push(`Row ${grid.rowNumbers[i]}: Quantity must be a whole number of at least 1`);
        values.quantity = quantity;
      } else if (NUMBER_FIELDS.has(column.field)) {
        values[column.field] = parseNumberCell(cell);
      } else {
        values[column.field] = cell;
      }
    }
    row.FromStateProvince = normalizeState(row.FromStateProvince);
    row.ToStateProvince = normalizeState(row.ToStateProvince);
    row.FromZipPostal = repairFileZip(row.FromZipPostal);
    row.ToZipPostal = repairFileZip(row.ToZipPostal);
    row.FromPhone = normalizePhone(row.FromPhone);
    row.ToPhone = normalizePhone(row.ToPhone);
    row.FromCountry = normalizeCountry(row.FromCountry);
    row.ToCountry = normalizeCountry(row.ToCountry);
    rows.push(row);
  }
  if (badQuantities.length > 0) throw new OrderFileError(joinProblems(badQuantities));
  return rows;
}

export const hasNoSender = (row: BulkRow): boolean => SENDER_FIELDS.every((field) => row[field] === '');

/** How many of the template's columns the first filled row names (at most 99: a marketplace's signature outranks it). */
export function templateScore(headerRows: readonly string[][]): number {
  const header = headerRows.find((row) => !isBlankRow(row));
  if (!header) return 0;
  const keys = header.map(headerKey);
  const named = COLUMNS.filter((c) => columnOf(keys, [c.header, c.field, ...(c.aliases ?? [])]) >= 0).length;
  return Math.min(named, 99);
}
