import { delimitedText } from '../../delimited-text';
import type { MarketplacePlugin, ShippedPackage } from '../types';
import { ebayRowsFromGrid, ebayScore } from './read';

/** The columns of Seller Hub's "Add order tracking and shipping info" upload, in order. */
export const EBAY_TRACKING_COLUMNS = [
  'Shipping Status',
  'Order Number',
  'Item Number',
  'Item Title',
  'Custom Label',
  'Transaction ID',
  'Shipping Carrier Used',
  'Tracking Number',
];

/** `<Item Number>-<Transaction ID>` (as the reader keeps it) back into its two parts. */
function itemParts(orderItemId: string): [string, string] {
  const dash = orderItemId.indexOf('-');
  return dash < 0 ? [orderItemId, ''] : [orderItemId.slice(0, dash), orderItemId.slice(dash + 1)];
}

/**
 * One row per item, as eBay wants tracking on every item of an order. Each item of a multi-item order is its own
 * package, so it gets its own tracking number; an item split into several packages (its SKU's max quantity) gets
 * the tracking number of its first package in row order, since eBay takes one per item: the others are in the
 * results file.
 */
function trackingUpload(shipped: readonly ShippedPackage[]): Uint8Array {
  const firstOfItem = new Map<string, ShippedPackage>();
  for (const p of shipped) {
    const key = `${p.orderId}\n${p.orderItemId}`;
    if (!firstOfItem.has(key)) firstOfItem.set(key, p);
  }
  return delimitedText(
    [
      EBAY_TRACKING_COLUMNS,
      ...[...firstOfItem.values()].map((p) => {
        const [itemNumber, transactionId] = itemParts(p.orderItemId);
        return [
          'Shipped',
          p.orderId,
          itemNumber,
          p.description,
          p.sku,
          transactionId,
          p.carrier?.carrierName ?? p.courier,
          p.trackingNumber,
        ];
      }),
    ],
    ',',
  );
}

/** eBay Seller Hub's orders report (CSV); confirmed by the tracking upload CSV, one row per item. */
export const ebayMarketplace: MarketplacePlugin<'ebay'> = {
  id: 'ebay',
  carriesSender: false,
  detect: ebayScore,
  read: ebayRowsFromGrid,
  confirmationFile: trackingUpload,
};
