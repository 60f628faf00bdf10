import { type BulkRow, emptyBulkRow } from '../../bulk-row';
import { joinProblems, OrderFileError } from '../../errors';
import { cellAt, columnOf, type Grid, headerKey, isBlankRow, missingColumnsMessage, parseQuantity } from '../../grid';
import { repairMojibake } from '../../mojibake';
import { normalizeCountry, normalizeState, repairFileZip } from '../../states';
import { DETECT_SURE, type MappedRows, type MarketplacePlugin } from '../types';

/**
 * Etsy's Download Data files (Shop Manager → Settings → Options), either of them:
 * - **Sold Orders**: one row per order, `Number of Items` and the order's `SKU`(s). One package per order: its
 *   quantity is `Number of Items` and its SKU the order's one SKU, so the SKU's preset sizes it and its maxQty
 *   splits it. An order of several SKUs (`MUG-1,TOTE-2`) cannot be split by SKU from this file (it does not say how
 *   many of each): it stays one package of all its items, its SKU cell as it is, named in a warning (the Sold Order
 *   Items file has a row per item).
 * - **Sold Order Items**: one row per transaction (`Transaction ID`, `Quantity`), the address repeated on each: one
 *   package per transaction, like Amazon's order items.
 * Both write the country out (`United States`), and say `Delivery City/State/Zipcode/Country` for UK-locale shops.
 * Re-saved by Excel they come tab-delimited, in Windows-1252 with UTF-8 mojibake (`JosÃ©`), and with ZIPs that lost
 * their leading zero (`2134`): repaired here. Orders with a `Date Shipped` are left out. Etsy takes no tracking file.
 */
const COLUMNS = {
  orderId: ['Order ID'],
  fullName: ['Full Name', 'Ship Name', 'Delivery Name'],
  firstName: ['First Name'],
  lastName: ['Last Name'],
  numberOfItems: ['Number of Items'],
  quantity: ['Quantity'],
  dateShipped: ['Date Shipped'],
  street1: ['Street 1', 'Ship Address1', 'Delivery Address1', 'Delivery Street 1'],
  street2: ['Street 2', 'Ship Address2', 'Delivery Address2', 'Delivery Street 2'],
  city: ['Ship City', 'Delivery City'],
  state: ['Ship State', 'Delivery State'],
  zip: ['Ship Zipcode', 'Delivery Zipcode'],
  country: ['Ship Country', 'Delivery Country'],
  sku: ['SKU'],
  itemName: ['Item Name'],
  transactionId: ['Transaction ID'],
  listingId: ['Listing ID'],
  variations: ['Variations'],
} as const;
type Column = keyof typeof COLUMNS;
type Columns = Record<Column, number>;

const REQUIRED: Column[] = ['orderId', 'street1', 'city', 'state', 'zip'];

const columnsOf = (keys: string[]): Columns =>
  Object.fromEntries(Object.entries(COLUMNS).map(([k, names]) => [k, columnOf(keys, names)])) as Columns;

/** Which of the two files: the orders file counts `Number of Items`, the items file has a `Quantity` per transaction. */
const kindOf = (col: Columns): 'orders' | 'items' | null =>
  col.numberOfItems >= 0 ? 'orders' : col.transactionId >= 0 && col.quantity >= 0 ? 'items' : null;

function detect(headerRows: readonly string[][]): number {
  const header = headerRows.find((row) => !isBlankRow(row));
  if (!header) return 0;
  const col = columnsOf(header.map(headerKey));
  if (col.orderId >= 0 && col.city >= 0 && kindOf(col)) return DETECT_SURE;
  // `Order ID`, `Quantity` and `SKU` are everyone's headers: only Etsy's own count towards a partial match.
  const own: Column[] = ['numberOfItems', 'dateShipped', 'street1', 'city', 'state', 'zip', 'country', 'listingId'];
  return own.filter((k) => col[k] >= 0).length;
}

/** A cell as Etsy wrote it: Excel's tab-delimited text keeps the quotes around a cell, mojibake is undone. */
function cell(cells: string[], index: number): string {
  let value = cellAt(cells, index);
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).replace(/""/g, '"');
  return repairMojibake(value);
}

function read(grid: Grid): MappedRows {
  const h = grid.rows.findIndex((row) => !isBlankRow(row));
  if (h < 0) throw new OrderFileError('This file is empty');
  const col = columnsOf(grid.rows[h]!.map(headerKey));
  const missing = REQUIRED.filter((k) => col[k] < 0).map((k) => COLUMNS[k][0]);
  if (col.fullName < 0 && (col.firstName < 0 || col.lastName < 0)) missing.push('Full Name');
  const kind = kindOf(col);
  if (!kind) missing.push('Number of Items');
  if (missing.length > 0) throw new OrderFileError(missingColumnsMessage(missing));
  const quantityColumn = kind === 'orders' ? 'numberOfItems' : 'quantity';

  const rows: BulkRow[] = [];
  const problems: string[] = [];
  const mixedSkus: string[] = [];
  let shipped = 0;
  for (let i = h + 1; i < grid.rows.length; i++) {
    const cells = grid.rows[i]!;
    if (isBlankRow(cells)) continue;
    if (cell(cells, col.dateShipped) !== '') {
      shipped++;
      continue;
    }
    const quantity = parseQuantity(cell(cells, col[quantityColumn]));
    if (quantity === null) {
      problems.push(`Row ${grid.rowNumbers[i]}: ${COLUMNS[quantityColumn][0]} must be a whole number of at least 1`);
      continue;
    }
    const row = emptyBulkRow(`r${rows.length + 1}`);
    row.orderId = cell(cells, col.orderId);
    row.quantity = quantity;
    row.PackageReference1 = row.orderId;
    row.ToRecipientName =
      cell(cells, col.fullName) || [cell(cells, col.firstName), cell(cells, col.lastName)].filter(Boolean).join(' ');
    row.ToStreet1 = cell(cells, col.street1);
    row.ToStreet2 = cell(cells, col.street2);
    row.ToCity = cell(cells, col.city);
    row.ToStateProvince = normalizeState(cell(cells, col.state));
    row.ToZipPostal = repairFileZip(cell(cells, col.zip));
    row.ToCountry = normalizeCountry(cell(cells, col.country));
    if (kind === 'orders') {
      const skus = [
        ...new Set(
          cell(cells, col.sku)
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      row.skuNumber = skus.length === 1 ? skus[0]! : cell(cells, col.sku);
      if (skus.length > 1) mixedSkus.push(row.orderId);
    } else {
      row.orderItemId = cell(cells, col.transactionId);
      row.skuNumber = cell(cells, col.sku);
      const variations = cell(cells, col.variations);
      row.PackageDescription = [cell(cells, col.itemName), variations].filter(Boolean).join(' - ');
    }
    rows.push(row);
  }
  if (problems.length > 0) throw new OrderFileError(joinProblems(problems));
  const warnings: string[] = [];
  if (shipped > 0) warnings.push(`${shipped} order(s) already shipped were left out`);
  if (mixedSkus.length > 0) {
    warnings.push(
      `Order(s) ${joinProblems(mixedSkus, 10)} hold several SKUs, so each is one package of all its items: check its size, or load the Etsy Sold Order Items file for a package per item.`,
    );
  }
  return { rows, warnings };
}

export const etsyMarketplace: MarketplacePlugin<'etsy'> = {
  id: 'etsy',
  carriesSender: false,
  detect,
  read,
};
