import {
  type CarrierCallObservation,
  type CarrierResult,
  carrierAccountProblems,
  carrierAccountSettings,
  createCarrierSet,
  readCarrierRateLimits,
  supports,
} from '@flatship/carriers';
import { createDb, flatshipMetrics, loadConfig, runServiceRuntime, systemClock } from '@flatship/kit';
import { TOPICS } from '@flatship/proto';
import { createLocalFileStore } from './adapters/local-file-store';
import { createPaymentsLedger } from './adapters/payments-ledger';
import { createPricingQuotes } from './adapters/pricing-quotes';
import { buildApp, createDomainDeps } from './app';
import { OrdersConfigSchema } from './config';
import { createCarrierMemory } from './db/carrier-memory';
import { createCarrierRateSlots } from './db/carrier-rate-slots';
import { createCarrierRouteStore } from './db/carrier-routes';
import { migrations, ORDERS_SCHEMA } from './db/migrations';
import { createEventRecorder, createLabelPurchasedPublisher, createLabelRefundedPublisher } from './db/outbox';
import { createTrackingRepo } from './db/tracking-repo';
import { startReconciler } from './jobs/reconciler';
import { startRefundChecker } from './jobs/refund-checker';
import { startTrackingChecker } from './jobs/tracking-checker';

await runServiceRuntime({
  name: 'orders',
  // The live carriers CARRIERS enables are checked at start, each missing variable named.
  config: () => loadConfig(OrdersConfigSchema, process.env, carrierAccountProblems),
  database: (config) => ({ url: config.DATABASE_URL, schema: ORDERS_SCHEMA, migrations }),
  // On the postgres bus the first publisher creates a topic; label.requested needs enough partitions for the workers' concurrency.
  partitions: (config) => ({ [TOPICS.labelRequested]: config.LABEL_REQUESTED_PARTITIONS }),
  // A bulk order queues one label.requested per row: relaying them in a few large rounds lets each worker partition
  // take most of its rows in its first batch, instead of a dozen before the rest arrive.
  outbox: { batchSize: 1000 },
  tokenState: (config) => ({ authUrl: config.AUTH_URL, ttlMs: config.TOKEN_STATE_TTL_MS }),
  async build({ config, logger, db, outbox, tokenState, userChanges, internalClient, own, job }) {
    // Purchases hold an advisory lock on a connection of their own while they run, so they can always still write.
    const lockDb = createDb(config.DATABASE_URL, ORDERS_SCHEMA, {
      max: config.PURCHASE_LOCK_CONNECTIONS,
      idleTimeoutMs: config.DB_POOL_IDLE_MS,
      logger,
    });
    own({ close: () => lockDb.destroy() });
    let carrierCalls: ((o: CarrierCallObservation) => void) | undefined;
    let carrierResults: ((o: CarrierResult) => void) | undefined;
    const routeStore = createCarrierRouteStore(db);
    const carrier = own(
      createCarrierSet(config.CARRIERS, {
        failureRate: config.CARRIER_FAILURE_RATE,
        sandboxTrackingHourMs: config.SANDBOX_TRACKING_HOUR_MS,
        ...(config.SANDBOX_JOURNEY_FILE ? { sandboxJourneyFile: config.SANDBOX_JOURNEY_FILE } : {}),
        rateLimits: readCarrierRateLimits(config.CARRIER_RATE_LIMIT),
        // One rate for orders and every label worker together, not one each.
        rateSlots: createCarrierRateSlots(db),
        ...carrierAccountSettings(config.CARRIERS, config),
        // Shared with the label workers: a purchase retried in any of them finds what this one kept.
        memory: createCarrierMemory(db),
        // The routes an admin chose, shared with the label workers.
        routeStore,
        log: logger.child({ component: 'carrier' }),
        // The app's registry exists once the app is built; no carrier is called before.
        observeCarrierCalls: (o) => carrierCalls?.(o),
        observeCarrierResults: (o) => carrierResults?.(o),
      }),
    );
    const ports = {
      db,
      lockDb,
      purchaseQueue: config.PURCHASE_QUEUE,
      quotes: createPricingQuotes(internalClient(config.PRICING_URL)),
      ledger: createPaymentsLedger(internalClient(config.PAYMENTS_URL)),
      carrier,
      carrierRoutes: { carriers: carrier, store: routeStore },
      couriers: carrier.couriers,
      files: createLocalFileStore(config.FILES_DIR),
      publishLabelPurchased: createLabelPurchasedPublisher(outbox),
      publishLabelRefunded: createLabelRefundedPublisher(outbox),
      events: createEventRecorder(outbox),
      refundWindowDays: config.REFUND_WINDOW_DAYS,
      clock: systemClock,
      zplConversions: config.ZPL_CONVERSIONS,
    };
    const app = await buildApp({
      ...ports,
      logger,
      jwtPublicKey: config.JWT_PUBLIC_KEY,
      internalSecret: config.INTERNAL_SECRET,
      retryWaitMs: config.RETRY_WAIT_MS,
      downloadTokenTtlMs: config.DOWNLOAD_TOKEN_TTL_MS,
      tokenState,
      userChanges,
      easyPostWebhookSecret: config.EASYPOST_WEBHOOK_SECRET,
    });
    const carrierMetrics = flatshipMetrics(app.metrics);
    carrierCalls = (o) => carrierMetrics.carrierHttpCall(o);
    carrierResults = (o) => carrierMetrics.carrierResult(o);
    const domain = createDomainDeps(ports, logger);
    job(startReconciler(domain, config.RECONCILE_INTERVAL_MS));
    job(
      startRefundChecker(domain, { intervalMs: config.REFUND_CHECK_INTERVAL_MS, recheckMs: config.REFUND_RECHECK_MS }),
    );
    job(
      startTrackingChecker(
        { tracking: createTrackingRepo(db), carrier, logger: domain.logger },
        {
          intervalMs: config.TRACKING_CHECK_INTERVAL_MS,
          batch: config.TRACKING_BATCH,
          policy: {
            freshMs: config.TRACKING_POLL_MS,
            freshDays: config.TRACKING_FRESH_DAYS,
            oldMs: config.TRACKING_POLL_OLD_MS,
            maxAgeDays: config.TRACKING_MAX_AGE_DAYS,
            // EasyPost's tracker webhook brings its news only when its signatures can be checked.
            pushedBy: config.EASYPOST_WEBHOOK_SECRET ? ['easypost'] : [],
            pushedMs: config.TRACKING_POLL_PUSHED_MS,
            untrackedBy: carrier.carriers
              .filter((p) => !supports(carrier.adapter(p.id) ?? { capabilities: [] }, 'track'))
              .map((p) => p.id),
          },
        },
      ),
    );
    return app;
  },
});
