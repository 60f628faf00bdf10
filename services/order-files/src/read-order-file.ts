import { type Address, BULK_MAX_ROWS, type OrderSource, type Sku } from '@flatship/proto';
import { amazonRowsFromGrid, isAmazonHeader, type MappedRows, splitTabText } from './amazon';
import type { BulkRow } from './bulk-row';
import { hasNoSender, parseCsvGrid, templateRowsFromGrid } from './csv';
import { decodeText, toBytes } from './decode';
import { OrderFileError } from './errors';
import { orderFileKind, UNSUPPORTED_FILE_MESSAGE } from './file-kind';
import { type Grid, headerKey, isBlankRow } from './grid';
import { requireSender, senderFields } from './sender';
import { applySkuPresets, countSplitRows, indexSkus, splitByMaxQty } from './sku';
import { fileValidationWarning, validateBulkRow } from './validate';
import { isWalmartHeader, readWorkbookGrid, walmartRowsFromGrid } from './walmart';
import { type ZipFlag, zipFlags } from './zip-check';

export interface ReadContext {
  /** The user's first saved address: the sender of marketplace orders. */
  senderAddress: Address | null;
  skus: Sku[];
}

export interface ReadResult {
  source: OrderSource;
  rows: BulkRow[];
  warnings: string[];
  /** The offline ZIP check's doubts, by row `_id` (rows without any are left out). */
  zipFlags: Record<string, ZipFlag[]>;
}

/** The warning after a load when some rows' ZIPs are doubtful. */
export const zipFlagsWarning = (n: number): string =>
  `${n} row(s) have a ZIP code that does not exist or is not in the row's state. They are marked in the table.`;

const tooManyMessage = (n: number): string =>
  `This file has ${n} orders; the most a bulk order can hold is ${BULK_MAX_ROWS}`;

/**
 * Reads an order file into bulk-table rows. Marketplace files (Amazon .txt, Walmart .xlsx)
 * are shipped from the saved address, split into packages of at most each SKU's maxQty and
 * sized by the SKU presets; the template CSV carries its own sender and sizes. Rows that fail
 * validation are kept (the user fixes them in the table) and counted in a warning; a file
 * that cannot become rows at all throws OrderFileError with a message for the user.
 */
export function readOrderFile(file: { name: string; data: Uint8Array | ArrayBuffer }, ctx: ReadContext): ReadResult {
  const kind = orderFileKind(file.name);
  if (!kind) throw new OrderFileError(UNSUPPORTED_FILE_MESSAGE);
  // Refused before reading: the sender is needed for every row of a marketplace file.
  if (kind !== 'csv') requireSender(ctx.senderAddress);
  const bytes = toBytes(file.data);
  if (bytes.length === 0) throw new OrderFileError('This file is empty');

  let source: OrderSource;
  let mapped: MappedRows;
  if (kind === 'xlsx') {
    source = 'walmart';
    mapped = walmartRowsFromGrid(readWorkbookGrid(bytes));
  } else if (kind === 'txt') {
    source = 'amazon';
    mapped = amazonRowsFromGrid(splitTabText(decodeText(bytes, '.txt')));
  } else {
    const grid = parseCsvGrid(decodeText(bytes, '.csv'));
    ({ source, mapped } = readCsvGrid(grid));
    if (source !== 'csv') requireSender(ctx.senderAddress);
  }

  const { warnings } = mapped;
  let rows = mapped.rows;
  if (rows.length === 0) throw new OrderFileError('This file has no orders');
  if (rows.length > BULK_MAX_ROWS) throw new OrderFileError(tooManyMessage(rows.length));

  if (source === 'csv') {
    const sender = ctx.senderAddress && senderFields(ctx.senderAddress);
    if (sender) rows = rows.map((row) => (hasNoSender(row) ? { ...row, ...sender } : row));
    rows = fillFromSkuPresets(rows, ctx.skus);
  } else {
    const sender = senderFields(requireSender(ctx.senderAddress));
    const packages = countSplitRows(rows, ctx.skus);
    if (packages > BULK_MAX_ROWS) {
      throw new OrderFileError(
        `This file has ${rows.length} orders that make ${packages} packages at each SKU's max quantity; the most a bulk order can hold is ${BULK_MAX_ROWS}`,
      );
    }
    rows = applySkuPresets(splitByMaxQty(rows, ctx.skus), ctx.skus).map((row) => ({ ...row, ...sender }));
  }

  let invalid = 0;
  for (const row of rows) if (validateBulkRow(row).length > 0) invalid++;
  const flagged: Record<string, ZipFlag[]> = {};
  for (const row of rows) {
    const flags = zipFlags(row);
    if (flags.length > 0) flagged[row._id] = flags;
  }
  const doubtful = Object.keys(flagged).length;
  if (doubtful > 0) warnings.push(zipFlagsWarning(doubtful));
  if (invalid > 0) warnings.push(fileValidationWarning(invalid));
  return { source, rows, warnings, zipFlags: flagged };
}

/**
 * A .csv is normally the template, but sellers also save marketplace exports as CSV; their
 * headers say which they are, and they are then read like the marketplace file.
 */
function readCsvGrid(grid: Grid): { source: OrderSource; mapped: MappedRows } {
  const header = grid.rows.find((row) => !isBlankRow(row));
  if (!header) throw new OrderFileError('This file is empty');
  if (isAmazonHeader(header.map(headerKey))) return { source: 'amazon', mapped: amazonRowsFromGrid(grid) };
  if (grid.rows.slice(0, 50).some((row) => isWalmartHeader(row.map(headerKey)))) {
    return { source: 'walmart', mapped: walmartRowsFromGrid(grid) };
  }
  return { source: 'csv', mapped: { rows: templateRowsFromGrid(grid), warnings: [] } };
}

/**
 * A template row states its own package, so a preset only fills what the row leaves blank
 * (the spec's "takes the preset's sizes" is about marketplace rows, which carry none).
 */
function fillFromSkuPresets(rows: BulkRow[], skus: Sku[]): BulkRow[] {
  const presets = indexSkus(skus);
  if (presets.size === 0) return rows;
  return rows.map((row) => {
    const preset = presets.get(row.skuNumber.trim().toLowerCase());
    if (!preset) return row;
    return {
      ...row,
      PackageLength: row.PackageLength ?? preset.length,
      PackageWidth: row.PackageWidth ?? preset.width,
      PackageHeight: row.PackageHeight ?? preset.height,
      PackageWeight: row.PackageWeight ?? preset.weight,
      PackageDescription: row.PackageDescription || preset.description,
    };
  });
}
