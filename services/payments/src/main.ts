import {
  createAuthTokenStateFetcher,
  createBusUserChangeFeed,
  createCachedTokenState,
  createDb,
  createInternalClient,
  createLogger,
  loadConfig,
  migrate,
  runService,
} from '@flatship/kit';
import { createPostgresBus, migrateBus } from '@flatship/kit/bus';
import { buildApp } from './app';
import { PaymentsConfigSchema } from './config';
import { migrations, PAYMENTS_SCHEMA } from './db/migrations';

const BUS_SCHEMA = 'bus';

await runService('payments', async () => {
  const config = loadConfig(PaymentsConfigSchema);
  const logger = createLogger('payments', config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, PAYMENTS_SCHEMA);
  const applied = await migrate(db, PAYMENTS_SCHEMA, migrations);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');

  // Embedded topology: the bus is a log in the same database, in its own schema.
  await migrateBus(db, BUS_SCHEMA);
  const bus = createPostgresBus({ db, schema: BUS_SCHEMA, logger });

  const auth = createInternalClient({ baseUrl: config.AUTH_URL, secret: config.INTERNAL_SECRET });
  const tokenState = createCachedTokenState(createAuthTokenStateFetcher(auth, logger), config.TOKEN_STATE_TTL_MS);

  const app = await buildApp({
    db,
    logger,
    jwtPublicKey: config.JWT_PUBLIC_KEY,
    internalSecret: config.INTERNAL_SECRET,
    tokenState,
    userChanges: createBusUserChangeFeed(bus, logger, 'payments'),
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
