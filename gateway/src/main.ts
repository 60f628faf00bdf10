import {
  createAuthTokenStateFetcher,
  createCachedTokenState,
  createDb,
  createInternalClient,
  createLogger,
  openBus,
  runService,
} from '@flatship/kit';
import { TOPICS } from '@flatship/proto';
import { buildGateway } from './app';
import { createBusProgressFeed } from './bulk-progress';
import { loadGatewayConfig } from './config';
import { createOrderLookup } from './order-lookup';
import { createBusUserChangeFeed } from './user-changes';

await runService('gateway', async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.logLevel);

  // AUTH_URL is required by the config schema, so auth is always present.
  const auth = createInternalClient({ baseUrl: config.upstreams.auth!, secret: config.internalSecret });
  const tokenState = createCachedTokenState(createAuthTokenStateFetcher(auth, logger), config.tokenStateTtlMs);

  // The gateway reads the bus and writes only the impersonation audit to it, so a small pool is plenty.
  const db =
    config.bus.EVENT_BUS === 'postgres' && config.databaseUrl
      ? createDb(config.databaseUrl, 'bus', { max: 4, logger })
      : undefined;
  const opened = await openBus({ config: config.bus, db, logger, name: 'gateway' });
  const { bus } = opened;
  const userChanges = createBusUserChangeFeed(bus, logger);

  const progress = createBusProgressFeed(bus, logger);
  const orders = config.upstreams.orders
    ? createOrderLookup(
        createInternalClient({ baseUrl: config.upstreams.orders, secret: config.internalSecret }),
        logger,
      )
    : undefined;

  const app = await buildGateway({
    config,
    logger,
    tokenState,
    userChanges,
    progress,
    orders,
    impersonationActions: (event) => bus.publish(TOPICS.impersonationAction, [{ key: event.userId, value: event }]),
  });
  opened.registerMetrics(app.metrics);
  return {
    app,
    host: config.host,
    port: config.port,
    close: async () => {
      await opened.close();
      await db?.destroy();
    },
  };
});
