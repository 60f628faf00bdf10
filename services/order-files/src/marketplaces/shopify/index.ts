import { type BulkRow, emptyBulkRow } from '../../bulk-row';
import { joinProblems, OrderFileError } from '../../errors';
import {
  cellAt,
  columnsIn,
  type Grid,
  headerKey,
  isBlankRow,
  missingColumns,
  missingColumnsMessage,
  parseQuantity,
} from '../../grid';
import { normalizeCountry, normalizePhone, normalizeState, repairFileZip } from '../../states';
import { DETECT_SURE, type MappedRows, type MarketplacePlugin } from '../types';

/**
 * Shopify's orders export (Admin → Orders → Export, CSV): one row per line item, the order number in `Name`
 * (`#1001`). Follow-on line items of an order leave the shipping block blank (carried from the order's row that
 * has it); `Shipping Zip` may carry a leading apostrophe; lines that need no shipping are left out, as are lines
 * already fulfilled. The street is `Shipping Address1`/`Address2` (`Shipping Street` joins them). Shopify takes no
 * tracking file: orders are marked shipped in Shopify or by an app.
 */
const COLUMNS = {
  name: ['Name'],
  quantity: ['Lineitem quantity'],
  itemName: ['Lineitem name'],
  sku: ['Lineitem sku'],
  requiresShipping: ['Lineitem requires shipping'],
  itemFulfillment: ['Lineitem fulfillment status'],
  shipName: ['Shipping Name'],
  address1: ['Shipping Address1'],
  address2: ['Shipping Address2'],
  company: ['Shipping Company'],
  city: ['Shipping City'],
  zip: ['Shipping Zip'],
  province: ['Shipping Province'],
  country: ['Shipping Country'],
  phone: ['Shipping Phone'],
} as const;
type Column = keyof typeof COLUMNS;

const REQUIRED: Column[] = ['name', 'quantity', 'shipName', 'address1', 'city', 'zip', 'province'];
/** Together in no other export: Shopify's line-item and shipping columns. */
const SIGNATURE: Column[] = ['name', 'quantity', 'address1'];
/** The shipping block a follow-on line item leaves blank. */
const ADDRESS: Column[] = [
  'shipName',
  'address1',
  'address2',
  'company',
  'city',
  'zip',
  'province',
  'country',
  'phone',
];

const columnsOf = (keys: string[]) => columnsIn(keys, COLUMNS);

function detect(headerRows: readonly string[][]): number {
  const header = headerRows.find((row) => !isBlankRow(row));
  if (!header) return 0;
  const col = columnsOf(header.map(headerKey));
  if (SIGNATURE.every((k) => col[k] >= 0)) return DETECT_SURE;
  // `Name` alone is too common a header to count towards a partial match.
  return (Object.keys(COLUMNS) as Column[]).filter((k) => k !== 'name' && col[k] >= 0).length;
}

function read(grid: Grid): MappedRows {
  const h = grid.rows.findIndex((row) => !isBlankRow(row));
  if (h < 0) throw new OrderFileError('This file is empty');
  const col = columnsOf(grid.rows[h]!.map(headerKey));
  const missing = missingColumns(col, COLUMNS, REQUIRED);
  if (missing.length > 0) throw new OrderFileError(missingColumnsMessage(missing));

  // Each order's shipping block: from its first row that has one (a follow-on line item leaves it blank).
  const addresses = new Map<string, string[]>();
  for (let i = h + 1; i < grid.rows.length; i++) {
    const cells = grid.rows[i]!;
    const name = cellAt(cells, col.name);
    if (name === '' || addresses.has(name) || cellAt(cells, col.address1) === '') continue;
    addresses.set(
      name,
      ADDRESS.map((k) => cellAt(cells, col[k])),
    );
  }

  const rows: BulkRow[] = [];
  const problems: string[] = [];
  const lineOfOrder = new Map<string, number>();
  let noShipping = 0;
  let fulfilled = 0;
  for (let i = h + 1; i < grid.rows.length; i++) {
    const cells = grid.rows[i]!;
    if (isBlankRow(cells)) continue;
    const name = cellAt(cells, col.name);
    const line = (lineOfOrder.get(name) ?? 0) + 1;
    lineOfOrder.set(name, line);
    if (cellAt(cells, col.requiresShipping).toLowerCase() === 'false') {
      noShipping++;
      continue;
    }
    if (cellAt(cells, col.itemFulfillment).toLowerCase() === 'fulfilled') {
      fulfilled++;
      continue;
    }
    const quantity = parseQuantity(cellAt(cells, col.quantity));
    if (quantity === null) {
      problems.push(`Row ${grid.rowNumbers[i]}: Lineitem quantity must be a whole number of at least 1`);
      continue;
    }
    const own = cellAt(cells, col.address1) !== '';
    const address = own ? ADDRESS.map((k) => cellAt(cells, col[k])) : (addresses.get(name) ?? ADDRESS.map(() => ''));
    const [shipName, address1, address2, company, city, zip, province, country, phone] = address as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const row = emptyBulkRow(`r${rows.length + 1}`);
    row.orderId = name;
    row.orderItemId = String(line);
    row.skuNumber = cellAt(cells, col.sku);
    row.quantity = quantity;
    row.PackageDescription = cellAt(cells, col.itemName);
    row.PackageReference1 = name;
    row.ToRecipientName = shipName;
    row.ToCompany = company;
    row.ToPhone = normalizePhone(phone.replace(/^'/, ''));
    row.ToStreet1 = address1;
    row.ToStreet2 = address2;
    row.ToCity = city;
    row.ToStateProvince = normalizeState(province);
    row.ToZipPostal = repairFileZip(zip.replace(/^'/, ''));
    row.ToCountry = normalizeCountry(country);
    rows.push(row);
  }
  if (problems.length > 0) throw new OrderFileError(joinProblems(problems));
  const warnings: string[] = [];
  if (noShipping > 0) warnings.push(`${noShipping} line item(s) that need no shipping were left out`);
  if (fulfilled > 0) warnings.push(`${fulfilled} line item(s) already fulfilled were left out`);
  return { rows, warnings };
}

export const shopifyMarketplace: MarketplacePlugin<'shopify'> = {
  id: 'shopify',
  carriesSender: false,
  detect,
  read,
};
