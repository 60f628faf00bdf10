import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { httpUrl, reachableHost } from './paths';

/** What every service's environment is built from. */
export interface StackContext {
  databaseUrl: string;
  jwtPublicKey: string;
  jwtPrivateKey: string;
  internalSecret: string;
  logLevel: string;
  /** Gateway's public listen address. */
  host: string;
  port: number;
  /** Where people open the product; auth's password reset links point there. */
  publicUrl: string;
  staticDir: string;
  /** Where services keep files they produce (label PDFs, bulk outputs). */
  filesDir: string;
  adminEmail: string;
  adminPassword?: string;
  /** Base URLs of the services that exist, by name. */
  urls: Record<string, string>;
  /** Keys of the local BTCPay simulator (generated once per data directory) and where it keeps invoices. */
  btcpay: { apiKey: string; webhookSecret: string; dataFile: string; publicUrl: string };
  /** The gateway's management listener (/metrics), on loopback; its default (9464) when unset. */
  gatewayMetricsPort?: number;
}

export interface ServiceDefinition {
  name: string;
  /** Directory relative to the services root, the process's working directory. */
  dir: string;
  /** Built entry relative to the services root, run with plain `node`; `<dir>/dist/main.js` when absent. */
  entry?: string;
  /** Its TypeScript entry relative to the services root; `<dir>/src/main.ts` when absent. */
  source?: string;
  /** Listens on the gateway's host instead of loopback, because browsers talk to it directly. */
  isPublic?: boolean;
  /** Usual port; the gateway's comes from the launcher's PORT instead. */
  port: number;
  /** Node and V8 options of its process (LEAN_HEAP when absent). */
  nodeArgs?: readonly string[];
  env(ctx: StackContext, self: { port: number }): Record<string, string>;
}

/** How the gateway and the services find each other; names match the services' config variables. */
const UPSTREAM_VARS: Record<string, string> = {
  auth: 'AUTH_URL',
  orders: 'ORDERS_URL',
  payments: 'PAYMENTS_URL',
  'services-pricing': 'PRICING_URL',
  admin: 'ADMIN_URL',
};

/**
 * Processes the gateway does not route to but that the stack needs (the
 * simulator, the label worker): the gateway's own readiness waits for them,
 * so it never says "ready" while the launcher is still waiting.
 */
function readyAlso(ctx: StackContext): Record<string, string> {
  const pairs = Object.entries(ctx.urls)
    .filter(([name]) => !(name in UPSTREAM_VARS))
    .map(([name, url]) => `${name}=${url}`);
  return pairs.length > 0 ? { READY_ALSO: pairs.join(',') } : {};
}

function upstreams(ctx: StackContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, variable] of Object.entries(UPSTREAM_VARS)) {
    const url = ctx.urls[name];
    if (url) env[variable] = url;
  }
  return env;
}

/** The simulator's one store; payments is configured with the same id. */
export const BTCPAY_STORE_ID = 'flatship-local-store';
export const BTCPAY = 'btcpay';

/** Browsers reach a wildcard listener on this machine through loopback; any other host as given. */
export const btcpayPublicUrl = (host: string, port: number) => httpUrl(reachableHost(host), port);

/** Payments talks to BTCPay when the simulator runs; without it, deposits are off. */
function btcpayClient(ctx: StackContext): Record<string, string> {
  const url = ctx.urls[BTCPAY];
  if (!url) return {};
  return {
    BTCPAY_URL: url,
    BTCPAY_STORE_ID,
    BTCPAY_API_KEY: ctx.btcpay.apiKey,
    BTCPAY_WEBHOOK_SECRET: ctx.btcpay.webhookSecret,
  };
}

const common = (ctx: StackContext, self: { port: number }) => ({
  PORT: String(self.port),
  HOST: '127.0.0.1',
  LOG_LEVEL: ctx.logLevel,
  DATABASE_URL: ctx.databaseUrl,
  JWT_PUBLIC_KEY: ctx.jwtPublicKey,
  INTERNAL_SECRET: ctx.internalSecret,
  ...upstreams(ctx),
});

/**
 * V8 gives every process a young generation of two 16 MB semi-spaces; loading a service's code at start fills it,
 * and an idle process keeps it at that size, about 30 MB of each process's resident memory. Services whose
 * requests are small do as well with 1 MB semi-spaces (V8's own starting size): short-lived objects are collected
 * more often, each time in well under a millisecond. They also run with V8's `--optimize-for-size`, which keeps
 * their heaps and compiled code small at some cost in speed that their small requests do not notice (about 4 MB a
 * process once idle).
 */
export const LEAN_HEAP: readonly string[] = ['--max-semi-space-size=1', '--optimize-for-size'];

/** The processes where a burst of work (a 1,000-row bulk order, every call through the gateway) allocates most. */
export const BUSY_HEAP: readonly string[] = ['--max-semi-space-size=4'];

/** The options a service's process starts with. */
export const nodeArgsOf = (def: ServiceDefinition): readonly string[] => def.nodeArgs ?? LEAN_HEAP;

/**
 * Every service the embedded topology can run, in start order: the gateway
 * comes last because its readiness depends on everyone else's.
 */
export const SERVICE_REGISTRY: readonly ServiceDefinition[] = [
  {
    name: BTCPAY,
    dir: 'infra',
    entry: 'infra/dist/btcpay.js',
    source: 'infra/src/btcpay/main.ts',
    port: 4170,
    isPublic: true,
    env: (ctx, self) => ({
      PORT: String(self.port),
      HOST: ctx.host,
      LOG_LEVEL: ctx.logLevel,
      BTCPAY_STORE_ID,
      BTCPAY_API_KEY: ctx.btcpay.apiKey,
      BTCPAY_WEBHOOK_SECRET: ctx.btcpay.webhookSecret,
      // Through the gateway's public address, as a real BTCPay Server would call it.
      BTCPAY_WEBHOOK_URL: `${httpUrl(reachableHost(ctx.host), ctx.port)}/api/payment/webhook/btcpay`,
      BTCPAY_PUBLIC_URL: ctx.btcpay.publicUrl,
      BTCPAY_DATA_FILE: ctx.btcpay.dataFile,
    }),
  },
  {
    name: 'auth',
    dir: 'services/auth',
    port: 4101,
    env: (ctx, self) => ({
      ...common(ctx, self),
      JWT_PRIVATE_KEY: ctx.jwtPrivateKey,
      PUBLIC_URL: ctx.publicUrl,
      ADMIN_EMAIL: ctx.adminEmail,
      ...(ctx.adminPassword ? { ADMIN_PASSWORD: ctx.adminPassword } : {}),
    }),
  },
  {
    name: 'payments',
    dir: 'services/payments',
    port: 4103,
    env: (ctx, self) => ({ ...common(ctx, self), ...btcpayClient(ctx) }),
  },
  { name: 'services-pricing', dir: 'services/services-pricing', port: 4104, env: common },
  {
    name: 'orders',
    dir: 'services/orders',
    port: 4102,
    nodeArgs: BUSY_HEAP,
    env: (ctx, self) => ({ ...common(ctx, self), FILES_DIR: ctx.filesDir }),
  },
  { name: 'admin', dir: 'services/admin', port: 4105, env: common },
  {
    name: 'label-worker',
    dir: 'services/label-worker',
    port: 4106,
    nodeArgs: BUSY_HEAP,
    env: (ctx, self) => ({ ...common(ctx, self), FILES_DIR: ctx.filesDir }),
  },
  {
    name: 'gateway',
    dir: 'gateway',
    port: 8080,
    nodeArgs: BUSY_HEAP,
    env: (ctx, self) => ({
      ...common(ctx, self),
      HOST: ctx.host,
      STATIC_DIR: ctx.staticDir,
      ...readyAlso(ctx),
      // Picked like the services' ports, so two stacks on one machine do not both want the default.
      ...(ctx.gatewayMetricsPort ? { METRICS_PORT: String(ctx.gatewayMetricsPort) } : {}),
      // The web app loads the BTCPay modal script and frames its checkout page.
      ...(ctx.urls[BTCPAY] ? { CSP_EXTRA_ORIGINS: ctx.btcpay.publicUrl } : {}),
    }),
  },
];

export const GATEWAY = 'gateway';

/** The gateway's management listener's usual port in the embedded topology (any free one when it is taken). */
export const GATEWAY_METRICS_PORT = 4107;

/** The embedded PostgreSQL's usual port (any free one when it is taken, or with INTERNAL_PORTS=random). */
export const POSTGRES_PORT = 4140;

/** The built file a service runs from (`npm run build`, or `make start`, which builds what changed). */
export const mainFile = (root: string, def: ServiceDefinition) =>
  def.entry ? join(root, def.entry) : join(root, def.dir, 'dist', 'main.js');

export const sourceFile = (root: string, def: ServiceDefinition) =>
  def.source ? join(root, def.source) : join(root, def.dir, 'src', 'main.ts');

/** Only services whose code exists (as sources or built) run, so the launcher works while the product grows. */
export function presentServices(root: string): ServiceDefinition[] {
  return SERVICE_REGISTRY.filter((def) => existsSync(sourceFile(root, def)) || existsSync(mainFile(root, def)));
}

/** Services whose built entry is missing, named with the file it should be. */
export function unbuiltServices(root: string, services: readonly ServiceDefinition[]): string[] {
  return services
    .filter((def) => !existsSync(mainFile(root, def)))
    .map((def) => `${def.name} (${mainFile(root, def)})`);
}

/** Every variable the launcher sets for some service; the rest of its own environment passes through. */
export const OWNED_VARIABLES = new Set([
  'PORT',
  'HOST',
  'LOG_LEVEL',
  'DATABASE_URL',
  'JWT_PUBLIC_KEY',
  'JWT_PRIVATE_KEY',
  'INTERNAL_SECRET',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'STATIC_DIR',
  'FILES_DIR',
  'DATA_DIR',
  'BTCPAY_URL',
  'BTCPAY_STORE_ID',
  'BTCPAY_API_KEY',
  'BTCPAY_WEBHOOK_SECRET',
  'BTCPAY_WEBHOOK_URL',
  'BTCPAY_PUBLIC_URL',
  'BTCPAY_DATA_FILE',
  'READY_ALSO',
  ...Object.values(UPSTREAM_VARS),
]);
