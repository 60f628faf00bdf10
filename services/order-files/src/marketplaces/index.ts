export { LISTED_MARKETPLACE_PLUGINS, MARKETPLACE_PLUGINS, marketplaceOf } from './registry';
export { DETECT_SURE, type MappedRows, type MarketplacePlugin, type ShippedPackage } from './types';
