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
import type { Outbox } from '@flatship/kit/bus';
import type { UserChangedEvent } from '@flatship/proto';
import { createDepositsRepo } from './db/deposits-repo';
import { createLedgerRepo } from './db/ledger-repo';
import type { Clock } from './domain/ports';
import { registerDepositRoutes } from './routes/deposits';
import type { BtcpayDeps, DomainDeps } from './routes/deps';
import { registerInternalRoutes } from './routes/internal';
import { registerStatsRoutes } from './routes/stats';
import { registerTopUpRoutes } from './routes/top-up';
import { registerWebhookRoutes } from './routes/webhook';

export interface PaymentsAppDeps {
  /** Connected to the payments schema (migrations already applied). */
  db: Knex;
  logger: ReturnType<typeof createLogger> | false;
  jwtPublicKey: string;
  internalSecret: string;
  /** Current token states (from auth, cached); `apply` takes a change the moment it arrives. */
  tokenState: TokenStateSource & { apply(state: UserChangedEvent): void };
  /** `user.changed` events. Without them a revoked token still works until its cache entry expires. */
  userChanges?: UserChangeFeed;
  readiness?: ReadinessCheck[];
  /** BTCPay for deposits; without it top-ups and webhooks answer 503 and everything else works. */
  btcpay?: BtcpayDeps;
  clock?: Clock;
  /**
   * Where `account.changed` is recorded with every ledger entry (main.ts always gives it; the admin user
   * table is fed by it). Without it money still moves, unannounced.
   */
  accountChanges?: Outbox;
}

export const systemClock: Clock = { now: () => new Date() };

export async function buildApp(deps: PaymentsAppDeps): Promise<ServiceApp> {
  const app = createServiceApp({
    name: 'payments',
    logger: deps.logger,
    readiness: [databaseReadiness(deps.db), ...(deps.readiness ?? [])],
  });

  await app.register(authPlugin, { publicKey: deps.jwtPublicKey, tokenState: deps.tokenState });

  const domain: DomainDeps = {
    ledger: createLedgerRepo(deps.db, deps.accountChanges),
    deposits: createDepositsRepo(deps.db),
    transactor: createTransactor(deps.db),
    clock: deps.clock ?? systemClock,
    btcpay: deps.btcpay ?? null,
  };
  registerDepositRoutes(app, domain);
  registerTopUpRoutes(app, domain);
  await registerWebhookRoutes(app, domain);
  registerInternalRoutes(app, domain, deps.internalSecret);
  registerStatsRoutes(app, deps.db, deps.internalSecret);

  followUserChanges(app, deps.userChanges, deps.tokenState);
  return app;
}
