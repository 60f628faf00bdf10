import { createCarrierSet } from '@flatship/carriers';
import {
  createAuthTokenStateFetcher,
  createBusUserChangeFeed,
  createCachedTokenState,
  createDb,
  createInternalClient,
  createLogger,
  databaseReadiness,
  loadConfig,
  migrate,
  runService,
  startPeriodicJob,
} from '@flatship/kit';
import { openBus } from '@flatship/kit/bus';
import { createAuthUserDirectory } from './adapters/auth-users';
import { createPaymentsBalances } from './adapters/payments-balances';
import { createRankingsLabelEventFeed } from './adapters/rankings-label-events';
import { buildApp } from './app';
import { AdminConfigSchema } from './config';
import { ADMIN_SCHEMA, migrations } from './db/migrations';
import { createRankingsStore } from './db/rankings-repo';
import { createUsersViewRepo } from './db/users-view-repo';
import { seedUsersViewOnce } from './domain/seed-users-view';

await runService('admin', async () => {
  const config = loadConfig(AdminConfigSchema);
  const logger = createLogger('admin', config.LOG_LEVEL);

  // Admin keeps read models of its own (the user table, the audit, rankings) next to the embedded bus.
  const db = createDb(config.DATABASE_URL, ADMIN_SCHEMA, { max: 6, logger });
  const applied = await migrate(db, ADMIN_SCHEMA, migrations);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  const opened = await openBus({ config, db, logger, name: 'admin' });
  const { bus } = opened;

  const rankings = createRankingsStore(db);
  const auth = createInternalClient({ baseUrl: config.AUTH_URL, secret: config.INTERNAL_SECRET });
  const payments = createInternalClient({ baseUrl: config.PAYMENTS_URL, secret: config.INTERNAL_SECRET });
  const orders = createInternalClient({ baseUrl: config.ORDERS_URL, secret: config.INTERNAL_SECRET });
  const tokenState = createCachedTokenState(createAuthTokenStateFetcher(auth, logger), config.TOKEN_STATE_TTL_MS);
  // Only balances are asked of the carriers here: no label is rendered, so no render threads.
  const carriers = createCarrierSet(config.CARRIERS, {
    renderThreads: 0,
    sandboxBalanceCents: Math.round(config.SANDBOX_CARRIER_BALANCE * 100),
  });

  const app = await buildApp({
    db,
    logger,
    jwtPublicKey: config.JWT_PUBLIC_KEY,
    internalSecret: config.INTERNAL_SECRET,
    auth,
    payments,
    carriers,
    orders,
    tokenState,
    userChanges: createBusUserChangeFeed(bus, logger, 'admin'),
    bus,
    rankings,
    labelEvents: createRankingsLabelEventFeed(bus, rankings, logger),
    readiness: [databaseReadiness(db)],
  });

  opened.registerMetrics(app.metrics);

  // An install that had users before this table existed: fill it once from auth and payments; the events
  // keep it current from then on. Tried again until it succeeds (auth or payments may still be starting).
  const seedDeps = {
    users: createAuthUserDirectory(auth),
    balances: createPaymentsBalances(payments),
    view: createUsersViewRepo(db),
  };
  let isSeeded = false;
  const seed = startPeriodicJob({
    intervalMs: config.USERS_VIEW_SEED_RETRY_MS,
    runAtStart: true,
    logger,
    failedMessage: 'filling the user table from auth and payments failed; trying again',
    run: async () => {
      // Once it has succeeded there is nothing more to do: the events keep the table current.
      if (isSeeded) return;
      const ran = await seedUsersViewOnce(seedDeps, { requestId: 'users-view-seed' });
      if (ran) logger.info('user table filled from auth and payments');
      isSeeded = true;
    },
  });

  return {
    app,
    host: config.HOST,
    port: config.PORT,
    async close() {
      await seed.stop();
      await carriers.close();
      await opened.close();
      await db.destroy();
    },
  };
});
