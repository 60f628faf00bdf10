export { type AdminAppDeps, buildApp } from './app';
export { type AdminConfig, AdminConfigSchema } from './config';
