import { type BulkRow, emptyBulkRow } from '../../bulk-row';
import { joinProblems, OrderFileError } from '../../errors';
import {
  cellAt,
  columnOf,
  columnsIn,
  type Grid,
  headerKey,
  isBlankRow,
  missingColumns,
  missingColumnsMessage,
  parseQuantity,
} from '../../grid';
import { normalizeCountry, normalizePhone, normalizeState, normalizeZip } from '../../states';
import { DETECT_SURE, type MappedRows } from '../types';

/**
 * Amazon's order reports are tab-delimited with no quoting at all: a `"` in a product name is
 * part of the name, so a CSV parser would swallow the rest of the row looking for the closing
 * quote. Splitting lines on line breaks and cells on tabs is therefore the exact format here.
 */
export function splitTabText(text: string): Grid {
  const lines = text.split(/\r?\n|\r/);
  const grid: Grid = { rows: [], rowNumbers: [] };
  lines.forEach((line, i) => {
    grid.rows.push(line.split('\t'));
    grid.rowNumbers.push(i + 1);
  });
  return grid;
}

/** Columns by header name: report versions add, drop and reorder columns, so positions mean nothing. */
const COLUMNS = {
  orderId: ['order-id'],
  orderItemId: ['order-item-id'],
  sku: ['sku'],
  productName: ['product-name'],
  recipientName: ['recipient-name'],
  address1: ['ship-address-1'],
  address2: ['ship-address-2'],
  address3: ['ship-address-3'],
  city: ['ship-city'],
  state: ['ship-state'],
  zip: ['ship-postal-code'],
  country: ['ship-country'],
  shipPhone: ['ship-phone-number'],
  buyerPhone: ['buyer-phone-number'],
  quantityToShip: ['quantity-to-ship'],
  quantityPurchased: ['quantity-purchased'],
  cancelRequested: ['is-buyer-requested-cancellation'],
} as const;

const REQUIRED: (keyof typeof COLUMNS)[] = ['orderId', 'recipientName', 'address1', 'city', 'state', 'zip'];

/** order-id and ship-address-1 together appear in no other format this module reads. */
export const isAmazonHeader = (keys: string[]): boolean =>
  keys.includes(headerKey('order-id')) && keys.includes(headerKey('ship-address-1'));

const isFilled = (cell: string): boolean => cell !== '';

/** The report's rows as bulk rows in file order, recipient side only; the caller adds the sender. */
export function amazonRowsFromGrid(grid: Grid): MappedRows {
  const headerIndex = grid.rows.findIndex((row) => !isBlankRow(row));
  if (headerIndex < 0) throw new OrderFileError('This file is empty');
  const keys = grid.rows[headerIndex]!.map(headerKey);
  const col = columnsIn(keys, COLUMNS);
  const missing = missingColumns(col, COLUMNS, REQUIRED);
  if (col.quantityToShip < 0 && col.quantityPurchased < 0) missing.push('quantity-to-ship');
  if (missing.length > 0) throw new OrderFileError(missingColumnsMessage(missing));

  const rows: BulkRow[] = [];
  const badQuantities: string[] = [];
  const cancelRequested = new Set<string>();
  for (let i = headerIndex + 1; i < grid.rows.length; i++) {
    const cells = grid.rows[i]!;
    if (isBlankRow(cells)) continue;
    const lineNumber = grid.rowNumbers[i]!;

    // quantity-to-ship is what is left after partial shipments; older reports only have quantity-purchased.
    const quantityColumn =
      col.quantityToShip >= 0 && cellAt(cells, col.quantityToShip) !== '' ? 'quantityToShip' : 'quantityPurchased';
    const quantity = parseQuantity(cellAt(cells, col[quantityColumn]));
    if (quantity === null) {
      badQuantities.push(`Row ${lineNumber}: ${COLUMNS[quantityColumn][0]} must be a whole number of at least 1`);
      continue;
    }
    // Amazon sometimes leaves address-1 blank (or holds a company in it) with the street in address-2.
    const lines = [cellAt(cells, col.address1), cellAt(cells, col.address2), cellAt(cells, col.address3)].filter(
      isFilled,
    );
    const row = emptyBulkRow(`r${rows.length + 1}`);
    row.orderId = cellAt(cells, col.orderId);
    row.orderItemId = cellAt(cells, col.orderItemId);
    row.skuNumber = cellAt(cells, col.sku);
    row.quantity = quantity;
    row.PackageDescription = cellAt(cells, col.productName);
    row.PackageReference1 = row.orderId;
    row.ToRecipientName = cellAt(cells, col.recipientName);
    row.ToPhone = normalizePhone(cellAt(cells, col.shipPhone) || cellAt(cells, col.buyerPhone));
    row.ToStreet1 = lines.shift() ?? '';
    row.ToStreet2 = lines.join(', ');
    row.ToCity = cellAt(cells, col.city);
    row.ToStateProvince = normalizeState(cellAt(cells, col.state));
    row.ToZipPostal = normalizeZip(cellAt(cells, col.zip));
    row.ToCountry = normalizeCountry(cellAt(cells, col.country));
    rows.push(row);
    if (cellAt(cells, col.cancelRequested).toLowerCase() === 'true') cancelRequested.add(row.orderId);
  }
  if (badQuantities.length > 0) throw new OrderFileError(joinProblems(badQuantities));
  const warnings: string[] = [];
  if (cancelRequested.size > 0) {
    warnings.push(
      `The buyer asked to cancel order(s) ${joinProblems([...cancelRequested], 10)}: check before shipping.`,
    );
  }
  return { rows, warnings };
}

/** DETECT_SURE for an Amazon header (the first filled row), else how many of Amazon's columns it names. */
export function amazonScore(headerRows: readonly string[][]): number {
  const header = headerRows.find((row) => !isBlankRow(row));
  if (!header) return 0;
  const keys = header.map(headerKey);
  if (isAmazonHeader(keys)) return DETECT_SURE;
  return Object.values(COLUMNS).filter((names) => columnOf(keys, names) >= 0).length;
}
