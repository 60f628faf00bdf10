import {
  authPlugin,
  type createLogger,
  createServiceApp,
  followUserChanges,
  type InternalClient,
  type ReadinessCheck,
  type ServiceApp,
  type TokenStateSource,
  type UserChangeFeed,
} from '@flatship/kit';
import type { UserChangedEvent } from '@flatship/proto';
import { createAuthUserStats } from './adapters/auth-user-stats';
import { createAuthUserDirectory } from './adapters/auth-users';
import { createOrdersLabelStats } from './adapters/orders-label-stats';
import { createPaymentsBalances } from './adapters/payments-balances';
import { createPaymentsDepositStats } from './adapters/payments-deposit-stats';
import { registerDashboardRoutes } from './routes/dashboard';
import { registerUserRoutes } from './routes/users';

export interface AdminAppDeps {
  logger: ReturnType<typeof createLogger> | false;
  jwtPublicKey: string;
  /** Internal clients of the services admin composes. */
  auth: InternalClient;
  payments: InternalClient;
  orders: InternalClient;
  /** Current token states (from auth, cached); `apply` takes a change the moment it arrives. */
  tokenState: TokenStateSource & { apply(state: UserChangedEvent): void };
  /** `user.changed` events. Without them a revoked token still works until its cache entry expires. */
  userChanges?: UserChangeFeed;
  readiness?: ReadinessCheck[];
}

/**
 * The admin area's API: it owns no users or money itself, but composes auth
 * and payments behind admin-only routes.
 */
export async function buildApp(deps: AdminAppDeps): Promise<ServiceApp> {
  const app = createServiceApp({ name: 'admin', logger: deps.logger, readiness: deps.readiness ?? [] });
  await app.register(authPlugin, { publicKey: deps.jwtPublicKey, tokenState: deps.tokenState });

  registerUserRoutes(app, {
    users: createAuthUserDirectory(deps.auth),
    balances: createPaymentsBalances(deps.payments),
  });

  registerDashboardRoutes(app, {
    sources: {
      users: createAuthUserStats(deps.auth),
      labels: createOrdersLabelStats(deps.orders),
      deposits: createPaymentsDepositStats(deps.payments),
    },
    clock: { now: () => new Date() },
  });

  followUserChanges(app, deps.userChanges, deps.tokenState);
  return app;
}
