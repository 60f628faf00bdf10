import { createCarrierSet } from '@flatship/carriers';
import {
  createAuthTokenStateFetcher,
  createBusUserChangeFeed,
  createCachedTokenState,
  createDb,
  createInternalClient,
  createLogger,
  flatshipMetrics,
  loadConfig,
  migrate,
  runService,
} from '@flatship/kit';
import { createOutbox, openBus } from '@flatship/kit/bus';
import { TOPICS } from '@flatship/proto';
import { createLocalFileStore } from './adapters/local-file-store';
import { createPaymentsLedger } from './adapters/payments-ledger';
import { createPricingQuotes } from './adapters/pricing-quotes';
import { systemClock } from './adapters/system-clock';
import { buildApp, createDomainDeps } from './app';
import { OrdersConfigSchema } from './config';
import { migrations, ORDERS_SCHEMA } from './db/migrations';
import { createEventRecorder, createLabelPurchasedPublisher, createLabelRefundedPublisher } from './db/outbox';
import { startReconciler } from './jobs/reconciler';

await runService('orders', async () => {
  const config = loadConfig(OrdersConfigSchema);
  const logger = createLogger('orders', config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, ORDERS_SCHEMA, { logger });
  // Purchases hold an advisory lock on a connection of their own while they run, so they can always still write.
  const lockDb = createDb(config.DATABASE_URL, ORDERS_SCHEMA, { max: config.PURCHASE_LOCK_CONNECTIONS, logger });
  const applied = await migrate(db, ORDERS_SCHEMA, migrations);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');

  const opened = await openBus({
    config,
    db,
    logger,
    name: 'orders',
    // On the postgres bus the first publisher creates a topic; label.requested needs enough partitions for the workers' concurrency.
    partitions: { [TOPICS.labelRequested]: config.LABEL_REQUESTED_PARTITIONS },
  });
  const { bus } = opened;
  // A bulk order queues one label.requested per row: relaying them in a few large rounds lets each worker partition
  // take most of its rows in its first batch, instead of a dozen before the rest arrive.
  const outbox = createOutbox({ db, schema: ORDERS_SCHEMA, bus, logger, batchSize: 1000 });
  const stopRelay = await outbox.startRelay();

  const client = (baseUrl: string) => createInternalClient({ baseUrl, secret: config.INTERNAL_SECRET });
  const tokenState = createCachedTokenState(
    createAuthTokenStateFetcher(client(config.AUTH_URL), logger),
    config.TOKEN_STATE_TTL_MS,
  );

  const carrier = createCarrierSet(config.CARRIERS, { failureRate: config.CARRIER_FAILURE_RATE });
  const ports = {
    db,
    lockDb,
    quotes: createPricingQuotes(client(config.PRICING_URL)),
    ledger: createPaymentsLedger(client(config.PAYMENTS_URL)),
    carrier,
    couriers: carrier.couriers,
    files: createLocalFileStore(config.FILES_DIR),
    publishLabelPurchased: createLabelPurchasedPublisher(outbox),
    publishLabelRefunded: createLabelRefundedPublisher(outbox),
    events: createEventRecorder(outbox),
  };
  const app = await buildApp({
    ...ports,
    logger,
    jwtPublicKey: config.JWT_PUBLIC_KEY,
    internalSecret: config.INTERNAL_SECRET,
    retryWaitMs: config.RETRY_WAIT_MS,
    downloadTokenTtlMs: config.DOWNLOAD_TOKEN_TTL_MS,
    tokenState,
    userChanges: createBusUserChangeFeed(bus, logger, 'orders'),
  });
  opened.registerMetrics(app.metrics);
  const reconciler = startReconciler(
    { ...createDomainDeps(ports, logger), clock: systemClock },
    config.RECONCILE_INTERVAL_MS,
  );

  flatshipMetrics(app.metrics).trackOutboxDepth(outbox.schema, outbox.depth);

  return {
    app,
    host: config.HOST,
    port: config.PORT,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    drainMs: config.SHUTDOWN_DRAIN_MS,
    async close() {
      await reconciler.stop();
      await stopRelay();
      // Whatever committed in the last moments goes out now rather than at the next start.
      await outbox.flush().catch((err: unknown) => logger.warn({ err }, 'outbox not fully relayed at shutdown'));
      await opened.close();
      await carrier.close();
      await db.destroy();
      await lockDb.destroy();
    },
  };
});
