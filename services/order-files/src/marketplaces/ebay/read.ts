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
 * Columns of eBay Seller Hub's orders report by header name: the 82- and 80-column US reports name the recipient
 * `Ship To …`; UK/AU reports name it `Post To …` (County, Postcode). Other columns (fees, dates, amounts) are not read.
 */
const COLUMNS = {
  salesRecord: ['Sales Record Number'],
  orderNumber: ['Order Number'],
  name: ['Ship To Name', 'Post To Name'],
  phone: ['Ship To Phone', 'Post To Phone'],
  address1: ['Ship To Address 1', 'Post To Address 1'],
  address2: ['Ship To Address 2', 'Post To Address 2'],
  city: ['Ship To City', 'Post To City'],
  state: ['Ship To State', 'Post To County', 'Post To State'],
  zip: ['Ship To Zip', 'Post To Postcode', 'Post To Post Code'],
  country: ['Ship To Country', 'Post To Country'],
  itemNumber: ['Item Number'],
  itemTitle: ['Item Title'],
  customLabel: ['Custom Label'],
  quantity: ['Quantity'],
  transactionId: ['Transaction ID'],
  shippedOn: ['Shipped On Date', 'Dispatched On Date'],
} as const;
type Column = keyof typeof COLUMNS;

const REQUIRED: Column[] = ['orderNumber', 'itemNumber', 'name', 'address1', 'city', 'zip', 'quantity'];

/**
 * The header is among the first filled rows (only a `sep=,` line may come before it; a line of bare commas is
 * blank): no data row is ever matched against column names.
 */
const HEADER_CANDIDATES = 3;

/** Indexes of the first filled rows of `rows`, where the header may be. */
function headerCandidates(rows: readonly string[][]): number[] {
  const found: number[] = [];
  for (let i = 0; i < rows.length && found.length < HEADER_CANDIDATES; i++) if (!isBlankRow(rows[i]!)) found.push(i);
  return found;
}

const keyed = (names: readonly string[]) => names.map(headerKey);
const ORDER_NUMBER = headerKey('Order Number');
const ITEM_NUMBER = headerKey('Item Number');
const NAME_KEYS = keyed(COLUMNS.name);

/** Order Number, Item Number and the recipient's name together are eBay's orders report. */
const isEbayHeader = (keys: string[]): boolean =>
  keys.includes(ORDER_NUMBER) && keys.includes(ITEM_NUMBER) && NAME_KEYS.some((k) => keys.includes(k));

const columnCount = (keys: string[]): number =>
  Object.values(COLUMNS).filter((names) => columnOf(keys, names) >= 0).length;

/** DETECT_SURE when one of the first filled rows is eBay's header, else how many of eBay's columns the best of them names. */
export function ebayScore(headerRows: readonly string[][]): number {
  let best = 0;
  for (const i of headerCandidates(headerRows)) {
    const keys = headerRows[i]!.map(headerKey);
    if (isEbayHeader(keys)) return DETECT_SURE;
    best = Math.max(best, columnCount(keys));
  }
  return best;
}

/** The footer eBay writes under the data: `3,record(s) downloaded,from …` then `Seller ID : name`. */
const isFooter = (cells: string[]): boolean =>
  /^record\(s\) downloaded/i.test(cellAt(cells, 1)) || /^seller id\s*:/i.test(cellAt(cells, 0));

/** The header's index: the row naming eBay's columns, else the row naming most of them (for the missing-column message). */
function findHeader(grid: Grid): number {
  let best = -1;
  let bestCount = 0;
  for (const i of headerCandidates(grid.rows)) {
    const keys = grid.rows[i]!.map(headerKey);
    if (isEbayHeader(keys)) return i;
    const count = columnCount(keys);
    if (count > bestCount) {
      best = i;
      bestCount = count;
    }
  }
  if (best < 0) throw new OrderFileError('This file has no eBay orders report header');
  return best;
}

/** One data row of the report, with its line number. */
interface ReportRow {
  cells: string[];
  line: number;
}

/**
 * The report's rows as bulk rows in file order, one per item, recipient side only. A multi-item order is a
 * summary row (the order's address and its total Quantity, no Item Number) followed by a row per item (its own
 * Quantity, Item Number and Transaction ID, the address usually blank): each item ships to the summary's address
 * with the item's quantity; the summary's total is not counted again. Rows with a Shipped On Date are left out.
 * An item row keeps `<Item Number>-<Transaction ID>` (eBay's order line item id) as its order item id, its title
 * as the package description and its Custom Label as SKU, which the tracking upload writes back.
 */
export function ebayRowsFromGrid(grid: Grid): MappedRows {
  const headerIndex = findHeader(grid);
  const keys = grid.rows[headerIndex]!.map(headerKey);
  const col = columnsIn(keys, COLUMNS);
  const missing = missingColumns(col, COLUMNS, REQUIRED);
  if (missing.length > 0) throw new OrderFileError(missingColumnsMessage(missing));
  const at = (r: ReportRow, c: Column) => cellAt(r.cells, col[c]);

  const rows: BulkRow[] = [];
  const badQuantities: string[] = [];
  const alreadyShipped = new Set<string>();

  const push = (address: ReportRow, item: ReportRow, orderNumber: string) => {
    if (at(item, 'shippedOn') !== '' || at(address, 'shippedOn') !== '') {
      alreadyShipped.add(orderNumber);
      return;
    }
    const quantity = parseQuantity(at(item, 'quantity'));
    if (quantity === null) {
      badQuantities.push(`Row ${item.line}: Quantity must be a whole number of at least 1`);
      return;
    }
    const itemNumber = at(item, 'itemNumber');
    const transactionId = at(item, 'transactionId');
    const row = emptyBulkRow(`r${rows.length + 1}`);
    row.orderId = orderNumber;
    row.orderItemId = itemNumber && transactionId ? `${itemNumber}-${transactionId}` : itemNumber;
    row.skuNumber = at(item, 'customLabel');
    row.quantity = quantity;
    row.PackageDescription = at(item, 'itemTitle');
    row.PackageReference1 = orderNumber;
    row.ToRecipientName = at(address, 'name');
    row.ToPhone = normalizePhone(at(address, 'phone'));
    row.ToStreet1 = at(address, 'address1');
    row.ToStreet2 = at(address, 'address2');
    row.ToCity = at(address, 'city');
    row.ToStateProvince = normalizeState(at(address, 'state'));
    row.ToZipPostal = repairFileZip(at(address, 'zip'));
    row.ToCountry = normalizeCountry(at(address, 'country'));
    rows.push(row);
  };

  // A summary row waiting for its item rows.
  let summary: ReportRow | null = null;
  let summaryItems = 0;
  const closeSummary = () => {
    // A summary with no item rows after it is the order's only row: it ships as it is.
    if (summary && summaryItems === 0) push(summary, summary, at(summary, 'orderNumber'));
    summary = null;
    summaryItems = 0;
  };

  for (let i = headerIndex + 1; i < grid.rows.length; i++) {
    const cells = grid.rows[i]!;
    if (isFooter(cells)) break;
    if (isBlankRow(cells)) continue;
    const r: ReportRow = { cells, line: grid.rowNumbers[i]! };
    const orderNumber = at(r, 'orderNumber');
    if (at(r, 'itemNumber') === '') {
      closeSummary();
      summary = r;
      continue;
    }
    const current = summary as ReportRow | null;
    if (current && (orderNumber === '' || orderNumber === at(current, 'orderNumber'))) {
      summaryItems++;
      push(current, r, at(current, 'orderNumber'));
      continue;
    }
    closeSummary();
    push(r, r, orderNumber);
  }
  closeSummary();

  if (badQuantities.length > 0) throw new OrderFileError(joinProblems(badQuantities));
  const warnings: string[] = [];
  if (alreadyShipped.size > 0) {
    warnings.push(
      `Order(s) ${joinProblems([...alreadyShipped], 10)} already have a Shipped On Date and were left out.`,
    );
  }
  return { rows, warnings };
}
