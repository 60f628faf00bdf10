import { createCarrierSet } from '@flatship/carriers';
import { createDb, createInternalClient, createLogger, loadConfig, runService } from '@flatship/kit';
import { createOutbox, openBus } from '@flatship/kit/bus';
import {
  createLocalFileStore,
  createPaymentsLedger,
  ORDERS_SCHEMA,
  prepareOrdersDatabase,
} from '@flatship/orders/worker';
import { TOPICS } from '@flatship/proto';
import { buildWorkerApp } from './app';
import { LabelWorkerConfigSchema } from './config';
import { createWorkerDeps } from './deps';

await runService(
  'label-worker',
  async () => {
    const config = loadConfig(LabelWorkerConfigSchema);
    const logger = createLogger('label-worker', config.LOG_LEVEL);
    // The worker is part of the orders context: it works on the orders schema, migrated by whichever starts first.
    const db = createDb(config.DATABASE_URL, ORDERS_SCHEMA, { max: config.LABEL_WORKER_CONCURRENCY + 4, logger });
    await prepareOrdersDatabase(db);
    const opened = await openBus({
      config,
      db,
      logger,
      name: 'label-worker',
      partitions: { [TOPICS.labelRequested]: config.LABEL_REQUESTED_PARTITIONS },
    });
    const { bus } = opened;
    const outbox = createOutbox({ db, schema: ORDERS_SCHEMA, bus, logger });
    const stopRelay = await outbox.startRelay();

    const carrier = createCarrierSet(config.CARRIERS, {
      failureRate: config.CARRIER_FAILURE_RATE,
      latencyMs: config.CARRIER_LATENCY_MS,
      renderThreads: config.LABEL_RENDER_THREADS,
    });
    const deps = createWorkerDeps({
      db,
      bus,
      outbox,
      ledger: createPaymentsLedger(
        createInternalClient({ baseUrl: config.PAYMENTS_URL, secret: config.INTERNAL_SECRET }),
      ),
      carrier,
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
    opened.registerMetrics(app.metrics);
    app.addHook('onReady', async () => {
      logger.info(
        {
          concurrency: config.LABEL_WORKER_CONCURRENCY,
          batchSize: config.LABEL_WORKER_BATCH,
          renderThreads: config.LABEL_RENDER_THREADS,
        },
        'label worker consuming label.requested',
      );
    });

    return {
      app,
      host: config.HOST,
      port: config.PORT,
      // The app's own close (first) has stopped the sweeper, finished the rows in hand and sent the last progress.
      async close() {
        await carrier.close();
        await stopRelay();
        await outbox.flush().catch((err: unknown) => logger.warn({ err }, 'outbox not fully relayed at shutdown'));
        await opened.close();
        await db.destroy();
      },
    };
  },
  30_000,
);
