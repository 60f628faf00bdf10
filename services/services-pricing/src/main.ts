import { enabledCarrierServices } from '@flatship/carriers';
import { loadConfig, runServiceRuntime } from '@flatship/kit';
import { createCarrierServiceSource } from './adapters/carrier-service-source';
import { buildApp, createDomainDeps } from './app';
import { PricingConfigSchema } from './config';
import { migrations, PRICING_SCHEMA } from './db/migrations';
import { syncServices } from './domain/sync-services';

await runServiceRuntime({
  name: 'services-pricing',
  config: () => loadConfig(PricingConfigSchema),
  database: (config) => ({ url: config.DATABASE_URL, schema: PRICING_SCHEMA, migrations }),
  tokenState: (config) => ({ authUrl: config.AUTH_URL, ttlMs: config.TOKEN_STATE_TTL_MS }),
  async build({ config, logger, db, tokenState, userChanges }) {
    // Raw services are what the enabled carriers (CARRIERS) sell, read from their plugins: nothing is bought here, so
    // no carrier is started and no carrier credentials are needed. Prices and enabling stay an admin's decision.
    const source = createCarrierServiceSource({ services: () => enabledCarrierServices(config.CARRIERS) });
    // A new install can sell labels at once: raw services and seeded defaults exist before the first request.
    const defaults = await syncServices(createDomainDeps({ db, source, logger }));
    logger.info({ services: defaults.length }, 'services synchronised with the carrier');

    return buildApp({
      db,
      logger,
      publicKey: config.JWT_PUBLIC_KEY,
      internalSecret: config.INTERNAL_SECRET,
      tokenState,
      userChanges,
      source,
    });
  },
});
