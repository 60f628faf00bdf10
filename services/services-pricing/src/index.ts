export { buildApp, type PricingAppDeps } from './app';
export { type PricingConfig, PricingConfigSchema } from './config';
export { migrations, PRICING_SCHEMA } from './db/migrations';
export { billedWeight } from './domain/billing';
export { parsePriceList } from './domain/price-list';
