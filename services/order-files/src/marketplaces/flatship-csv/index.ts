import { templateRowsFromGrid, templateScore } from '../../csv';
import type { MarketplacePlugin } from '../types';

/** The platform's own Bulk Template CSV: every row names its sender and package. */
export const flatshipCsvMarketplace: MarketplacePlugin<'csv'> = {
  id: 'csv',
  carriesSender: true,
  detect: templateScore,
  read: (grid) => ({ rows: templateRowsFromGrid(grid), warnings: [] }),
};
