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
import { normalizePhone, normalizeState, repairFileZip } from '../../states';
import { DETECT_SURE, type MappedRows } from '../types';

/** Columns of Walmart Seller Center's order export ("Po Details"), by header name. */
const COLUMNS = {
  po: ['PO#', 'PO Number', 'Purchase Order Number'],
  order: ['Order#', 'Order Number', 'Customer Order Number'],
  line: ['Line#', 'Line Number'],
  name: ['Customer Name', 'Ship to Name'],
  phone: ['Customer Phone Number', 'Phone'],
  address1: ['Ship to Address 1', 'Address 1'],
  address2: ['Ship to Address 2', 'Address 2'],
  city: ['City', 'Ship to City'],
  state: ['State', 'Ship to State'],
  zip: ['Zip', 'Zip Code', 'Postal Code', 'Ship to Zip'],
  qty: ['Qty', 'Quantity'],
  sku: ['SKU'],
  description: ['Item Description', 'Product Name'],
  status: ['Status'],
} as const;

const REQUIRED: (keyof typeof COLUMNS)[] = ['po', 'name', 'address1', 'city', 'state', 'zip', 'qty'];

/** Lines in these states must not be shipped again (or at all). */
const SKIPPED_STATUSES = new Set(['cancelled', 'canceled', 'shipped', 'delivered']);

/** The export may carry a title or notes above the header, so the header is the row naming the most columns. */
function findHeaderRow(grid: Grid): number {
  const wanted = new Set(Object.values(COLUMNS).flatMap((names) => names.map(headerKey)));
  let best = -1;
  let bestScore = 0;
  const limit = Math.min(grid.rows.length, 50);
  for (let i = 0; i < limit; i++) {
    const score = new Set(grid.rows[i]!.map(headerKey).filter((k) => wanted.has(k))).size;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

export function isWalmartHeader(keys: string[]): boolean {
  return columnOf(keys, COLUMNS.po) >= 0 && columnOf(keys, COLUMNS.address1) >= 0;
}

/** The sheet's order lines as bulk rows in sheet order, recipient side only; the caller adds the sender. */
export function walmartRowsFromGrid(grid: Grid): MappedRows {
  if (grid.rows.every(isBlankRow)) throw new OrderFileError('This file is empty');
  const headerIndex = findHeaderRow(grid);
  const keys = headerIndex >= 0 ? grid.rows[headerIndex]!.map(headerKey) : [];
  const col = columnsIn(keys, COLUMNS);
  const missing = missingColumns(col, COLUMNS, REQUIRED);
  if (missing.length > 0) throw new OrderFileError(missingColumnsMessage(missing));

  const rows: BulkRow[] = [];
  const badQuantities: string[] = [];
  let skipped = 0;
  for (let i = headerIndex + 1; i < grid.rows.length; i++) {
    const cells = grid.rows[i]!;
    if (isBlankRow(cells)) continue;
    if (SKIPPED_STATUSES.has(cellAt(cells, col.status).toLowerCase())) {
      skipped++;
      continue;
    }
    const quantity = parseQuantity(cellAt(cells, col.qty));
    if (quantity === null) {
      badQuantities.push(`Row ${grid.rowNumbers[i]}: Qty must be a whole number of at least 1`);
      continue;
    }
    const row = emptyBulkRow(`r${rows.length + 1}`);
    // Walmart confirms shipments by purchase order and line, so those identify the row.
    row.orderId = cellAt(cells, col.po);
    row.orderItemId = cellAt(cells, col.line);
    row.PackageReference1 = cellAt(cells, col.order);
    row.skuNumber = cellAt(cells, col.sku);
    row.quantity = quantity;
    row.PackageDescription = cellAt(cells, col.description);
    row.ToRecipientName = cellAt(cells, col.name);
    row.ToPhone = normalizePhone(cellAt(cells, col.phone));
    row.ToStreet1 = cellAt(cells, col.address1);
    row.ToStreet2 = cellAt(cells, col.address2);
    row.ToCity = cellAt(cells, col.city);
    row.ToStateProvince = normalizeState(cellAt(cells, col.state));
    row.ToZipPostal = repairFileZip(cellAt(cells, col.zip));
    rows.push(row);
  }
  if (badQuantities.length > 0) throw new OrderFileError(joinProblems(badQuantities));
  const warnings = skipped > 0 ? [`${skipped} line(s) already shipped or cancelled were skipped.`] : [];
  return { rows, warnings };
}

/**
 * DETECT_SURE for a Walmart header in the first rows, else how many of Walmart's columns the likeliest header
 * names. Only rows up to the first with three filled cells are looked at: a title or notes may sit above the
 * header, never a table, so another marketplace's data rows are not read through.
 */
export function walmartScore(headerRows: readonly string[][]): number {
  let best = 0;
  for (const row of headerRows) {
    let filled = 0;
    for (const cell of row) if (cell.trim() !== '') filled++;
    if (filled === 0) continue;
    const keys = row.map(headerKey);
    if (isWalmartHeader(keys)) return DETECT_SURE;
    best = Math.max(best, Object.values(COLUMNS).filter((names) => columnOf(keys, names) >= 0).length);
    if (filled >= 3) break;
  }
  return best;
}
