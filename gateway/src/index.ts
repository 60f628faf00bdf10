export { buildGateway, type GatewayDeps } from './app';
export { createBusProgressFeed, type ProgressFeed } from './bulk-progress';
export { type GatewayConfig, GatewayConfigSchema, loadGatewayConfig } from './config';
export { createOrderLookup, type OrderLookup } from './order-lookup';
export { isPublicRoute, PUBLIC_ROUTES, ROUTE_TABLE, resolveRoute, type ServiceName } from './route-table';
export { createBusUserChangeFeed, type UserChangeFeed } from './user-changes';
