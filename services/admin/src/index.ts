export { type AdminAppDeps, buildApp } from './app';
export { type AdminConfig, AdminConfigSchema } from './config';
export { ADMIN_SCHEMA, migrations } from './db/migrations';
export { createRankingsStore, rebuildRankings } from './db/rankings-repo';
