export { buildGateway, type GatewayDeps } from './app';
export { type GatewayConfig, GatewayConfigSchema, loadGatewayConfig } from './config';
export { isPublicRoute, PUBLIC_ROUTES, ROUTE_TABLE, resolveRoute, type ServiceName } from './route-table';
export { createBusUserChangeFeed, type UserChangeFeed } from './user-changes';
