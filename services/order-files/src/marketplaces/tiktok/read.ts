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
import { normalizeCountry, normalizePhone, normalizeState, repairFileZip } from '../../states';
import { DETECT_SURE, type MappedRows } from '../types';

/**
 * Columns of TikTok Shop's order export (Seller Center → Orders → Export, US: 63 columns; sheet `OrderSKUList` in
 * the .xlsx), by header name. Header names may carry spaces, which `headerKey` ignores.
 */
const COLUMNS = {
  order: ['Order ID'],
  substatus: ['Order Substatus'],
  skuId: ['SKU ID'],
  sellerSku: ['Seller SKU'],
  product: ['Product Name'],
  variation: ['Variation'],
  quantity: ['Quantity'],
  recipient: ['Recipient'],
  phone: ['Phone #', 'Phone'],
  country: ['Country'],
  state: ['State'],
  city: ['City'],
  zip: ['Zipcode', 'Zip Code'],
  address1: ['Address Line 1'],
  address2: ['Address Line 2'],
} as const;

const REQUIRED: (keyof typeof COLUMNS)[] = [
  'order',
  'substatus',
  'quantity',
  'recipient',
  'city',
  'state',
  'zip',
  'address1',
];

/** The only sub-status whose lines still need a label; every other line is left out and counted. */
const AWAITING_SHIPMENT = 'awaiting shipment';

/** TikTok Shop hides a buyer's details with asterisks (`J*** D***`, `(+1)312****54`) until an order may ship. */
const MASKED = /\*{2,}/;

const isTikTokHeader = (keys: string[]): boolean =>
  columnOf(keys, COLUMNS.order) >= 0 &&
  columnOf(keys, COLUMNS.substatus) >= 0 &&
  columnOf(keys, COLUMNS.recipient) >= 0;

/**
 * DETECT_SURE for TikTok Shop's header (`Order ID`, `Order Substatus`, `Recipient`) in the first filled row; else how
 * many of its columns that row names. The header is the export's first row (after the BOM, which the decoder drops).
 */
export function tiktokScore(headerRows: readonly string[][]): number {
  const header = headerRows.find((row) => !isBlankRow(row));
  if (!header) return 0;
  const keys = header.map(headerKey);
  if (isTikTokHeader(keys)) return DETECT_SURE;
  return Object.values(COLUMNS).filter((names) => columnOf(keys, names) >= 0).length;
}

/**
 * The row under the header describing each column (`Platform unique order ID.`): its Order ID cell is a sentence,
 * never an id, which has no spaces.
 */
const isDescriptionRow = (orderId: string): boolean => /\s/.test(orderId) || /^platform unique/i.test(orderId);

/** The export's lines awaiting shipment as bulk rows in file order (one per SKU line), recipient side only. */
export function tiktokRowsFromGrid(grid: Grid): MappedRows {
  const h = grid.rows.findIndex((row) => !isBlankRow(row));
  if (h < 0) throw new OrderFileError('This file is empty');
  const keys = grid.rows[h]!.map(headerKey);
  const col = columnsIn(keys, COLUMNS);
  const missing = missingColumns(col, COLUMNS, REQUIRED);
  if (missing.length > 0) throw new OrderFileError(missingColumnsMessage(missing));

  const rows: BulkRow[] = [];
  const badQuantities: string[] = [];
  let skipped = 0;
  const maskedOrders = new Set<string>();
  for (let i = h + 1; i < grid.rows.length; i++) {
    const cells = grid.rows[i]!;
    if (isBlankRow(cells)) continue;
    // cellAt trims, which also takes off the literal tab TikTok leaves at the end of ids and times.
    const orderId = cellAt(cells, col.order);
    if (i === h + 1 && isDescriptionRow(orderId)) continue;
    if (cellAt(cells, col.substatus).toLowerCase() !== AWAITING_SHIPMENT) {
      skipped++;
      continue;
    }
    const quantity = parseQuantity(cellAt(cells, col.quantity));
    if (quantity === null) {
      badQuantities.push(`Row ${grid.rowNumbers[i]}: Quantity must be a whole number of at least 1`);
      continue;
    }
    const row = emptyBulkRow(`r${rows.length + 1}`);
    row.orderId = orderId;
    row.orderItemId = cellAt(cells, col.skuId);
    row.skuNumber = cellAt(cells, col.sellerSku);
    row.quantity = quantity;
    const variation = cellAt(cells, col.variation);
    const product = cellAt(cells, col.product);
    row.PackageDescription = variation && product ? `${product}, ${variation}` : product;
    row.PackageReference1 = orderId;
    row.ToRecipientName = cellAt(cells, col.recipient);
    row.ToPhone = normalizePhone(cellAt(cells, col.phone));
    row.ToStreet1 = cellAt(cells, col.address1);
    row.ToStreet2 = cellAt(cells, col.address2);
    row.ToCity = cellAt(cells, col.city);
    row.ToStateProvince = normalizeState(cellAt(cells, col.state));
    row.ToZipPostal = repairFileZip(cellAt(cells, col.zip));
    const country = cellAt(cells, col.country);
    if (country) row.ToCountry = normalizeCountry(country);
    // Kept (the user can type the real address in the table); the validator refuses the masked cells.
    if ([row.ToRecipientName, row.ToPhone, row.ToStreet1, row.ToStreet2, row.ToZipPostal].some((v) => MASKED.test(v))) {
      maskedOrders.add(orderId);
    }
    rows.push(row);
  }
  if (badQuantities.length > 0) throw new OrderFileError(joinProblems(badQuantities));
  const warnings: string[] = [];
  if (skipped > 0) warnings.push(`${skipped} line(s) not awaiting shipment were skipped.`);
  if (maskedOrders.size > 0) {
    warnings.push(
      `${maskedOrders.size} order(s) have the recipient or address masked by TikTok Shop: export them after they are ready to ship, or enter the address in the table.`,
    );
  }
  return { rows, warnings };
}
