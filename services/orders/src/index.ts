/** The orders service as a library: its app and adapters for tests and tools. The label worker uses `./worker`. */
export { createLocalFileStore } from './adapters/local-file-store';
export { createPaymentsLedger } from './adapters/payments-ledger';
export { createPricingQuotes } from './adapters/pricing-quotes';
export { buildApp, createDomainDeps, type OrdersAppDeps } from './app';
export { type OrdersConfig, OrdersConfigSchema } from './config';
export { migrations, ORDERS_SCHEMA } from './db/migrations';
export type { CarrierPort, FileStore, LedgerPort, QuotePort } from './domain/ports';
export { validateBulkItem, validateOrderBody, validateShipment } from './domain/validate-shipment';
