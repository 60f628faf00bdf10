import {
  authPlugin,
  type createLogger,
  createServiceApp,
  createTransactor,
  databaseReadiness,
  followUserChanges,
  type Knex,
  type ReadinessCheck,
  type ServiceApp,
  type TokenStateSource,
  type UserChangeFeed,
} from '@flatship/kit';
import type { UserChangedEvent } from '@flatship/proto';
import { createDefaultServicesRepo, createUserServicesRepo } from './db/configured-services-repo';
import { createRawServicesRepo } from './db/raw-services-repo';
import type { RawServiceSource } from './domain/ports';
import { registerAdminServiceRoutes } from './routes/admin-services';
import type { DomainDeps } from './routes/deps';
import { registerInternalRoutes } from './routes/internal';
import { registerQuoteRoutes } from './routes/quotes';
import { registerUserServiceRoutes } from './routes/user-services';

export interface PricingAppDeps {
  /** Connected to the pricing schema (migrations already applied). */
  db: Knex;
  logger: ReturnType<typeof createLogger> | false;
  publicKey: string;
  internalSecret: string;
  /** Token states from auth, usually cached; `apply` takes `user.changed` events. */
  tokenState: TokenStateSource & { apply?(state: UserChangedEvent): void };
  /** `user.changed` events. Without them a revoked token still works until its cache entry expires. */
  userChanges?: UserChangeFeed;
  source: RawServiceSource;
  readiness?: ReadinessCheck[];
}

export function createDomainDeps(deps: Pick<PricingAppDeps, 'db' | 'source' | 'logger'>): DomainDeps {
  return {
    source: deps.source,
    transactor: createTransactor(deps.db),
    rawServices: createRawServicesRepo(deps.db),
    defaultServices: createDefaultServicesRepo(deps.db),
    userServices: createUserServicesRepo(deps.db),
    ...(deps.logger ? { logger: deps.logger } : {}),
  };
}

export async function buildApp(deps: PricingAppDeps): Promise<ServiceApp> {
  const app = createServiceApp({
    name: 'services-pricing',
    logger: deps.logger,
    readiness: [databaseReadiness(deps.db), ...(deps.readiness ?? [])],
  });

  await app.register(authPlugin, { publicKey: deps.publicKey, tokenState: deps.tokenState });

  followUserChanges(app, deps.userChanges, deps.tokenState);

  const domain = createDomainDeps(deps);
  registerAdminServiceRoutes(app, domain);
  registerUserServiceRoutes(app, domain);
  registerQuoteRoutes(app, domain);
  registerInternalRoutes(app, domain, deps.internalSecret);
  return app;
}
