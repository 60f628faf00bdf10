import {
  createAuthTokenStateFetcher,
  createBusUserChangeFeed,
  createCachedTokenState,
  createDb,
  createInternalClient,
  createLogger,
  createTransactor,
  flatshipMetrics,
  loadConfig,
  migrate,
  runService,
} from '@flatship/kit';
import { createOutbox, openBus } from '@flatship/kit/bus';
import { createAuthReferralDirectory } from './adapters/auth-referrals';
import { createBtcpayClient } from './adapters/btcpay-client';
import { buildApp, systemClock } from './app';
import { btcpaySettingsOf, PaymentsConfigSchema } from './config';
import { createDepositSettledPublisher } from './db/deposit-events';
import { createDepositsRepo } from './db/deposits-repo';
import { createLedgerRepo } from './db/ledger-repo';
import { migrations, PAYMENTS_SCHEMA } from './db/migrations';
import { reconcileDeposits } from './domain/reconcile-deposits';
import { type DepositReconciler, startDepositReconciler } from './jobs/deposit-reconciler';

await runService('payments', async () => {
  const config = loadConfig(PaymentsConfigSchema);
  const btcpaySettings = btcpaySettingsOf(config);
  const logger = createLogger('payments', config.LOG_LEVEL);
  if (!btcpaySettings) logger.warn('BTCPAY_URL is not set: deposits are off (top-ups answer 503)');
  const db = createDb(config.DATABASE_URL, PAYMENTS_SCHEMA, { logger });
  const applied = await migrate(db, PAYMENTS_SCHEMA, migrations);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');

  const opened = await openBus({ config, db, logger, name: 'payments' });
  const { bus } = opened;
  const accountChanges = createOutbox({ db, schema: PAYMENTS_SCHEMA, bus, logger });
  const stopRelay = await accountChanges.startRelay();

  const auth = createInternalClient({ baseUrl: config.AUTH_URL, secret: config.INTERNAL_SECRET });
  const tokenState = createCachedTokenState(createAuthTokenStateFetcher(auth, logger), config.TOKEN_STATE_TTL_MS);

  const provider = btcpaySettings
    ? createBtcpayClient({
        url: btcpaySettings.url,
        storeId: btcpaySettings.storeId,
        apiKey: btcpaySettings.apiKey,
        logger,
      })
    : null;

  const app = await buildApp({
    db,
    logger,
    jwtPublicKey: config.JWT_PUBLIC_KEY,
    internalSecret: config.INTERNAL_SECRET,
    tokenState,
    accountChanges,
    userChanges: createBusUserChangeFeed(bus, logger, 'payments'),
    referralBonus: { bus, referrals: createAuthReferralDirectory(auth) },
    ...(provider && btcpaySettings ? { btcpay: { provider, webhookSecret: btcpaySettings.webhookSecret } } : {}),
  });

  opened.registerMetrics(app.metrics);

  let reconciler: DepositReconciler | null = null;
  if (provider && config.DEPOSIT_RECONCILE_INTERVAL_MS > 0) {
    const deps = {
      provider,
      deposits: createDepositsRepo(db),
      ledger: createLedgerRepo(db, accountChanges),
      transactor: createTransactor(db),
      clock: systemClock,
      logger,
      publishDepositSettled: createDepositSettledPublisher(accountChanges),
    };
    reconciler = startDepositReconciler({
      intervalMs: config.DEPOSIT_RECONCILE_INTERVAL_MS,
      run: () => reconcileDeposits(deps),
      logger,
    });
  }

  flatshipMetrics(app.metrics).trackOutboxDepth(accountChanges.schema, accountChanges.depth);

  return {
    app,
    host: config.HOST,
    port: config.PORT,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    drainMs: config.SHUTDOWN_DRAIN_MS,
    async close() {
      await reconciler?.stop();
      await stopRelay();
      // Whatever committed in the last moments goes out now rather than at the next start.
      await accountChanges
        .flush()
        .catch((err: unknown) => logger.warn({ err }, 'outbox not fully relayed at shutdown'));
      await opened.close();
      await db.destroy();
    },
  };
});
