import { findCarrierByCourier, mergePdfs } from '@flatship/carriers';
import { neutralizeCell } from '@flatship/order-files/spreadsheet-cell';
import { type BulkOrderItem, bulkFileNames } from '@flatship/proto';
import { stringify } from 'csv-stringify/sync';
import type { BulkRowRecord } from './ports';

/** Where an order's generated files live in the file store. */
export const bulkFileKey = (userId: string, orderId: string, file: 'labels.pdf' | 'results.csv' | 'auto-confirm.tsv') =>
  `bulk/${userId}/${orderId}/${file}`;

/** The names the browser saves the files as (spec doc 2 §9), dated by the order (UTC). */
export const displayNames = (createdAt: Date) => {
  const names = bulkFileNames(createdAt.getUTCMonth() + 1, createdAt.getUTCDate());
  return { pdf: names.pdf, resultCsv: names['result-csv'], autoConfirm: names['auto-csv'] };
};

type Cell = string | number | null | undefined;

/**
 * Sellers open these files in a spreadsheet and buyers typed much of the text, so every cell is
 * written through the one rule (`neutralizeCell`) that keeps a spreadsheet from running it.
 * Numbers are written as csv-stringify would (`String`), then judged like any text: a plain
 * number such as a quantity or `-5` stays as it is.
 */
const sheetRows = (rows: Cell[][]): string[][] =>
  rows.map((row) => row.map((cell) => neutralizeCell(cell === null || cell === undefined ? '' : String(cell))));

/** Every field of a submitted row, in the order of the bulk order item, as CSV columns. */
const INPUT_COLUMNS: [string, (i: BulkOrderItem) => Cell][] = [
  ['courier', (i) => i.courier],
  ['service_name', (i) => i.service_name],
  ['order_id', (i) => i.sender.order_id],
  ['order_item_id', (i) => i.package.order_item_id],
  ['sku_number', (i) => i.package.sku_number],
  ['quantity', (i) => i.package.quantity],
  ['sender_name', (i) => i.sender.sender_name],
  ['sender_company', (i) => i.sender.sender_company],
  ['sender_phone', (i) => i.sender.sender_phone],
  ['sender_address1', (i) => i.sender.sender_address1],
  ['sender_address2', (i) => i.sender.sender_address2],
  ['sender_city', (i) => i.sender.sender_city],
  ['sender_state_province', (i) => i.sender.sender_state_province],
  ['sender_zip_postal', (i) => i.sender.sender_zip_postal],
  ['sender_country', (i) => i.sender.sender_country],
  ['receiver_name', (i) => i.receiver.receiver_name],
  ['receiver_company', (i) => i.receiver.receiver_company],
  ['receiver_phone', (i) => i.receiver.receiver_phone],
  ['receiver_address1', (i) => i.receiver.receiver_address1],
  ['receiver_address2', (i) => i.receiver.receiver_address2],
  ['receiver_city', (i) => i.receiver.receiver_city],
  ['receiver_state_province', (i) => i.receiver.receiver_state_province],
  ['receiver_zip_postal', (i) => i.receiver.receiver_zip_postal],
  ['receiver_country', (i) => i.receiver.receiver_country],
  ['package_length', (i) => i.package.package_length],
  ['package_width', (i) => i.package.package_width],
  ['package_height', (i) => i.package.package_height],
  ['package_weight', (i) => i.package.package_weight],
  ['package_weight_unit', (i) => i.package.package_weight_unit],
  ['package_description', (i) => i.package.package_description],
  ['package_reference1', (i) => i.package.package_reference1],
  ['package_reference2', (i) => i.package.package_reference2],
];

export const RESULT_COLUMNS = ['row', ...INPUT_COLUMNS.map(([name]) => name), 'status', 'tracking_number', 'error'];

/** What the error column says of a refunded row, whose label must not be shipped with. */
export const REFUNDED_ROW_NOTE = 'Label refunded; it is void and must not be used';

const rowStatus = (r: BulkRowRecord) =>
  r.status === 'completed'
    ? 'success'
    : r.status === 'void'
      ? 'refunded'
      : r.status === 'cancelled'
        ? 'failed'
        : 'pending';

/**
 * Results CSV: every submitted row with all its columns, its outcome, tracking number and error. A row an
 * admin refunded reads `refunded`, keeping its (void) tracking number so the seller can match it up.
 */
export function resultsCsv(rows: BulkRowRecord[]): Buffer {
  const records = rows.map((r) => [
    r.rowIndex + 1,
    ...INPUT_COLUMNS.map(([, get]) => get(r.input) ?? ''),
    rowStatus(r),
    r.trackingNumber ?? '',
    r.status === 'void' ? REFUNDED_ROW_NOTE : (r.error ?? ''),
  ]);
  return Buffer.from(stringify(sheetRows([RESULT_COLUMNS, ...records])));
}

export const AUTO_CONFIRM_COLUMNS = [
  'order-id',
  'order-item-id',
  'quantity',
  'ship-date',
  'carrier-code',
  'carrier-name',
  'tracking-number',
  'ship-method',
];

/** The carrier-code and carrier-name columns of a label's carrier, as the carrier declares them in the registry. */
function amazonCarrier(courier: string): [string, string] {
  const carrier = findCarrierByCourier(courier);
  // A courier no longer registered still has a name: its id, which Amazon accepts as carrier-name under code Other.
  if (!carrier) return ['Other', courier];
  return [carrier.amazon.carrierCode, carrier.amazon.carrierName];
}

/**
 * Amazon's shipping-confirmation upload: one line per bought label. A split
 * order item gives several lines, each with the quantity in its parcel.
 */
export function autoConfirmTsv(rows: BulkRowRecord[]): Buffer {
  const lines = rows
    .filter((r) => r.status === 'completed' && r.trackingNumber)
    .map((r) => [
      r.input.sender.order_id ?? '',
      r.input.package.order_item_id ?? '',
      r.input.package.quantity ?? r.parcel.quantity ?? 1,
      r.updatedAt.toISOString().slice(0, 10),
      ...amazonCarrier(r.courier),
      r.trackingNumber,
      r.serviceName,
    ]);
  return Buffer.from(stringify(sheetRows([AUTO_CONFIRM_COLUMNS, ...lines]), { delimiter: '\t', quoted_match: /\t/ }));
}

/** One PDF with every bought label's pages, in row order. */
export const mergeLabelPdfs = (pdfs: Buffer[]): Promise<Buffer> => mergePdfs(pdfs);
