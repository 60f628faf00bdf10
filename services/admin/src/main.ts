import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CarrierCallObservation,
  type CarrierResult,
  carrierAccountProblems,
  carrierAccountSettings,
  createCarrierSet,
  noPurchasesMemory,
} from '@flatship/carriers';
import {
  AppError,
  databaseReadiness,
  flatshipMetrics,
  loadConfig,
  runServiceRuntime,
  startPeriodicJob,
} from '@flatship/kit';
import { createAuthUserDirectory } from './adapters/auth-users';
import { createPaymentsBalances } from './adapters/payments-balances';
import { createRankingsLabelEventFeed } from './adapters/rankings-label-events';
import { buildApp } from './app';
import { AdminConfigSchema } from './config';
import { ADMIN_SCHEMA, migrations } from './db/migrations';
import { createRankingsStore } from './db/rankings-repo';
import { createUsersViewRepo } from './db/users-view-repo';
import { seedUsersViewOnce } from './domain/seed-users-view';

await runServiceRuntime({
  name: 'admin',
  config: () => loadConfig(AdminConfigSchema, process.env, carrierAccountProblems),
  // Admin keeps read models of its own (the user table, the audit, rankings) next to the embedded bus.
  database: (config) => ({ url: config.DATABASE_URL, schema: ADMIN_SCHEMA, max: 6, migrations }),
  tokenState: (config) => ({ authUrl: config.AUTH_URL, ttlMs: config.TOKEN_STATE_TTL_MS }),
  async build({ config, logger, db, bus, auth, tokenState, userChanges, internalClient, own, job }) {
    const rankings = createRankingsStore(db);
    const payments = internalClient(config.PAYMENTS_URL);
    const orders = internalClient(config.ORDERS_URL);
    // Only balances are asked of the carriers here: no label is rendered, so no render threads.
    let carrierCalls: ((o: CarrierCallObservation) => void) | undefined;
    let carrierResults: ((o: CarrierResult) => void) | undefined;
    const carriers = own(
      createCarrierSet(config.CARRIERS, {
        renderThreads: 0,
        sandboxBalanceCents: Math.round(config.SANDBOX_CARRIER_BALANCE * 100),
        ...carrierAccountSettings(config.CARRIERS, config),
        memory: noPurchasesMemory('admin'),
        log: logger.child({ component: 'carrier' }),
        // The app's registry exists once the app is built; no carrier is called before.
        observeCarrierCalls: (o) => carrierCalls?.(o),
        observeCarrierResults: (o) => carrierResults?.(o),
      }),
    );

    const app = await buildApp({
      db,
      logger,
      jwtPublicKey: config.JWT_PUBLIC_KEY,
      internalSecret: config.INTERNAL_SECRET,
      auth,
      payments,
      carriers,
      carrierBalanceWarnCents: config.CARRIER_BALANCE_WARN_CENTS,
      orders,
      tokenState,
      userChanges,
      bus,
      rankings,
      labelEvents: createRankingsLabelEventFeed(bus, rankings, logger),
      readiness: [databaseReadiness(db)],
    });
    const carrierMetrics = flatshipMetrics(app.metrics);
    carrierCalls = (o) => carrierMetrics.carrierHttpCall(o);
    carrierResults = (o) => carrierMetrics.carrierResult(o);

    // An install that had users before this table existed: fill it once from auth and payments; the events
    // keep it current from then on. Tried again until it succeeds (auth or payments may still be starting).
    const seedDeps = {
      users: createAuthUserDirectory(auth),
      balances: createPaymentsBalances(payments),
      view: createUsersViewRepo(db),
    };
    let isSeeded = false;
    let stopping = false;
    // Every service starts at once, so at first auth or payments may simply not be listening yet: that is waited out
    // quietly, a second at a time, for up to a minute. Any other failure, or a peer still away after that, is reported.
    const peersExpectedBy = Date.now() + 60_000;
    const seed = startPeriodicJob({
      intervalMs: config.USERS_VIEW_SEED_RETRY_MS,
      runAtStart: true,
      logger,
      failedMessage: 'filling the user table from auth and payments failed; trying again',
      run: async () => {
        // Once it has succeeded there is nothing more to do: the events keep the table current.
        if (isSeeded) return;
        for (;;) {
          try {
            const ran = await seedUsersViewOnce(seedDeps, { requestId: 'users-view-seed' });
            if (ran) logger.info('user table filled from auth and payments');
            isSeeded = true;
            return;
          } catch (err) {
            const peerNotUpYet = err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE';
            // Shutting down before the peers came up is not a failure: the next start fills the table.
            if (peerNotUpYet && stopping) return;
            if (!peerNotUpYet || Date.now() > peersExpectedBy) throw err;
            logger.debug({ err }, 'auth or payments is not answering yet; filling the user table once they do');
            await sleep(1000);
          }
        }
      },
    });
    job({
      stop() {
        stopping = true;
        return seed.stop();
      },
    });
    return app;
  },
});
