import {
  type Address,
  BULK_MAX_ROWS,
  LISTED_MARKETPLACES,
  marketplaceInfo,
  type OrderSource,
  type Sku,
} from '@flatship/proto';
import type { BulkRow } from './bulk-row';
import { hasNoSender, parseCsvGrid } from './csv';
import { decodeText, toBytes } from './decode';
import { OrderFileError } from './errors';
import { type OrderFileKind, orderFileKind, UNSUPPORTED_FILE_MESSAGE } from './file-kind';
import type { Grid } from './grid';
import { splitTabText } from './marketplaces/amazon/read';
import { LISTED_MARKETPLACE_PLUGINS } from './marketplaces/registry';
import type { MarketplacePlugin } from './marketplaces/types';
import { requireSender, senderFields } from './sender';
import { applySkuPresets, countSplitRows, indexSkus, splitByMaxQty } from './sku';
import { fileValidationWarning, validateBulkRow } from './validate';
import { readWorkbookGrid } from './workbook';
import { type ZipFlag, zipFlags } from './zip-check';

export interface ReadContext {
  /** The user's first saved address: the sender of marketplace orders. */
  senderAddress: Address | null;
  skus: Sku[];
  /**
   * The marketplaces a file may be recognised as: the listed ones when absent. A test-only marketplace is
   * recognised only where a test names it, never in a customer's upload.
   */
  marketplaces?: readonly MarketplacePlugin[];
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

/** How many rows `detect` sees: enough for a title or notes above the header (Walmart's export has some). */
const HEADER_ROWS = 50;

/** The least partial `detect` score that counts: two of the marketplace's columns. */
const MIN_PARTIAL_SCORE = 2;

/** Names the marketplaces a file may come from, for a file none of them recognises. */
export const UNRECOGNISED_FILE_MESSAGE = `This file's columns are not those of any supported order file (${LISTED_MARKETPLACES.map(
  (m) => m.name,
).join(', ')}). Download the Bulk Template CSV for the template's columns`;

/** The file as cells: the decoder is chosen by the name's ending (a workbook or text), never the marketplace. */
function decode(kind: OrderFileKind, bytes: Uint8Array, marketplaces: readonly MarketplacePlugin[]): Grid {
  if (kind === 'xlsx') return readWorkbookGrid(bytes, (grids) => sheetOfOrders(grids, marketplaces));
  if (kind === 'txt') return splitTabText(decodeText(bytes, '.txt'));
  return parseCsvGrid(decodeText(bytes, '.csv'));
}

/**
 * The sheet of a several-sheet workbook whose header a marketplace is surest of (TikTok Shop's `OrderSKUList`,
 * Walmart's `Po Details`, wherever they sit); the first sheet when none counts, whose reader names what is missing.
 */
function sheetOfOrders(grids: readonly Grid[], marketplaces: readonly MarketplacePlugin[]): Grid {
  let best = grids[0]!;
  let bestScore = MIN_PARTIAL_SCORE - 1;
  for (const grid of grids) {
    const headerRows = grid.rows.slice(0, HEADER_ROWS);
    for (const plugin of marketplaces) {
      const score = plugin.detect(headerRows);
      if (score > bestScore) {
        best = grid;
        bestScore = score;
      }
    }
  }
  return best;
}

/**
 * The marketplace whose file this is, by its columns: the highest `detect` score; a tie goes to the marketplace
 * whose usual ending the file has, then to the first in the list. None → a message naming what is supported.
 */
export function detectMarketplace(
  grid: Grid,
  kind: OrderFileKind,
  marketplaces: readonly MarketplacePlugin[] = LISTED_MARKETPLACE_PLUGINS,
): MarketplacePlugin {
  const headerRows = grid.rows.slice(0, HEADER_ROWS);
  let best: MarketplacePlugin | null = null;
  let bestScore = 0;
  let bestOwnsExtension = false;
  for (const plugin of marketplaces) {
    const score = plugin.detect(headerRows);
    // One column name in common (`City`, `SKU`) is no sign of a marketplace.
    if (score < MIN_PARTIAL_SCORE) continue;
    const ownsExtension = marketplaceInfo(plugin.id).extensions[0] === `.${kind}`;
    if (score > bestScore || (score === bestScore && ownsExtension && !bestOwnsExtension)) {
      best = plugin;
      bestScore = score;
      bestOwnsExtension = ownsExtension;
    }
  }
  if (!best) throw new OrderFileError(UNRECOGNISED_FILE_MESSAGE);
  return best;
}

/**
 * Reads an order file into bulk-table rows. The marketplace is recognised by the file's columns (the
 * registry in marketplaces/registry.ts). Marketplace exports are shipped from the saved address, split
 * into packages of at most each SKU's maxQty and sized by the SKU presets; the template CSV carries its
 * own sender and sizes. Rows that fail validation are kept (the user fixes them in the table) and counted
 * in a warning; a file that cannot become rows at all throws OrderFileError with a message for the user.
 */
export function readOrderFile(file: { name: string; data: Uint8Array | ArrayBuffer }, ctx: ReadContext): ReadResult {
  const kind = orderFileKind(file.name);
  if (!kind) throw new OrderFileError(UNSUPPORTED_FILE_MESSAGE);
  // Refused before reading: the sender is needed for every row of a marketplace export, and only the
  // template comes as .csv alone.
  if (kind !== 'csv') requireSender(ctx.senderAddress);
  const bytes = toBytes(file.data);
  if (bytes.length === 0) throw new OrderFileError('This file is empty');

  const grid = decode(kind, bytes, ctx.marketplaces ?? LISTED_MARKETPLACE_PLUGINS);
  if (grid.rows.every((row) => row.every((cell) => cell.trim() === ''))) throw new OrderFileError('This file is empty');
  const marketplace = detectMarketplace(grid, kind, ctx.marketplaces);
  if (!marketplace.carriesSender) requireSender(ctx.senderAddress);
  const source: OrderSource = marketplace.id;
  const mapped = marketplace.read(grid);

  const { warnings } = mapped;
  let rows = mapped.rows;
  if (rows.length === 0) throw new OrderFileError('This file has no orders');
  if (rows.length > BULK_MAX_ROWS) throw new OrderFileError(tooManyMessage(rows.length));

  if (marketplace.carriesSender) {
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
