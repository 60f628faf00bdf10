export { buildApp, createDomainDeps, type OrdersAppDeps } from './app';
export { type OrdersConfig, OrdersConfigSchema } from './config';
export { migrations, ORDERS_SCHEMA } from './db/migrations';
export { validateShipment } from './domain/validate-shipment';
