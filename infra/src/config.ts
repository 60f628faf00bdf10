import { resolve } from 'node:path';
import { loadConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';
import { REPO_ROOT } from './paths';

export const LauncherConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 8080, description: 'port the gateway listens on' }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'interface the gateway listens on' }),
  DATA_DIR: Type.String({ minLength: 1, default: '.data', description: 'where the database, keys and logs live' }),
  ADMIN_EMAIL: Type.String({
    pattern: '^[^@\\s]+@[^@\\s]+$',
    default: 'admin@flatship.local',
    description: 'email of the first admin account',
  }),
  ADMIN_PASSWORD: Type.Optional(
    Type.String({ minLength: 8, description: 'password of the first admin account; generated when unset' }),
  ),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'log level passed to every service' },
  ),
  INTERNAL_PORTS: Type.Union([Type.Literal('fixed'), Type.Literal('random')], {
    default: 'fixed',
    description: "'fixed' uses each service's usual port when free; 'random' picks free ports (parallel stacks)",
  }),
  BUILD_WEB: Type.Union([Type.Literal('auto'), Type.Literal('never')], {
    default: 'auto',
    description: "'auto' rebuilds the web app when its sources are newer than web/dist",
  }),
  READY_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 60_000, description: 'how long to wait for readiness' }),
  FLATSHIP_SERVICES_ROOT: Type.String({
    minLength: 1,
    default: REPO_ROOT,
    description: 'directory the service registry is resolved against (tests point it at fixtures)',
  }),
});

export type LauncherConfig = Static<typeof LauncherConfigSchema> & { dataDir: string; servicesRoot: string };

export function loadLauncherConfig(env: Record<string, string | undefined> = process.env): LauncherConfig {
  const config = loadConfig(LauncherConfigSchema, env);
  return {
    ...config,
    dataDir: resolve(REPO_ROOT, config.DATA_DIR),
    servicesRoot: resolve(REPO_ROOT, config.FLATSHIP_SERVICES_ROOT),
  };
}
