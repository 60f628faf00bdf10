import { resolve } from 'node:path';
import { loadConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';
import { REPO_ROOT } from './paths';

export const LauncherConfigSchema = Type.Object({
  PORT: Type.Integer({
    minimum: 1,
    maximum: 65535,
    default: 8080,
    description: 'port of the gateway, i.e. of the URL you open',
  }),
  HOST: Type.String({
    minLength: 1,
    default: '127.0.0.1',
    description: 'interface the gateway listens on (0.0.0.0 to reach it from other machines)',
  }),
  DATA_DIR: Type.String({
    minLength: 1,
    default: '.data',
    description:
      'where the database, keys, label files and logs live, relative to the repository root; delete it to start from scratch',
  }),
  ADMIN_EMAIL: Type.String({
    pattern: '^[^@\\s]+@[^@\\s]+$',
    default: 'admin@flatship.local',
    description: 'email of the first admin account',
  }),
  ADMIN_PASSWORD: Type.Optional(
    Type.String({
      minLength: 8,
      shownDefault: 'generated, shown once',
      description: 'password of the first admin account; only used while no admin exists',
    }),
  ),
  PUBLIC_URL: Type.Optional(
    Type.String({
      minLength: 1,
      shownDefault: 'the printed address',
      description:
        'where people open Flatship when a proxy or a domain is in front of it; password reset emails link there',
    }),
  ),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'log level given to every service' },
  ),
  INTERNAL_PORTS: Type.Union([Type.Literal('fixed'), Type.Literal('random')], {
    default: 'fixed',
    description:
      'fixed: the services and PostgreSQL (4140) use their usual ports when free; random: free ports, so several stacks can run side by side',
  }),
  BUILD_WEB: Type.Union([Type.Literal('auto'), Type.Literal('never')], {
    default: 'auto',
    description:
      'auto rebuilds the web app when web/src, web/prerender or web/index.html is newer than web/dist; never skips it',
  }),
  READY_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    default: 60_000,
    description:
      'how long to wait for every process to be ready before giving up (the message names the process and its log)',
  }),
  FLATSHIP_SERVICES_ROOT: Type.String({
    minLength: 1,
    default: REPO_ROOT,
    shownDefault: 'the repository root',
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
