import type { MarketplaceCarrierCode, OrderSource } from '@flatship/proto';
import type { BulkRow } from '../bulk-row';
import type { Grid } from '../grid';

/** What a marketplace's reader gives: bulk rows (recipient side only for a marketplace export) and warnings. */
export interface MappedRows {
  rows: BulkRow[];
  warnings: string[];
}

/** `detect` for a file whose signature columns are all there; a partial match scores its column count (1–99). */
export const DETECT_SURE = 100;

/** One bought label of a finished bulk order, as a marketplace's confirmation file needs it. */
export interface ShippedPackage {
  orderId: string;
  orderItemId: string;
  sku: string;
  /** The package's description: the marketplace's item title unless a SKU preset gave one. */
  description: string;
  /** The row's Reference 1: Walmart's reader keeps the customer order number (`Order#`) there, which its file echoes. */
  reference1: string;
  /** Items in this parcel (a split order item gives several parcels). */
  quantity: number;
  /** When the label was bought, `YYYY-MM-DD` (UTC). */
  shipDate: string;
  trackingNumber: string;
  /** The carrier's id on labels (`usps`), and the service bought (`USPS Ground Advantage`). */
  courier: string;
  serviceName: string;
  /** The carrier's codes for this marketplace (`CarrierPlugin.marketplaceCodes[id]`); null when it declares none or is gone. */
  carrier: MarketplaceCarrierCode | null;
}

/**
 * One marketplace whose order files the bulk screen reads. Its public facts (name, file endings, confirmation
 * file's extension and content type) are its entry in proto's `MARKETPLACES`; this is its code.
 */
export interface MarketplacePlugin<Id extends OrderSource = OrderSource> {
  readonly id: Id;
  /**
   * Whether its rows name their own sender (the template). A marketplace export names only the buyer: the
   * user's first saved address ships every row, which is split by each SKU's maxQty and sized by SKU presets.
   */
  readonly carriesSender: boolean;
  /**
   * How sure it is that this is its file, judged by column names only: 0 = not its file; DETECT_SURE when its
   * signature columns are there; 1–99 for a partial match (how many of its columns are there; fewer than 2 count as
   * no match), so a file missing a column still reaches the reader that names what is missing. `headerRows` are the file's first rows (up to
   * 50, blank ones included); the highest score wins, a tie goes to the marketplace whose usual extension it is. Look at header candidates
   * only, never through data rows: running header matching over a file's cells slowed the whole read in Chromium
   * by ~17 ms (`make bench-files` shows it).
   */
  detect(headerRows: readonly string[][]): number;
  /** The file (decoded into cells) as bulk rows in file order, with the marketplace's quirks handled. */
  read(grid: Grid): MappedRows;
  /**
   * The file the seller uploads back to the marketplace (shipping confirmation / tracking), from the order's
   * bought labels in row order; absent when the marketplace takes none. Its extension and content type are in
   * the marketplace's `confirmationFile` entry in proto. Every cell must go through `neutralizeCell`.
   */
  confirmationFile?(shipped: readonly ShippedPackage[]): Uint8Array;
}
