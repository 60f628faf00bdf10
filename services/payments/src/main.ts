import { createTransactor, loadConfig, runServiceRuntime, systemClock } from '@flatship/kit';
import { createAuthReferralDirectory } from './adapters/auth-referrals';
import { createBtcpayClient } from './adapters/btcpay-client';
import { buildApp } from './app';
import { btcpaySettingsOf, PaymentsConfigSchema } from './config';
import { createDepositSettledPublisher } from './db/deposit-events';
import { createDepositsRepo } from './db/deposits-repo';
import { createLedgerRepo } from './db/ledger-repo';
import { migrations, PAYMENTS_SCHEMA } from './db/migrations';
import { reconcileDeposits } from './domain/reconcile-deposits';
import { startDepositReconciler } from './jobs/deposit-reconciler';

await runServiceRuntime({
  name: 'payments',
  config: () => {
    const config = loadConfig(PaymentsConfigSchema);
    // Checked with the rest of the configuration, before anything is opened.
    return { ...config, btcpay: btcpaySettingsOf(config) };
  },
  database: (config) => ({ url: config.DATABASE_URL, schema: PAYMENTS_SCHEMA, migrations }),
  outbox: {},
  tokenState: (config) => ({ authUrl: config.AUTH_URL, ttlMs: config.TOKEN_STATE_TTL_MS }),
  async build({ config, logger, db, bus, outbox: accountChanges, auth, tokenState, userChanges, job }) {
    const btcpaySettings = config.btcpay;
    if (!btcpaySettings) logger.warn('BTCPAY_URL is not set: deposits are off (top-ups answer 503)');
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
      userChanges,
      referralBonus: { bus, referrals: createAuthReferralDirectory(auth) },
      ...(provider && btcpaySettings ? { btcpay: { provider, webhookSecret: btcpaySettings.webhookSecret } } : {}),
    });

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
      job(
        startDepositReconciler({
          intervalMs: config.DEPOSIT_RECONCILE_INTERVAL_MS,
          run: () => reconcileDeposits(deps),
          logger,
        }),
      );
    }
    return app;
  },
});
