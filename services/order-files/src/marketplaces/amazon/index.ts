import { delimitedText } from '../../delimited-text';
import type { MarketplacePlugin, ShippedPackage } from '../types';
import { amazonRowsFromGrid, amazonScore } from './read';

/** The columns of Amazon's shipping-confirmation upload ("Auto-Confirm" file), in order. */
export const AMAZON_CONFIRMATION_COLUMNS = [
  'order-id',
  'order-item-id',
  'quantity',
  'ship-date',
  'carrier-code',
  'carrier-name',
  'tracking-number',
  'ship-method',
];

/** A carrier that declares no Amazon codes (or is no longer registered) goes as code Other, named by its id. */
const carrierColumns = (p: ShippedPackage): [string, string] =>
  p.carrier ? [p.carrier.carrierCode, p.carrier.carrierName] : ['Other', p.courier];

/** Amazon's unshipped-orders report (tab-delimited .txt, or saved as CSV); confirmed by a TSV, one line per label. */
export const amazonMarketplace: MarketplacePlugin<'amazon'> = {
  id: 'amazon',
  carriesSender: false,
  detect: amazonScore,
  read: amazonRowsFromGrid,
  confirmationFile: (shipped) =>
    delimitedText(
      [
        AMAZON_CONFIRMATION_COLUMNS,
        ...shipped.map((p) => [
          p.orderId,
          p.orderItemId,
          p.quantity,
          p.shipDate,
          ...carrierColumns(p),
          p.trackingNumber,
          p.serviceName,
        ]),
      ],
      '\t',
    ),
};
