import { CARRIER_ACCOUNTS_CONFIG, carrierRateLimitConfig, carriersConfig } from '@flatship/carriers';
import { BaseConfig, portConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';
import { defaultZplConversions } from './domain/zpl-work';

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
  PURCHASE_QUEUE: Type.Integer({
    minimum: 0,
    default: 20,
    description:
      'single-label purchases one process lets wait for one of the PURCHASE_LOCK_CONNECTIONS; one more is answered 503 ORDERS_BUSY with Retry-After at once',
  }),
  DOWNLOAD_TOKEN_TTL_MS: Type.Integer({
    minimum: 10_000,
    maximum: 3_600_000,
    default: 300_000,
    description: 'how long a download link (label PDF, bulk order file) works after the web app asked for it',
  }),
  ZPL_CONVERSIONS: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: defaultZplConversions(),
    shownDefault: 'one per core',
    description:
      'labels converted to ZPL (pdftoppm) at once in this process; more wait their turn, and a bulk order is prepared in the background',
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
  TRACKING_CHECK_INTERVAL_MS: Type.Integer({
    minimum: 100,
    default: 60_000,
    description: 'how often the tracking job looks for labels due a look at their carrier',
  }),
  TRACKING_BATCH: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 50,
    description:
      "labels the tracking job asks their carrier about per round, one after another: with TRACKING_CHECK_INTERVAL_MS, the cap on this process's tracking calls (keep it within the carrier account's tracking quota)",
  }),
  TRACKING_POLL_MS: Type.Integer({
    minimum: 0,
    default: 3_600_000,
    description:
      'how often a parcel not yet delivered is asked about while its label is at most TRACKING_FRESH_DAYS old',
  }),
  TRACKING_FRESH_DAYS: Type.Integer({
    minimum: 0,
    maximum: 365,
    default: 7,
    description: 'how many days a label counts as new, for TRACKING_POLL_MS',
  }),
  TRACKING_POLL_OLD_MS: Type.Integer({
    minimum: 0,
    default: 21_600_000,
    description: 'how often a parcel not yet delivered is asked about once its label is older than TRACKING_FRESH_DAYS',
  }),
  TRACKING_MAX_AGE_DAYS: Type.Integer({
    minimum: 1,
    maximum: 365,
    default: 45,
    description: 'labels older than this are no longer tracked (delivered parcels, and refunded labels, never are)',
  }),
  TRACKING_POLL_PUSHED_MS: Type.Integer({
    minimum: 0,
    default: 43_200_000,
    description:
      'how often a parcel whose carrier sends its tracking by webhook (EasyPost, when EASYPOST_WEBHOOK_SECRET is set) is asked about anyway, in case a webhook was lost',
  }),
  SANDBOX_TRACKING_HOUR_MS: Type.Integer({
    minimum: 100,
    default: 3_600_000,
    description:
      "how long one hour of a sandbox parcel's 72-hour tracking journey lasts (tracking, and the refund rule for scanned labels); shorten it on test stacks to watch tracking move",
  }),
  SANDBOX_JOURNEY_FILE: Type.String({
    default: '',
    description:
      "a file that moves the sandbox's journey clock forward by hand (lines of an ISO time and milliseconds, appended by `moveJourneyClock`), so a test stack moves parcels along instead of waiting; empty: the journey follows real time",
  }),
  // The live carriers' accounts (USPS_*, EASYPOST_*): checked at start when CARRIERS enables them.
  ...CARRIER_ACCOUNTS_CONFIG,
});
export type OrdersConfig = Static<typeof OrdersConfigSchema>;
