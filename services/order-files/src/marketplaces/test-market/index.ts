import { emptyBulkRow } from '../../bulk-row';
import { delimitedText } from '../../delimited-text';
import { OrderFileError } from '../../errors';
import { cellAt, columnOf, type Grid, headerKey, isBlankRow, missingColumnsMessage, parseQuantity } from '../../grid';
import { normalizeState, repairFileZip } from '../../states';
import { DETECT_SURE, type MappedRows, type MarketplacePlugin } from '../types';

/**
 * A marketplace that exists only to prove the recipe (as the test-parcel carrier does for carriers): not listed on
 * the bulk screen. Its export is a CSV whose signature column is `TM Order`, with two quirks: states written out
 * in full (`Illinois`) and ZIPs with a leading apostrophe (`'02134`); rows `Shipped` already are skipped.
 */
const COLUMNS = {
  order: 'TM Order',
  line: 'TM Line',
  buyer: 'Buyer',
  street: 'Street',
  town: 'Town',
  region: 'Region',
  postcode: 'Postcode',
  units: 'Units',
  item: 'Item',
  state: 'Fulfilment',
} as const;
const REQUIRED = ['order', 'buyer', 'street', 'town', 'region', 'postcode'] as const;

function detect(headerRows: readonly string[][]): number {
  const header = headerRows.find((row) => !isBlankRow(row));
  if (!header) return 0;
  const keys = header.map(headerKey);
  return keys.includes(headerKey(COLUMNS.order)) ? DETECT_SURE : 0;
}

function read(grid: Grid): MappedRows {
  const h = grid.rows.findIndex((row) => !isBlankRow(row));
  const keys = grid.rows[h]!.map(headerKey);
  const col = Object.fromEntries(Object.entries(COLUMNS).map(([k, name]) => [k, columnOf(keys, [name])])) as Record<
    keyof typeof COLUMNS,
    number
  >;
  const missing = REQUIRED.filter((k) => col[k] < 0).map((k) => COLUMNS[k]);
  if (missing.length > 0) throw new OrderFileError(missingColumnsMessage(missing));
  const rows = [];
  let shipped = 0;
  for (let i = h + 1; i < grid.rows.length; i++) {
    const cells = grid.rows[i]!;
    if (isBlankRow(cells)) continue;
    if (cellAt(cells, col.state).toLowerCase() === 'shipped') {
      shipped++;
      continue;
    }
    const quantity = parseQuantity(cellAt(cells, col.units));
    if (quantity === null)
      throw new OrderFileError(`Row ${grid.rowNumbers[i]}: Units must be a whole number of at least 1`);
    const row = emptyBulkRow(`r${rows.length + 1}`);
    row.orderId = cellAt(cells, col.order);
    row.orderItemId = cellAt(cells, col.line);
    row.skuNumber = cellAt(cells, col.item);
    row.quantity = quantity;
    row.PackageReference1 = row.orderId;
    row.ToRecipientName = cellAt(cells, col.buyer);
    row.ToStreet1 = cellAt(cells, col.street);
    row.ToCity = cellAt(cells, col.town);
    row.ToStateProvince = normalizeState(cellAt(cells, col.region));
    row.ToZipPostal = repairFileZip(cellAt(cells, col.postcode).replace(/^'/, ''));
    rows.push(row);
  }
  return { rows, warnings: shipped > 0 ? [`${shipped} row(s) already shipped were left out`] : [] };
}

export const testMarketplace: MarketplacePlugin<'test-market'> = {
  id: 'test-market',
  carriesSender: false,
  detect,
  read,
  confirmationFile: (shipped) =>
    delimitedText(
      [
        ['TM Order', 'TM Line', 'Carrier', 'Tracking'],
        ...shipped.map((p) => [p.orderId, p.orderItemId, p.carrier?.carrierName ?? p.courier, p.trackingNumber]),
      ],
      ',',
    ),
};
