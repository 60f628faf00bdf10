import { CARRIER_ACCOUNTS_CONFIG, carrierRateLimitConfig, carriersConfig } from '@flatship/carriers';
import { BaseConfig, portConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';

const url = (description: string) => Type.String({ pattern: '^https?://', description });

export const OrdersConfigSchema = Type.Object({
  PORT: portConfig(4102),
  ...BaseConfig,
  AUTH_URL: url('base URL of the auth service (token states)'),
  PRICING_URL: url('base URL of services-pricing (quotes)'),
  PAYMENTS_URL: url('base URL of the payments service (ledger)'),
  FILES_DIR: Type.String({
    minLength: 1,
    description: 'directory where label files are kept (DATA_DIR/files with make start; shared with label-worker)',
  }),
  CARRIERS: carriersConfig('the carriers whose services are sold, each label bought from the one selling its service'),
  CARRIER_FAILURE_RATE: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0,
    description: 'share of sandbox carrier purchases that fail, from 0 to 1, to exercise refunds',
  }),
  CARRIER_RATE_LIMIT: carrierRateLimitConfig(),
  TOKEN_STATE_TTL_MS: Type.Integer({
    minimum: 0,
    default: 5000,
    description: 'how long a token state read from auth is trusted when no user.changed event arrives',
  }),
  LABEL_REQUESTED_PARTITIONS: Type.Integer({
    minimum: 1,
    maximum: 256,
    default: 8,
    description:
      "partitions of label.requested when this service creates the topic; caps label-worker parallelism, so keep it at least the label workers' total concurrency",
  }),
  RETRY_WAIT_MS: Type.Integer({
    minimum: 0,
    default: 15_000,
    description: 'how long retry-failed waits for the retried labels before answering',
  }),
  PURCHASE_LOCK_CONNECTIONS: Type.Integer({
    minimum: 1,
    default: 20,
    description:
      'database connections set aside, on top of the main pool of 10, to hold the locks of single-label purchases at work; caps how many run at once in one process',
  }),
  DOWNLOAD_TOKEN_TTL_MS: Type.Integer({
    minimum: 10_000,
    maximum: 3_600_000,
    default: 300_000,
    description: 'how long a download link (label PDF, bulk order file) works after the web app asked for it',
  }),
  RECONCILE_INTERVAL_MS: Type.Integer({
    minimum: 1000,
    default: 60_000,
    description: 'how often single-label purchases cut off by a crash are settled',
  }),
  REFUND_WINDOW_DAYS: Type.Integer({
    minimum: 1,
    maximum: 365,
    default: 30,
    description: 'how many days after purchase an unused label may be refunded (USPS takes refunds for 30 days)',
  }),
  REFUND_CHECK_INTERVAL_MS: Type.Integer({
    minimum: 100,
    default: 60_000,
    description: 'how often refunds still waiting for their carrier are sent again or asked about',
  }),
  REFUND_RECHECK_MS: Type.Integer({
    minimum: 0,
    default: 600_000,
    description:
      'how long a refund waiting for its carrier is left alone after a look (a USPS refund under review can take days)',
  }),
  // The live carriers' accounts (USPS_*, EASYPOST_*): checked at start when CARRIERS enables them.
  ...CARRIER_ACCOUNTS_CONFIG,
});
export type OrdersConfig = Static<typeof OrdersConfigSchema>;
