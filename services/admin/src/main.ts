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
} from '@flatship/kit';
import { createPostgresBus, migrateBus } from '@flatship/kit/bus';
import { createRankingsLabelEventFeed } from './adapters/rankings-label-events';
import { buildApp } from './app';
import { AdminConfigSchema } from './config';
import { ADMIN_SCHEMA, migrations } from './db/migrations';
import { createRankingsStore } from './db/rankings-repo';

const BUS_SCHEMA = 'bus';

await runService('admin', async () => {
  const config = loadConfig(AdminConfigSchema);
  const logger = createLogger('admin', config.LOG_LEVEL);

  // Admin keeps read models of its own (rankings) next to the embedded bus.
  const db = createDb(config.DATABASE_URL, ADMIN_SCHEMA, { max: 6, logger });
  const applied = await migrate(db, ADMIN_SCHEMA, migrations);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  await migrateBus(db, BUS_SCHEMA);
  const bus = createPostgresBus({ db, schema: BUS_SCHEMA, logger });

  const rankings = createRankingsStore(db);
  const auth = createInternalClient({ baseUrl: config.AUTH_URL, secret: config.INTERNAL_SECRET });
  const payments = createInternalClient({ baseUrl: config.PAYMENTS_URL, secret: config.INTERNAL_SECRET });
  const tokenState = createCachedTokenState(createAuthTokenStateFetcher(auth, logger), config.TOKEN_STATE_TTL_MS);

  const app = await buildApp({
    logger,
    jwtPublicKey: config.JWT_PUBLIC_KEY,
    auth,
    payments,
    tokenState,
    userChanges: createBusUserChangeFeed(bus, logger, 'admin'),
    rankings,
    labelEvents: createRankingsLabelEventFeed(bus, rankings, logger),
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
