import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseConfig, type BusSettings, busSettingsOf, ConfigError, loadConfig, portConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';
import type { ServiceName } from './route-table';

const upstream = (service: string, whenUnset = '') =>
  Type.String({
    pattern: '^https?://[^/]',
    description: `base URL of the ${service} service${whenUnset}`,
  });
const unsetAnswers503 = '; unset, its routes answer 503';

// Accepts what @fastify/rate-limit's duration parser reads ("1 minute", "30s", "60000").
const DURATION = '^\\d+(\\.\\d+)?\\s*(ms|msecs?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)?$';

export const GatewayConfigSchema = Type.Object({
  ...BaseConfig,
  // The gateway keeps no data of its own: the database only carries the postgres event bus.
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      shownDefault: 'required with `EVENT_BUS=postgres`',
      description:
        'PostgreSQL connection URL of the postgres event bus (its bus schema, migrated at start: user.changed and bulk.progress in, impersonation.action out); not needed with EVENT_BUS=kafka',
    }),
  ),
  PORT: portConfig(8080),
  METRICS_PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 9464,
    description: 'port of the management listener serving /metrics and /routez; the public port answers them 404',
  }),
  MANAGEMENT_HOST: Type.String({
    default: '127.0.0.1',
    description: 'interface of the management listener; 0.0.0.0 in a pod so Prometheus can scrape it',
  }),
  AUTH_URL: upstream('auth'),
  ADMIN_URL: Type.Optional(upstream('admin', unsetAnswers503)),
  ORDERS_URL: Type.Optional(upstream('orders', `${unsetAnswers503} and order rooms cannot be joined`)),
  PAYMENTS_URL: Type.Optional(upstream('payments', unsetAnswers503)),
  PRICING_URL: Type.Optional(upstream('services-pricing', unsetAnswers503)),
  STATIC_DIR: Type.Optional(
    Type.String({
      shownDefault: '`web/dist` of the repository',
      description: 'directory of the built web app; relative paths are read from the working directory',
    }),
  ),
  RATE_LIMIT_AUTH_MAX: Type.Integer({
    minimum: 1,
    default: 20,
    description:
      'sign-in, registration, referral and sign-in-as attempts per client (and per email for sign-in) within RATE_LIMIT_WINDOW',
  }),
  RATE_LIMIT_WINDOW: Type.String({
    pattern: DURATION,
    default: '1 minute',
    description: 'the rate-limit window, e.g. "1 minute" or "30s"',
  }),
  TRUST_PROXY: Type.Boolean({
    default: false,
    description:
      'true only behind a load balancer that sets X-Forwarded-For and X-Forwarded-Proto (HSTS is sent only when it says https); otherwise clients could pick their own IP',
  }),
  TOKEN_STATE_TTL_MS: Type.Integer({
    minimum: 0,
    default: 5000,
    description:
      "how long a user's token state (role, blocked, token version) is cached: at worst, how long a blocked user's token is still accepted when a user.changed event is late",
  }),
  UPSTREAM_READY_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 2000,
    description: "timeout of each service's own /readyz, asked by the gateway's /readyz",
  }),
  READY_ALSO: Type.Optional(
    Type.String({
      pattern: '^\\s*([a-z][a-z0-9-]*=https?://[^\\s,]+\\s*(,\\s*|$))*$',
      description:
        'other processes that must be ready before the gateway is, as name=baseURL pairs separated by commas (the embedded launcher lists the BTCPay simulator and the label worker)',
    }),
  ),
  CSP_EXTRA_ORIGINS: Type.Optional(
    Type.String({
      pattern: '^(\\s*https?://[^\\s,]+\\s*,?)*$',
      description:
        'origins the web app may load scripts, frames and images from and connect to, their ws: or wss: too (payment modal, chat), space or comma separated',
    }),
  ),
  CHATWOOT_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/\\s]+/?$',
      description: 'Chatwoot installation of the live chat widget (as auth is told); its origin is allowed by the CSP',
    }),
  ),
});
type RawConfig = Static<typeof GatewayConfigSchema>;

export interface GatewayConfig {
  host: string;
  port: number;
  logLevel: RawConfig['LOG_LEVEL'];
  /** Set whenever the bus is postgres; the Kafka bus needs no database. */
  databaseUrl: string | undefined;
  bus: BusSettings;
  /** The bus's database pool (`DB_POOL_MAX`, `DB_POOL_IDLE_MS`). */
  dbPool: { max: number | undefined; idleTimeoutMs: number };
  jwtPublicKey: string;
  internalSecret: string;
  shutdownTimeoutMs: number;
  shutdownDrainMs: number;
  /** Where /metrics and /routez are served: a listener of their own, apart from the public port. */
  management: { host: string; port: number };
  /** Only the services that are configured; the others answer 503. */
  upstreams: Partial<Record<ServiceName, string>>;
  staticDir: string;
  rateLimit: { max: number; timeWindow: string };
  trustProxy: boolean;
  tokenStateTtlMs: number;
  upstreamReadyTimeoutMs: number;
  /** Processes the gateway does not route to but whose readiness its own depends on, by name. */
  readyAlso: Record<string, string>;
  cspExtraOrigins: string[];
}

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const c = loadConfig(GatewayConfigSchema, env);
  if (c.EVENT_BUS === 'postgres' && !c.DATABASE_URL) {
    throw new ConfigError([
      'DATABASE_URL is required but not set (the postgres event bus lives there; with EVENT_BUS=kafka it is not needed)',
    ]);
  }
  const upstreams: Partial<Record<ServiceName, string>> = { auth: trimSlash(c.AUTH_URL) };
  if (c.ADMIN_URL) upstreams.admin = trimSlash(c.ADMIN_URL);
  if (c.ORDERS_URL) upstreams.orders = trimSlash(c.ORDERS_URL);
  if (c.PAYMENTS_URL) upstreams.payments = trimSlash(c.PAYMENTS_URL);
  if (c.PRICING_URL) upstreams['services-pricing'] = trimSlash(c.PRICING_URL);
  const staticDir = c.STATIC_DIR ? resolve(c.STATIC_DIR) : resolve(REPO_ROOT, 'web/dist');
  return {
    host: c.HOST,
    port: c.PORT,
    logLevel: c.LOG_LEVEL,
    databaseUrl: c.DATABASE_URL,
    bus: busSettingsOf(c),
    dbPool: { max: c.DB_POOL_MAX, idleTimeoutMs: c.DB_POOL_IDLE_MS },
    jwtPublicKey: c.JWT_PUBLIC_KEY,
    internalSecret: c.INTERNAL_SECRET,
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: c.SHUTDOWN_DRAIN_MS,
    management: { host: c.MANAGEMENT_HOST, port: c.METRICS_PORT },
    upstreams,
    staticDir,
    rateLimit: { max: c.RATE_LIMIT_AUTH_MAX, timeWindow: c.RATE_LIMIT_WINDOW },
    trustProxy: c.TRUST_PROXY,
    tokenStateTtlMs: c.TOKEN_STATE_TTL_MS,
    upstreamReadyTimeoutMs: c.UPSTREAM_READY_TIMEOUT_MS,
    readyAlso: Object.fromEntries(
      (c.READY_ALSO ?? '')
        .split(',')
        .map((pair) => pair.trim())
        .filter(Boolean)
        .map((pair) => {
          const at = pair.indexOf('=');
          return [pair.slice(0, at), trimSlash(pair.slice(at + 1))];
        }),
    ),
    // The chat widget loads its script, its frame and its API calls from the Chatwoot origin.
    cspExtraOrigins: [
      ...new Set([
        ...(c.CSP_EXTRA_ORIGINS ?? '').split(/[\s,]+/).filter(Boolean),
        ...(c.CHATWOOT_BASE_URL ? [new URL(c.CHATWOOT_BASE_URL).origin] : []),
      ]),
    ],
  };
}
