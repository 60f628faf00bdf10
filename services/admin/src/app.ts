import {
  authPlugin,
  type createLogger,
  createServiceApp,
  followUserChanges,
  type InternalClient,
  type Knex,
  type ReadinessCheck,
  type ServiceApp,
  type TokenStateSource,
  type UserChangeFeed,
  whileOpen,
} from '@flatship/kit';
import type { EventBus } from '@flatship/kit/bus';
import type { UserChangedEvent } from '@flatship/proto';
import { createAuthUserStats } from './adapters/auth-user-stats';
import { createAuthUserDirectory } from './adapters/auth-users';
import { createOrdersLabelStats } from './adapters/orders-label-stats';
import { createPaymentsBalances } from './adapters/payments-balances';
import { createPaymentsDepositStats } from './adapters/payments-deposit-stats';
import { createPaymentsReferralBonusSettings } from './adapters/payments-referral-bonus';
import type { LabelEventFeed } from './adapters/rankings-label-events';
import { createAuditRepo } from './db/audit-repo';
import { createUsersViewRepo } from './db/users-view-repo';
import type { RankingsStore } from './domain/rankings/ports';
import type { CarrierAccounts } from './domain/read-carrier-balance';
import { followReadModels } from './read-models';
import { registerAuditRoutes } from './routes/audit';
import { registerCarrierBalanceRoutes } from './routes/carrier-balance';
import { registerDashboardRoutes } from './routes/dashboard';
import { registerInternalRoutes } from './routes/internal';
import { registerRankingRoutes } from './routes/rankings';
import { registerReferralBonusRoutes } from './routes/referral-bonus';
import { registerUserRoutes } from './routes/users';

export interface AdminAppDeps {
  /** Connected to the admin schema (migrations already applied): the read models. */
  db: Knex;
  logger: ReturnType<typeof createLogger> | false;
  jwtPublicKey: string;
  internalSecret: string;
  /** Internal clients of the services admin composes. */
  auth: InternalClient;
  payments: InternalClient;
  /** The enabled carriers (`CARRIERS`), for their account balances. */
  carriers: CarrierAccounts;
  /** A carrier account below this many cents is shown as low (`CARRIER_BALANCE_WARN_CENTS`). */
  carrierBalanceWarnCents: number;
  orders: InternalClient;
  /** Current token states (from auth, cached); `apply` takes a change the moment it arrives. */
  tokenState: TokenStateSource & { apply(state: UserChangedEvent): void };
  /** `user.changed` events. Without them a revoked token still works until its cache entry expires. */
  userChanges?: UserChangeFeed;
  /** The bus the read models are fed from; subscribed once the app is ready, closed with it. */
  bus?: Pick<EventBus, 'subscribe'>;
  readiness?: ReadinessCheck[];
  /** The rankings read model, and the label events that keep it current (followed while the app is open). */
  rankings: RankingsStore;
  labelEvents?: LabelEventFeed;
  now?: () => Date;
}

/**
 * The admin area's API: user management over its own read model of users (fed by auth's and payments'
 * events), commands passed on to auth and payments, login-as, the impersonation audit and the carrier
 * balance, all behind admin-only routes.
 */
export async function buildApp(deps: AdminAppDeps): Promise<ServiceApp> {
  const app = createServiceApp({ name: 'admin', logger: deps.logger, readiness: deps.readiness ?? [] });
  await app.register(authPlugin, { publicKey: deps.jwtPublicKey, tokenState: deps.tokenState });

  const view = createUsersViewRepo(deps.db);
  const audit = createAuditRepo(deps.db);
  const users = createAuthUserDirectory(deps.auth);
  const balances = createPaymentsBalances(deps.payments);

  registerUserRoutes(app, { users, balances, view });
  registerAuditRoutes(app, { audit });
  registerCarrierBalanceRoutes(app, {
    carriers: deps.carriers,
    warnBelowCents: deps.carrierBalanceWarnCents,
    orders: deps.orders,
  });
  registerRankingRoutes(app, { rankings: deps.rankings, users, ...(deps.now ? { now: deps.now } : {}) });
  registerInternalRoutes(app, { users, balances, view }, deps.internalSecret);
  registerReferralBonusRoutes(app, { users, settings: createPaymentsReferralBonusSettings(deps.payments) });

  const bus = deps.bus;
  if (bus) whileOpen(app, () => followReadModels(bus, { view, audit, log: app.log }));
  const labelEvents = deps.labelEvents;
  if (labelEvents) whileOpen(app, () => labelEvents.subscribe());

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
