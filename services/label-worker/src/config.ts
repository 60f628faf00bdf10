import {
  CARRIER_ACCOUNTS_CONFIG,
  carrierRateLimitConfig,
  carriersConfig,
  defaultRenderThreads,
} from '@flatship/carriers';
import { BaseConfig, portConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';

export const LabelWorkerConfigSchema = Type.Object({
  PORT: portConfig(4106),
  ...BaseConfig,
  // Longer than the services' default: the labels being bought (each a carrier call) are finished before exiting.
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 30_000,
    description: 'grace period after SIGTERM: the batches in hand finish and commit, past it the process exits anyway',
  }),
  PAYMENTS_URL: Type.String({ pattern: '^https?://', description: 'base URL of the payments service (refunds)' }),
  FILES_DIR: Type.String({
    minLength: 1,
    description: 'directory where label files are kept (the same directory as orders)',
  }),
  CARRIERS: carriersConfig('the carriers bulk labels are bought from'),
  CARRIER_FAILURE_RATE: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0,
    description: 'share of sandbox carrier purchases that fail, from 0 to 1',
  }),
  CARRIER_LATENCY_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 0,
    description: 'simulated round trip of each sandbox carrier purchase (benchmarks)',
  }),
  CARRIER_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 10_000,
    default: 512,
    description:
      'carrier purchases this process has in flight at once, shared by every partition it works on; the rest wait their turn',
  }),
  CARRIER_RATE_LIMIT: carrierRateLimitConfig(),
  LABEL_WORKER_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 8,
    description: 'label.requested partitions this process works on at once',
  }),
  LABEL_WORKER_BATCH: Type.Integer({
    minimum: 1,
    maximum: 2000,
    default: 250,
    description:
      'label.requested messages of one partition taken together: bought through the carrier pool and settled in one transaction',
  }),
  LABEL_RENDER_THREADS: Type.Integer({
    minimum: 0,
    maximum: 64,
    default: defaultRenderThreads(),
    shownDefault: 'one per core',
    description:
      "worker threads rendering label PDFs, so rendering is not held to the event loop's one core; 0 renders on the main thread",
  }),
  LABEL_REQUESTED_PARTITIONS: Type.Integer({
    minimum: 1,
    maximum: 256,
    default: 8,
    description: 'partitions of label.requested when this process creates the topic (same value as orders)',
  }),
  BULK_STALL_MS: Type.Integer({
    minimum: 1000,
    default: 60_000,
    description: 'a bulk order with no progress for this long is resumed by the sweeper',
  }),
  PROGRESS_INTERVAL_MS: Type.Integer({
    minimum: 0,
    default: 250,
    description: 'at most one bulk.progress per order per this many milliseconds',
  }),
  // The live carriers' accounts (USPS_*, EASYPOST_*): checked at start when CARRIERS enables them.
  ...CARRIER_ACCOUNTS_CONFIG,
});
export type LabelWorkerConfig = Static<typeof LabelWorkerConfigSchema>;
