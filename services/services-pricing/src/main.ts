import { createCarrierSet } from '@flatship/carriers';
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
import { openBus } from '@flatship/kit/bus';
import { createCarrierServiceSource } from './adapters/carrier-service-source';
import { buildApp, createDomainDeps } from './app';
import { PricingConfigSchema } from './config';
import { migrations, PRICING_SCHEMA } from './db/migrations';
import { syncServices } from './domain/sync-services';

await runService('services-pricing', async () => {
  const config = loadConfig(PricingConfigSchema);
  const logger = createLogger('services-pricing', config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, PRICING_SCHEMA, { logger });
  const applied = await migrate(db, PRICING_SCHEMA, migrations);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');

  // Raw services are what the enabled carriers (CARRIERS) sell; prices and enabling stay an admin's decision.
  const carriers = createCarrierSet(config.CARRIERS);
  const source = createCarrierServiceSource(carriers);
  // A new install can sell labels at once: raw services and seeded defaults exist before the first request.
  const defaults = await syncServices(createDomainDeps({ db, source, logger }));
  logger.info({ services: defaults.length }, 'services synchronised with the carrier');

  const auth = createInternalClient({ baseUrl: config.AUTH_URL, secret: config.INTERNAL_SECRET });
  const tokenState = createCachedTokenState(createAuthTokenStateFetcher(auth, logger), config.TOKEN_STATE_TTL_MS);

  const opened = await openBus({ config, db, logger, name: 'services-pricing' });
  const { bus } = opened;

  const app = await buildApp({
    db,
    logger,
    publicKey: config.JWT_PUBLIC_KEY,
    internalSecret: config.INTERNAL_SECRET,
    tokenState,
    userChanges: createBusUserChangeFeed(bus, logger, 'services-pricing'),
    source,
  });

  opened.registerMetrics(app.metrics);

  return {
    app,
    host: config.HOST,
    port: config.PORT,
    async close() {
      await opened.close();
      await carriers.close();
      await db.destroy();
    },
  };
});
