import { findCarrierByCourier, mergePdfs } from '@flatship/carriers';
import type { ShippedPackage } from '@flatship/order-files/marketplaces';
import { neutralizeCell } from '@flatship/order-files/spreadsheet-cell';
import { type BulkOrderItem, bulkFileNames, marketplaceInfo, type OrderSource } from '@flatship/proto';
import type { BulkRowRecord } from './ports';

/** Where an order's generated files live in the file store. */
export const bulkFileKey = (userId: string, orderId: string, file: BulkStoredFile) =>
  `bulk/${userId}/${orderId}/${file}`;

/** An order's files in the store; the confirmation file ends as its marketplace's does (Amazon: `auto-confirm.tsv`). */
export type BulkStoredFile = 'labels.pdf' | 'results.csv' | `auto-confirm.${string}`;

/** How the marketplace's confirmation file is saved and served; Amazon's TSV for a marketplace that takes none. */
export const confirmationFormat = (source: OrderSource) =>
  marketplaceInfo(source).confirmationFile ?? {
    extension: 'tsv',
    contentType: 'text/tab-separated-values; charset=utf-8',
  };

/** Where an order's confirmation file lives in the store, by its marketplace. */
export const confirmationFileOf = (source: OrderSource): BulkStoredFile =>
  `auto-confirm.${confirmationFormat(source).extension}`;

/** The names the browser saves the files as (spec doc 2 §9), dated by the order (UTC). */
export const displayNames = (createdAt: Date, source: OrderSource = 'amazon') => {
  const names = bulkFileNames(
    createdAt.getUTCMonth() + 1,
    createdAt.getUTCDate(),
    confirmationFormat(source).extension,
  );
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
export async function resultsCsv(rows: BulkRowRecord[]): Promise<Buffer> {
  // Loaded when an order finishes, not at every start of a process that may finish one.
  const { stringify } = await import('csv-stringify/sync');
  const records = rows.map((r) => [
    r.rowIndex + 1,
    ...INPUT_COLUMNS.map(([, get]) => get(r.input) ?? ''),
    rowStatus(r),
    r.trackingNumber ?? '',
    r.status === 'void' ? REFUNDED_ROW_NOTE : (r.error ?? ''),
  ]);
  return Buffer.from(stringify(sheetRows([RESULT_COLUMNS, ...records])));
}

/** A bought label as the marketplace's confirmation file takes it, with the carrier's codes for that marketplace. */
function shippedPackage(source: OrderSource, r: BulkRowRecord): ShippedPackage {
  return {
    orderId: r.input.sender.order_id ?? '',
    orderItemId: r.input.package.order_item_id ?? '',
    sku: r.input.package.sku_number ?? '',
    description: r.input.package.package_description ?? '',
    reference1: r.input.package.package_reference1 ?? '',
    quantity: Number(r.input.package.quantity ?? r.parcel.quantity ?? 1),
    shipDate: r.updatedAt.toISOString().slice(0, 10),
    trackingNumber: r.trackingNumber ?? '',
    courier: r.courier,
    serviceName: r.serviceName,
    carrier: findCarrierByCourier(r.courier)?.marketplaceCodes[source] ?? null,
  };
}

/**
 * The file the seller uploads back to the order's marketplace (Amazon's shipping confirmation TSV), made by the
 * marketplace from every bought label in row order (a split order item gives several); null when the marketplace
 * takes no such file. The marketplaces' writers (and the spreadsheet libraries they need) are loaded by the first
 * order that finishes, not at every start.
 */
export async function confirmationFile(source: OrderSource, rows: BulkRowRecord[]): Promise<Buffer | null> {
  const { marketplaceOf } = await import('@flatship/order-files/marketplaces');
  const marketplace = marketplaceOf(source);
  if (!marketplace.confirmationFile) return null;
  const shipped = rows
    .filter((r) => r.status === 'completed' && r.trackingNumber)
    .map((r) => shippedPackage(source, r));
  return Buffer.from(marketplace.confirmationFile(shipped));
}

/** One PDF with every bought label's pages, in row order. */
export const mergeLabelPdfs = (pdfs: Buffer[]): Promise<Buffer> => mergePdfs(pdfs);
