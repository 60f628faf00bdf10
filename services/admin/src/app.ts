import {
  authPlugin,
  type createLogger,
  createServiceApp,
  followUserChanges,
  type InternalClient,
  type ReadinessCheck,
  type ServiceApp,
  subscribeWhileOpen,
  type TokenStateSource,
  type UserChangeFeed,
} from '@flatship/kit';
import type { UserChangedEvent } from '@flatship/proto';
import { createAuthUserDirectory } from './adapters/auth-users';
import { createPaymentsBalances } from './adapters/payments-balances';
import type { LabelEventFeed } from './adapters/rankings-label-events';
import type { RankingsStore } from './domain/rankings/ports';
import { registerRankingRoutes } from './routes/rankings';
import { registerUserRoutes } from './routes/users';

export interface AdminAppDeps {
  logger: ReturnType<typeof createLogger> | false;
  jwtPublicKey: string;
  /** Internal clients of the services admin composes. */
  auth: InternalClient;
  payments: InternalClient;
  /** Current token states (from auth, cached); `apply` takes a change the moment it arrives. */
  tokenState: TokenStateSource & { apply(state: UserChangedEvent): void };
  /** `user.changed` events. Without them a revoked token still works until its cache entry expires. */
  userChanges?: UserChangeFeed;
  readiness?: ReadinessCheck[];
  /** The rankings read model, and the label events that keep it current (followed while the app is open). */
  rankings: RankingsStore;
  labelEvents?: LabelEventFeed;
  now?: () => Date;
}

/**
 * The admin area's API: it owns no users or money itself, but composes auth
 * and payments behind admin-only routes.
 */
export async function buildApp(deps: AdminAppDeps): Promise<ServiceApp> {
  const app = createServiceApp({ name: 'admin', logger: deps.logger, readiness: deps.readiness ?? [] });
  await app.register(authPlugin, { publicKey: deps.jwtPublicKey, tokenState: deps.tokenState });

  const users = createAuthUserDirectory(deps.auth);
  registerUserRoutes(app, {
    users,
    balances: createPaymentsBalances(deps.payments),
  });
  registerRankingRoutes(app, { rankings: deps.rankings, users, ...(deps.now ? { now: deps.now } : {}) });
  const labelEvents = deps.labelEvents;
  if (labelEvents) subscribeWhileOpen(app, { subscribe: () => labelEvents.subscribe() }, () => {});

  followUserChanges(app, deps.userChanges, deps.tokenState);
  return app;
}
