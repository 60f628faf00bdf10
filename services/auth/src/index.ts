export { type AuthAppDeps, buildApp } from './app';
export { type AuthConfig, AuthConfigSchema } from './config';
export { AUTH_SCHEMA, migrations } from './db/migrations';
