import {
  createAuthTokenStateFetcher,
  createBusUserChangeFeed,
  createCachedTokenState,
  createDb,
  createInternalClient,
  createLogger,
  databaseReadiness,
  loadConfig,
  runService,
} from '@flatship/kit';
import { createPostgresBus, migrateBus } from '@flatship/kit/bus';
import { buildApp } from './app';
import { AdminConfigSchema } from './config';

const BUS_SCHEMA = 'bus';

await runService('admin', async () => {
  const config = loadConfig(AdminConfigSchema);
  const logger = createLogger('admin', config.LOG_LEVEL);

  // Admin stores nothing yet; the database is only the embedded bus, so a small pool is plenty.
  const db = createDb(config.DATABASE_URL, BUS_SCHEMA, { max: 4, logger });
  await migrateBus(db, BUS_SCHEMA);
  const bus = createPostgresBus({ db, schema: BUS_SCHEMA, logger });

  const auth = createInternalClient({ baseUrl: config.AUTH_URL, secret: config.INTERNAL_SECRET });
  const payments = createInternalClient({ baseUrl: config.PAYMENTS_URL, secret: config.INTERNAL_SECRET });
  const orders = createInternalClient({ baseUrl: config.ORDERS_URL, secret: config.INTERNAL_SECRET });
  const tokenState = createCachedTokenState(createAuthTokenStateFetcher(auth, logger), config.TOKEN_STATE_TTL_MS);

  const app = await buildApp({
    logger,
    jwtPublicKey: config.JWT_PUBLIC_KEY,
    auth,
    payments,
    orders,
    tokenState,
    userChanges: createBusUserChangeFeed(bus, logger, 'admin'),
    readiness: [databaseReadiness(db)],
  });

  return {
    app,
    host: config.HOST,
    port: config.PORT,
    async close() {
      await bus.close();
      await db.destroy();
    },
  };
});
