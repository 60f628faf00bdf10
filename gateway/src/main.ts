import { createCachedTokenState, createInternalClient, createLogger, runService } from '@flatship/kit';
import { buildGateway } from './app';
import { loadGatewayConfig } from './config';
import { createTokenStateFetcher } from './token-state';

await runService('gateway', async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.logLevel);
  // AUTH_URL is required by the config schema, so auth is always present.
  const auth = createInternalClient({ baseUrl: config.upstreams.auth!, secret: config.internalSecret });
  const tokenState = createCachedTokenState(createTokenStateFetcher(auth, logger), config.tokenStateTtlMs);
  const app = await buildGateway({ config, logger, tokenState });
  return { app, host: config.host, port: config.port, close: async () => {} };
});
