export { buildApp, type PricingAppDeps } from './app';
export { migrations, PRICING_SCHEMA } from './db/migrations';
export { billedWeight } from './domain/billing';
export { parsePriceList } from './domain/price-list';
