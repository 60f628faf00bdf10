import type { MarketplacePlugin } from '../types';
import { tiktokTrackingFile } from './confirmation';
import { tiktokRowsFromGrid, tiktokScore } from './read';

/** TikTok Shop's order export (CSV with a BOM, or .xlsx sheet `OrderSKUList`); tracking goes back as its upload .xlsx. */
export const tiktokMarketplace: MarketplacePlugin<'tiktok'> = {
  id: 'tiktok',
  carriesSender: false,
  detect: tiktokScore,
  read: tiktokRowsFromGrid,
  confirmationFile: tiktokTrackingFile,
};
