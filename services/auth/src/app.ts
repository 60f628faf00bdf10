import {
  authPlugin,
  type createLogger,
  createServiceApp,
  createTransactor,
  databaseReadiness,
  type Knex,
  type ReadinessCheck,
  type ServiceApp,
  systemClock,
} from '@flatship/kit';
import { createArgon2Hasher } from './adapters/argon2-hasher';
import { createNoReferralBonuses } from './adapters/payments-referral-bonuses';
import { createAddressesRepo } from './db/addresses-repo';
import { createPasswordResetsRepo } from './db/password-resets-repo';
import { createSkusRepo } from './db/skus-repo';
import { createUsersRepo } from './db/users-repo';
import type {
  AddressChecker,
  Clock,
  MoneySummarySource,
  PasswordHasher,
  PublishUserChanged,
  ReferralBonusSource,
  ResetMailer,
} from './domain/ports';
import { toTokenState } from './domain/session-user';
import { registerAddressRoutes } from './routes/addresses';
import { registerAuthRoutes } from './routes/auth';
import type { DomainDeps } from './routes/deps';
import { registerInternalRoutes } from './routes/internal';
import { registerInviteRoutes } from './routes/invite';
import { type LiveChatConfig, registerLiveChatRoutes } from './routes/live-chat';
import { registerPasswordResetRoutes } from './routes/password-reset';
import { registerSkuRoutes } from './routes/skus';
import { registerStatsRoutes } from './routes/stats';

/** A visit as a user is meant to be short: an hour unless configured otherwise (LOGIN_AS_TTL). */
export const DEFAULT_LOGIN_AS_TTL = '1h';

export interface AuthAppDeps {
  /** Connected to the auth schema (migrations already applied). */
  db: Knex;
  logger: ReturnType<typeof createLogger> | false;
  keys: { publicKey: string; privateKey: string };
  tokenTtl: string;
  /** How long a login-as token lives; 1h when not given. */
  loginAsTtl?: string;
  internalSecret: string;
  money: MoneySummarySource;
  /** The referral bonus of invited users (payments); without it the Invites page shows no bonus. */
  referralBonuses?: ReferralBonusSource;
  publishUserChanged: PublishUserChanged;
  hasher?: PasswordHasher;
  readiness?: ReadinessCheck[];
  /** Where users open the web app (PUBLIC_URL); password reset links point there. */
  publicUrl: string;
  /** Delivers password reset links; main.ts picks SMTP or the log. */
  mailer: ResetMailer;
  /** Tests move time forward to expire reset links. */
  clock?: Clock;
  liveChat?: LiveChatConfig;
  /** Checks saved addresses with the carrier (orders' internal route); without it they are saved unchecked. */
  addressChecker?: AddressChecker | null;
}

export async function buildApp(deps: AuthAppDeps): Promise<ServiceApp> {
  const app = createServiceApp({
    name: 'auth',
    logger: deps.logger,
    readiness: [databaseReadiness(deps.db), ...(deps.readiness ?? [])],
  });
  const users = createUsersRepo(deps.db);

  // Auth owns the users table, so it reads token state straight from it: no
  // cache, a revocation takes effect on the very next request.
  await app.register(authPlugin, {
    publicKey: deps.keys.publicKey,
    privateKey: deps.keys.privateKey,
    tokenTtl: deps.tokenTtl,
    tokenState: {
      async get(userId) {
        const user = await users.findById(userId);
        return user && toTokenState(user);
      },
    },
  });

  const domain: DomainDeps = {
    users,
    addresses: createAddressesRepo(deps.db),
    skus: createSkusRepo(deps.db),
    hasher: deps.hasher ?? createArgon2Hasher(),
    transactor: createTransactor(deps.db),
    publishUserChanged: deps.publishUserChanged,
    signToken: (claims, opts) => app.jwt.sign(claims, opts),
    loginAsTtl: deps.loginAsTtl ?? DEFAULT_LOGIN_AS_TTL,
    money: deps.money,
    referralBonuses: deps.referralBonuses ?? createNoReferralBonuses(),
    resets: createPasswordResetsRepo(deps.db),
    mailer: deps.mailer,
    clock: deps.clock ?? systemClock,
    publicUrl: deps.publicUrl,
    logger: app.log,
    addressChecker: deps.addressChecker ?? null,
  };
  registerAuthRoutes(app, domain);
  registerInviteRoutes(app, domain);
  registerAddressRoutes(app, domain);
  registerSkuRoutes(app, domain);
  registerPasswordResetRoutes(app, domain);
  registerLiveChatRoutes(app, domain, deps.liveChat ?? { widget: null, hmacToken: null });
  registerInternalRoutes(app, domain, deps.internalSecret);
  registerStatsRoutes(app, deps.db, deps.internalSecret);
  return app;
}
