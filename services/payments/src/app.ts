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
  systemClock,
  type TokenStateSource,
  type UserChangeFeed,
  whileOpen,
} from '@flatship/kit';
import type { EventBus, Outbox } from '@flatship/kit/bus';
import type { UserChangedEvent } from '@flatship/proto';
import { createDepositSettledPublisher } from './db/deposit-events';
import { createDepositsRepo } from './db/deposits-repo';
import { createLedgerRepo } from './db/ledger-repo';
import { createReferralBonusRepo } from './db/referral-bonus-repo';
import type { Clock, ReferralDirectory } from './domain/ports';
import { startReferralBonusConsumer } from './jobs/referral-bonus-consumer';
import { registerDepositRoutes } from './routes/deposits';
import type { BtcpayDeps, DomainDeps } from './routes/deps';
import { registerInternalRoutes } from './routes/internal';
import { registerReferralBonusRoutes } from './routes/referral-bonus';
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
  /**
   * Referral bonuses: `deposit.settled` is followed on `bus` (from the app being ready until it closes) and auth's
   * `referrals` say who referred whom. main.ts always gives both; without them no bonus is paid. Settled deposits
   * are announced through `accountChanges`' outbox.
   */
  referralBonus?: { bus: Pick<EventBus, 'subscribe'>; referrals: ReferralDirectory };
}

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
    bonuses: createReferralBonusRepo(deps.db),
    publishDepositSettled: createDepositSettledPublisher(deps.accountChanges),
    btcpay: deps.btcpay ?? null,
  };
  registerDepositRoutes(app, domain);
  registerTopUpRoutes(app, domain);
  await registerWebhookRoutes(app, domain);
  registerInternalRoutes(app, domain, deps.internalSecret);
  registerStatsRoutes(app, deps.db, deps.internalSecret);
  registerReferralBonusRoutes(app, domain, deps.internalSecret);

  const referralBonus = deps.referralBonus;
  if (referralBonus) {
    whileOpen(app, () =>
      startReferralBonusConsumer(referralBonus.bus, {
        ledger: domain.ledger,
        transactor: domain.transactor,
        bonuses: domain.bonuses,
        referrals: referralBonus.referrals,
        clock: domain.clock,
        logger: app.log,
      }),
    );
  }

  followUserChanges(app, deps.userChanges, deps.tokenState);
  return app;
}
