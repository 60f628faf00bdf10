import { runServiceRuntime, startManagementListener } from '@flatship/kit';
import { TOPICS } from '@flatship/proto';
import { buildGateway } from './app';
import { createBusProgressFeed } from './bulk-progress';
import { loadGatewayConfig } from './config';
import { createOrderLookup } from './order-lookup';

await runServiceRuntime({
  name: 'gateway',
  config: () => loadGatewayConfig(),
  // The gateway's configuration carries the runtime's settings under the same names.
  settings: (config) => config,
  // The gateway keeps no data of its own: the database carries only the postgres bus. It reads the bus and writes only
  // the impersonation audit to it, so a small pool is plenty.
  database: (config) =>
    config.bus.EVENT_BUS === 'postgres' && config.databaseUrl
      ? { url: config.databaseUrl, schema: 'bus', max: 4 }
      : undefined,
  // AUTH_URL is required by the config schema, so auth is always present.
  tokenState: (config) => ({ authUrl: config.upstreams.auth!, ttlMs: config.tokenStateTtlMs }),
  async build({ config, logger, bus, tokenState, userChanges, internalClient, own }) {
    const orders = config.upstreams.orders
      ? createOrderLookup(internalClient(config.upstreams.orders), logger)
      : undefined;
    const app = await buildGateway({
      config,
      logger,
      tokenState,
      userChanges,
      progress: createBusProgressFeed(bus, logger),
      orders,
      impersonationActions: (event) => bus.publish(TOPICS.impersonationAction, [{ key: event.userId, value: event }]),
    });
    own(await startManagementListener(app, config.management));
    return app;
  },
});
