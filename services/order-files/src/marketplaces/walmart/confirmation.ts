import { xlsxFile } from '../../xlsx-file';
import type { ShippedPackage } from '../types';

/** The 37 columns of Walmart Seller Center's order export ("Po Details"), as it writes them. */
export const WALMART_EXPORT_HEADER = [
  'PO#',
  'Order#',
  'Order Date',
  'Ship By',
  'Delivery Date',
  'Customer Name',
  'Customer Shipping Address',
  'Customer Phone Number',
  'Ship to Address 1',
  'Ship to Address 2',
  'City',
  'State',
  'Zip',
  'Segment',
  'FLIDS',
  'Line#',
  'UPC',
  'Status',
  'Item Description',
  'Shipping Method',
  'Shipping Tier',
  'Shipping SLA',
  'Shipping Config SOurce',
  'Qty',
  'SKU',
  'Item Cost',
  'Shipping Cost',
  'Tax',
  'Update Status',
  'Update Qty',
  'Carrier',
  'Tracking Number',
  'Tracking Url',
  'Seller Order NO',
  'Fulfillment Entity',
  'Replacement Order',
  'Original Customer Order Id',
] as const;

export const WALMART_EXPORT_SHEET = 'Po Details';
/** What the `Update Status` column takes to mark a line shipped. */
export const WALMART_SHIP_STATUS = 'Ship';

/** Where USPS shows a tracking number's progress: Walmart wants a tracking URL with each shipment. */
export const uspsTrackingUrl = (trackingNumber: string): string =>
  `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(trackingNumber)}`;

const column = (name: (typeof WALMART_EXPORT_HEADER)[number]) => WALMART_EXPORT_HEADER.indexOf(name);

/**
 * The order export with its update columns filled, one row per package: a PO line shipped whole is one row, as in
 * the export; a line split into several packages (the SKU's max quantity) gives one row per package, each with its
 * own `Update Qty`, which is how the export ships part of a line. The reader kept `PO#` as the row's order id,
 * `Line#` as its item id and `Order#` as its Reference 1; the export's other columns (customer, prices) are left
 * blank: the update is matched by purchase order and line.
 */
export function walmartTrackingFile(shipped: readonly ShippedPackage[]): Uint8Array {
  const rows = shipped.map((p) => {
    const row: (string | number)[] = WALMART_EXPORT_HEADER.map(() => '');
    const isUsps = p.courier.toLowerCase() === 'usps';
    row[column('PO#')] = p.orderId;
    row[column('Order#')] = p.reference1;
    row[column('Line#')] = p.orderItemId;
    row[column('SKU')] = p.sku;
    row[column('Qty')] = p.quantity;
    row[column('Update Status')] = WALMART_SHIP_STATUS;
    row[column('Update Qty')] = p.quantity;
    row[column('Carrier')] = p.carrier?.carrierName ?? p.courier.toUpperCase();
    row[column('Tracking Number')] = p.trackingNumber;
    row[column('Tracking Url')] = isUsps ? uspsTrackingUrl(p.trackingNumber) : '';
    return row;
  });
  return xlsxFile([{ name: WALMART_EXPORT_SHEET, rows: [[...WALMART_EXPORT_HEADER], ...rows] }]);
}
