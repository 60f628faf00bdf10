import { MARKETPLACES, type OrderSource } from '@flatship/proto';
import { amazonMarketplace } from './amazon';
import { ebayMarketplace } from './ebay';
import { etsyMarketplace } from './etsy';
import { flatshipCsvMarketplace } from './flatship-csv';
import { shopifyMarketplace } from './shopify';
import { testMarketplace } from './test-market';
import { tiktokMarketplace } from './tiktok';
import type { MarketplacePlugin } from './types';
import { walmartMarketplace } from './walmart';

/**
 * Every marketplace's code, by id. Typed against proto's `MARKETPLACES` (the one list of ids, which proto keeps
 * because it cannot import these readers): a marketplace listed there without a plugin here, or here without an
 * entry there, does not compile.
 */
const PLUGINS: { readonly [Id in OrderSource]: MarketplacePlugin<Id> } = {
  csv: flatshipCsvMarketplace,
  amazon: amazonMarketplace,
  walmart: walmartMarketplace,
  ebay: ebayMarketplace,
  tiktok: tiktokMarketplace,
  shopify: shopifyMarketplace,
  etsy: etsyMarketplace,
  'test-market': testMarketplace,
};

/** Every marketplace, in proto's order. */
export const MARKETPLACE_PLUGINS: readonly MarketplacePlugin[] = MARKETPLACES.map((m) => PLUGINS[m.id]);

/** The marketplaces a customer's upload is recognised as: all but the test-only ones. */
export const LISTED_MARKETPLACE_PLUGINS: readonly MarketplacePlugin[] = MARKETPLACE_PLUGINS.filter(
  (p) => MARKETPLACES.find((m) => m.id === p.id)?.listed,
);

export const marketplaceOf = (id: OrderSource): MarketplacePlugin => PLUGINS[id];
