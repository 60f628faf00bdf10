import type { MarketplacePlugin } from '../types';
import { walmartRowsFromGrid, walmartScore } from './read';

/** Walmart Seller Center's order export ("Po Details", .xlsx, or saved as CSV). Tracking goes back by API or its own upload (not yet written). */
export const walmartMarketplace: MarketplacePlugin<'walmart'> = {
  id: 'walmart',
  carriesSender: false,
  detect: walmartScore,
  read: walmartRowsFromGrid,
};
