import { generateKeyPairSync } from 'node:crypto';
import { AdminConfigSchema } from '@flatship/admin';
import { AuthConfigSchema } from '@flatship/auth';
import { GatewayConfigSchema } from '@flatship/gateway';
import { ConfigError, loadConfig } from '@flatship/kit';
import { LabelWorkerConfigSchema } from '@flatship/label-worker';
import { OrdersConfigSchema } from '@flatship/orders';
import { PaymentsConfigSchema } from '@flatship/payments';
import { PricingConfigSchema } from '@flatship/services-pricing';
import type { TObject } from 'typebox';
import { RUNNABLES } from '../../build/build.mjs';
import { BtcpayConfigSchema } from '../../src/btcpay/config';

// What the deployment descriptions (docker-compose.yml, infra/k8s) are checked
// against: each process's own configuration schema, the one it loads at start.

export interface DeployedProcess {
  /** Workspace the image is built from (SERVICE_DIR). */
  workspace: string;
  schema: TObject;
  /** The database login role it connects as; none for processes without a database. */
  role?: string;
  /** Processes that speak to the event bus and so need its settings. */
  onBus: boolean;
}

export const PROCESSES: Record<string, DeployedProcess> = {
  auth: { workspace: 'services/auth', schema: AuthConfigSchema, role: 'flatship_auth', onBus: true },
  orders: { workspace: 'services/orders', schema: OrdersConfigSchema, role: 'flatship_orders', onBus: true },
  payments: { workspace: 'services/payments', schema: PaymentsConfigSchema, role: 'flatship_payments', onBus: true },
  'services-pricing': {
    workspace: 'services/services-pricing',
    schema: PricingConfigSchema,
    role: 'flatship_pricing',
    onBus: true,
  },
  admin: { workspace: 'services/admin', schema: AdminConfigSchema, role: 'flatship_admin', onBus: true },
  // The label worker works on the orders schema, so it connects as orders' role.
  'label-worker': {
    workspace: 'services/label-worker',
    schema: LabelWorkerConfigSchema,
    role: 'flatship_orders',
    onBus: true,
  },
  gateway: { workspace: 'gateway', schema: GatewayConfigSchema, onBus: true },
  btcpay: { workspace: 'infra', schema: BtcpayConfigSchema, onBus: false },
};

/** The event bus settings every process on the bus reads (kit's openBus). */
export const BUS_VARIABLES = ['EVENT_BUS', 'KAFKA_BROKERS', 'KAFKA_CLIENT_ID'];

/** Label worker settings of the carrier purchase pool. */
const CARRIER_POOL_VARIABLES = ['CARRIER_CONCURRENCY', 'CARRIER_RATE_LIMIT'];

/** What the infra image runs, by compiled entry: the simulator and the one-off jobs. */
export const INFRA_JOBS = ['infra/dist/create-topics.js', 'infra/dist/db-setup.js', 'infra/dist/btcpay.js'];

/** Whether the build (infra/build/build.mjs, the one list of entries) produces this file. */
export const isBuiltEntry = (path: string) => RUNNABLES.some((r) => r.out === path);

const keys = generateKeyPairSync('ed25519', {
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

/**
 * Stand-ins for the secrets an operator provides, shaped like real ones, so
 * the rest of each environment can be checked by the real schema.
 */
export const SAMPLE_SECRETS: Record<string, string> = {
  JWT_PUBLIC_KEY: keys.publicKey,
  JWT_PRIVATE_KEY: keys.privateKey,
  INTERNAL_SECRET: 'internal-secret-of-32-characters',
  ADMIN_PASSWORD: 'first admin password',
  POSTGRES_PASSWORD: 'postgres-password',
  DATABASE_ADMIN_URL: 'postgres://flatship:postgres-password@postgres:5432/flatship',
  DB_PASSWORD_AUTH: 'auth-password',
  DB_PASSWORD_ORDERS: 'orders-password',
  DB_PASSWORD_PAYMENTS: 'payments-password',
  DB_PASSWORD_PRICING: 'pricing-password',
  DB_PASSWORD_ADMIN: 'admin-password',
  BTCPAY_API_KEY: 'btcpay-api-key-0123456789',
  BTCPAY_WEBHOOK_SECRET: 'btcpay-webhook-secret-0123456789',
};

/**
 * Problems with one process's environment: variables it does not read, and
 * whatever its configuration schema says about the values (missing required
 * variables, bad URLs, out-of-range numbers).
 */
export function environmentProblems(name: string, env: Record<string, string>): string[] {
  const proc = PROCESSES[name];
  if (!proc) return [`${name} is not a Flatship process`];
  const problems: string[] = [];
  const known = new Set([
    ...Object.keys(proc.schema.properties),
    ...(proc.onBus ? BUS_VARIABLES : []),
    ...(name === 'label-worker' ? CARRIER_POOL_VARIABLES : []),
    // libpq's variable, read by the PostgreSQL client: the password kept out of DATABASE_URL.
    ...(proc.role ? ['PGPASSWORD'] : []),
  ]);
  for (const key of Object.keys(env)) {
    if (!known.has(key)) problems.push(`${name}: ${key} is set but ${name} reads no such variable`);
  }
  if (proc.onBus) {
    if (env.EVENT_BUS !== 'kafka') problems.push(`${name}: EVENT_BUS is ${JSON.stringify(env.EVENT_BUS)}, not kafka`);
    if (!env.KAFKA_BROKERS) problems.push(`${name}: KAFKA_BROKERS is not set`);
  }
  try {
    loadConfig(proc.schema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const problem of err.problems) {
      // On the Kafka bus the gateway keeps nothing in PostgreSQL, so it is given no database.
      if (name === 'gateway' && env.EVENT_BUS === 'kafka' && problem.startsWith('DATABASE_URL is required')) continue;
      problems.push(`${name}: ${problem}`);
    }
  }
  if (proc.role) {
    const url = env.DATABASE_URL ?? '';
    const user = /^postgres(?:ql)?:\/\/([^:@/]+)/.exec(url)?.[1];
    if (user !== proc.role) problems.push(`${name}: DATABASE_URL logs in as ${user ?? 'nobody'}, not ${proc.role}`);
  } else if (name === 'gateway' && env.DATABASE_URL) {
    problems.push('gateway: DATABASE_URL is set, but the gateway on the Kafka bus has no database');
  }
  return problems;
}
