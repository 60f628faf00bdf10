import {
  type CarrierCallObservation,
  type CarrierResult,
  carrierAccountProblems,
  carrierAccountSettings,
  createCarrierPool,
  createCarrierSet,
  readCarrierRateLimits,
} from '@flatship/carriers';
import { flatshipMetrics, loadConfig, runServiceRuntime } from '@flatship/kit';
import {
  createCarrierMemory,
  createCarrierRateSlots,
  createCarrierRouteStore,
  createLocalFileStore,
  createPaymentsLedger,
  ORDERS_SCHEMA,
  prepareOrdersDatabase,
} from '@flatship/orders/worker';
import { TOPICS } from '@flatship/proto';
import { buildWorkerApp } from './app';
import { LabelWorkerConfigSchema } from './config';
import { createWorkerDeps } from './deps';

await runServiceRuntime({
  name: 'label-worker',
  // The live carriers CARRIERS enables are checked at start, each missing variable named.
  config: () => loadConfig(LabelWorkerConfigSchema, process.env, carrierAccountProblems),
  // The worker is part of the orders context: it works on the orders schema, migrated by whichever starts first.
  database: (config) => ({
    url: config.DATABASE_URL,
    schema: ORDERS_SCHEMA,
    max: config.LABEL_WORKER_CONCURRENCY + 4,
    prepare: prepareOrdersDatabase,
  }),
  partitions: (config) => ({ [TOPICS.labelRequested]: config.LABEL_REQUESTED_PARTITIONS }),
  outbox: {},
  // The app's own close (before the runtime's) stops the sweeper, finishes the rows in hand and sends the last
  // progress; what the worker recorded in the outbox then goes out with the runtime's last flush.
  async build({ config, logger, db, bus, outbox, internalClient, own }) {
    let carrierCalls: ((o: CarrierCallObservation) => void) | undefined;
    let carrierResults: ((o: CarrierResult) => void) | undefined;
    const carrier = own(
      createCarrierSet(config.CARRIERS, {
        failureRate: config.CARRIER_FAILURE_RATE,
        latencyMs: config.CARRIER_LATENCY_MS,
        renderThreads: config.LABEL_RENDER_THREADS,
        rateLimits: readCarrierRateLimits(config.CARRIER_RATE_LIMIT),
        // One rate for orders and every label worker together, not one each.
        rateSlots: createCarrierRateSlots(db),
        ...carrierAccountSettings(config.CARRIERS, config),
        // The orders database's carrier memory: a row retried by another worker or by orders finds what was kept.
        memory: createCarrierMemory(db),
        // The routes an admin chose (USPS direct, EasyPost standing by), read again every few seconds.
        routeStore: createCarrierRouteStore(db),
        log: logger.child({ component: 'carrier' }),
        // The app's registry exists once the app is built; no carrier is called before.
        observeCarrierCalls: (o) => carrierCalls?.(o),
        observeCarrierResults: (o) => carrierResults?.(o),
      }),
    );
    // Every partition's purchases share one bound, so batches can be large while the carriers see a steady load.
    const carrierPool = createCarrierPool(carrier, { concurrency: config.CARRIER_CONCURRENCY });
    const deps = createWorkerDeps({
      db,
      bus,
      outbox,
      ledger: createPaymentsLedger(internalClient(config.PAYMENTS_URL)),
      carrier: carrierPool,
      files: createLocalFileStore(config.FILES_DIR),
      logger,
      progressIntervalMs: config.PROGRESS_INTERVAL_MS,
    });
    const app = await buildWorkerApp({
      logger,
      db,
      bus,
      worker: deps,
      concurrency: config.LABEL_WORKER_CONCURRENCY,
      batchSize: config.LABEL_WORKER_BATCH,
      stallMs: config.BULK_STALL_MS,
      sweepIntervalMs: Math.min(30_000, Math.max(1000, Math.floor(config.BULK_STALL_MS / 2))),
    });
    const carrierMetrics = flatshipMetrics(app.metrics);
    carrierCalls = (o) => carrierMetrics.carrierHttpCall(o);
    carrierResults = (o) => carrierMetrics.carrierResult(o);
    app.addHook('onReady', async () => {
      logger.info(
        {
          concurrency: config.LABEL_WORKER_CONCURRENCY,
          batchSize: config.LABEL_WORKER_BATCH,
          carrierConcurrency: config.CARRIER_CONCURRENCY,
          carrierRateLimit: config.CARRIER_RATE_LIMIT,
          renderThreads: config.LABEL_RENDER_THREADS,
        },
        'label worker consuming label.requested',
      );
    });
    return app;
  },
});
