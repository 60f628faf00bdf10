import type { MarketplacePlugin } from '../types';
import { walmartTrackingFile } from './confirmation';
import { walmartRowsFromGrid, walmartScore } from './read';

/** Walmart Seller Center's order export ("Po Details", .xlsx, or saved as CSV); tracking goes back as the same export with its update columns filled. */
export const walmartMarketplace: MarketplacePlugin<'walmart'> = {
  id: 'walmart',
  carriesSender: false,
  detect: walmartScore,
  read: walmartRowsFromGrid,
  confirmationFile: walmartTrackingFile,
};
