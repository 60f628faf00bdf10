import { observePurchases } from '@flatship/carriers';
import {
  authPlugin,
  type createLogger,
  createServiceApp,
  createTransactor,
  databaseReadiness,
  downloadTokenPlugin,
  flatshipMetrics,
  followUserChanges,
  type Knex,
  type ReadinessCheck,
  type ServiceApp,
  systemClock,
  type TokenStateSource,
  type UserChangeFeed,
} from '@flatship/kit';
import type { UserChangedEvent } from '@flatship/proto';
import { createAddressVerifier } from './adapters/address-verifier';
import { createAdminOrdersRepo } from './db/admin-orders-repo';
import { createBulkRepo } from './db/bulk-repo';
import { createLabelsRepo } from './db/labels-repo';
import { createPrintSettingsRepo } from './db/print-settings-repo';
import { createPurchaseLocks } from './db/purchase-locks';
import { createRefundsRepo } from './db/refunds-repo';
import { createScanFormsRepo } from './db/scan-forms-repo';
import { createTrackingRepo } from './db/tracking-repo';
import type { PublishLabelRefunded } from './domain/admin-orders';
import type { EventRecorder } from './domain/bulk/ports';
import type { LabelConverter } from './domain/label-formats';
import type { CarrierPort, Clock, FileStore, LedgerPort, PublishLabelPurchased, QuotePort } from './domain/ports';
import { createZplWork } from './domain/zpl-work';
import { registerAddressCheckRoutes } from './routes/address-checks';
import { registerAdminOrderRoutes } from './routes/admin';
import { registerBulkRoutes } from './routes/bulk';
import { type CarrierRoutesDeps, registerCarrierRoutes } from './routes/carrier-routes';
import { registerCarrierWebhookRoutes } from './routes/carrier-webhooks';
import type { DomainDeps } from './routes/deps';
import { registerDownloadRoutes } from './routes/download';
import { registerInternalRoutes } from './routes/internal';
import { registerOrderRoutes } from './routes/orders';
import { registerPrintSettingsRoutes } from './routes/print-settings';
import { registerRefundRoutes } from './routes/refunds';
import { registerScanFormRoutes } from './routes/scan-forms';
import { registerStatsRoutes } from './routes/stats';
import { registerTemplateRoute } from './routes/template';
import { registerTrackingRoutes } from './routes/tracking';

export interface OrdersAppDeps {
  /** Connected to the orders schema (migrations already applied). */
  db: Knex;
  /**
   * A pool of its own on the same database, whose connections each hold the lock of one single-label
   * purchase for as long as it runs (carrier call included). Never `db`: a purchase holding a lock
   * still writes through `db`, so sharing one pool could leave every connection held by purchases
   * waiting for another. Its size caps the purchases at work at once; more wait for a connection.
   */
  lockDb: Knex;
  /**
   * Single-label purchases that may wait for a lock connection (`PURCHASE_QUEUE`; default: the lock pool's size);
   * one more is answered `503 ORDERS_BUSY` at once.
   */
  purchaseQueue?: number;
  logger: ReturnType<typeof createLogger> | false;
  jwtPublicKey: string;
  /** Current token states (from auth, cached and refreshed by `user.changed`). */
  tokenState: TokenStateSource & { apply?(state: UserChangedEvent): void };
  /** `user.changed` events. Without them a revoked token still works until its cache entry expires. */
  userChanges?: UserChangeFeed;
  quotes: QuotePort;
  ledger: LedgerPort;
  carrier: CarrierPort;
  /** Which carriers sell each service, as an admin switches them (`/internal/carrier-routes`); absent: not served. */
  carrierRoutes?: CarrierRoutesDeps;
  files: FileStore;
  publishLabelPurchased: PublishLabelPurchased;
  /** Records `label.refunded` when a bought label is refunded. */
  publishLabelRefunded: PublishLabelRefunded;
  /** How long after purchase a label may be refunded (default 30 days). */
  refundWindowDays?: number;
  /** The time, for refund windows (the system clock when absent). */
  clock?: Clock;
  /** `label.requested` and `bulk.progress`, recorded in the outbox. */
  events: EventRecorder;
  /** Shared secret of `/internal/*` routes. */
  internalSecret: string;
  /** How long a download link works (default 5 minutes). */
  downloadTokenTtlMs?: number;
  /** How long retry-failed waits for the retried labels before answering (default 15 s). */
  retryWaitMs?: number;
  /** Pauses between retries of a carrier failure that may pass (default 250 ms, then 1 s). */
  carrierRetryDelaysMs?: number[];
  /** The couriers of the enabled carriers (`CARRIERS`); a row's courier must be one of them. The default courier when absent. */
  couriers?: readonly string[];
  readiness?: ReadinessCheck[];
  /** `EASYPOST_WEBHOOK_SECRET`: EasyPost's tracker webhooks are taken only when signed with it. */
  easyPostWebhookSecret?: string | undefined;
  /** Converts label files between formats; the real converters (pdftoppm, pdf-lib) when absent. */
  converter?: LabelConverter;
  /** `ZPL_CONVERSIONS`: how many labels are converted to ZPL at once (default one per core). */
  zplConversions?: number;
}

/** Builds the orders app from its dependencies; opens nothing and starts no timers. */
export async function buildApp(deps: OrdersAppDeps): Promise<ServiceApp> {
  const app = createServiceApp({
    name: 'orders',
    logger: deps.logger,
    readiness: [databaseReadiness(deps.db), ...(deps.readiness ?? [])],
  });
  await app.register(authPlugin, { publicKey: deps.jwtPublicKey, tokenState: deps.tokenState });
  await app.register(downloadTokenPlugin, {
    internalSecret: deps.internalSecret,
    tokenState: deps.tokenState,
    ...(deps.downloadTokenTtlMs ? { ttlMs: deps.downloadTokenTtlMs } : {}),
  });

  followUserChanges(app, deps.userChanges, deps.tokenState);

  const metrics = flatshipMetrics(app.metrics);
  const domain: DomainDeps = {
    ...createDomainDeps(
      { ...deps, carrier: observePurchases(deps.carrier, (o) => metrics.carrierPurchase('single', o)) },
      app.log,
    ),
    onOrderFinished: (order) => metrics.bulkOrderFinished(order),
    // Addresses are checked with the carriers that sell (each service's route), or the one carrier given.
    addressVerifier: createAddressVerifier(deps.carrierRoutes?.carriers ?? deps.carrier),
  };
  registerOrderRoutes(app, domain);
  registerDownloadRoutes(app, domain);
  registerBulkRoutes(app, domain);
  registerTemplateRoute(app);
  registerInternalRoutes(app, domain, deps.internalSecret);
  if (deps.carrierRoutes) registerCarrierRoutes(app, deps.carrierRoutes, deps.internalSecret);
  registerAdminOrderRoutes(app, { ...domain, adminOrders: createAdminOrdersRepo(deps.db) });
  registerRefundRoutes(app, domain);
  registerScanFormRoutes(app, domain);
  registerPrintSettingsRoutes(app, domain);
  registerTrackingRoutes(app, { tracking: createTrackingRepo(deps.db) });
  registerAddressCheckRoutes(app, domain, deps.internalSecret);
  registerStatsRoutes(app, deps.db, deps.internalSecret);
  await registerCarrierWebhookRoutes(app, { db: deps.db, easyPostWebhookSecret: deps.easyPostWebhookSecret });
  return app;
}

/** The use cases' dependencies, shared by the routes and the reconciler. */
export function createDomainDeps(
  deps: Pick<
    OrdersAppDeps,
    | 'db'
    | 'lockDb'
    | 'purchaseQueue'
    | 'quotes'
    | 'ledger'
    | 'carrier'
    | 'files'
    | 'publishLabelPurchased'
    | 'carrierRetryDelaysMs'
    | 'couriers'
    | 'events'
    | 'retryWaitMs'
    | 'publishLabelRefunded'
    | 'refundWindowDays'
    | 'clock'
    | 'converter'
    | 'zplConversions'
  >,
  logger: DomainDeps['logger'],
): DomainDeps {
  return {
    labels: createLabelsRepo(deps.db),
    bulk: createBulkRepo(deps.db),
    events: deps.events,
    retryWaitMs: deps.retryWaitMs ?? 15_000,
    transactor: createTransactor(deps.db),
    purchaseLocks: createPurchaseLocks(
      deps.lockDb,
      deps.purchaseQueue !== undefined ? { waiting: deps.purchaseQueue } : {},
    ),
    quotes: deps.quotes,
    ledger: deps.ledger,
    carrier: deps.carrier,
    files: deps.files,
    publishLabelPurchased: deps.publishLabelPurchased,
    publishLabelRefunded: deps.publishLabelRefunded,
    refunds: createRefundsRepo(deps.db),
    scanForms: createScanFormsRepo(deps.db),
    printSettings: createPrintSettingsRepo(deps.db),
    clock: deps.clock ?? systemClock,
    ...(deps.refundWindowDays !== undefined ? { refundWindowDays: deps.refundWindowDays } : {}),
    logger,
    carrierRetryDelaysMs: deps.carrierRetryDelaysMs ?? [250, 1000],
    ...(deps.couriers ? { couriers: deps.couriers } : {}),
    ...(deps.converter ? { converter: deps.converter } : {}),
    zplWork: createZplWork(deps.zplConversions),
  };
}
