import {
  createDb,
  createInternalClient,
  createLogger,
  createTransactor,
  flatshipMetrics,
  loadConfig,
  migrate,
  runService,
} from '@flatship/kit';
import { createOutbox, openBus } from '@flatship/kit/bus';
import { createArgon2Hasher } from './adapters/argon2-hasher';
import { createLogResetMailer } from './adapters/log-reset-mailer';
import { createPaymentsMoneySummary } from './adapters/payments-money-summary';
import { createNoReferralBonuses, createPaymentsReferralBonuses } from './adapters/payments-referral-bonuses';
import { createSmtpResetMailer } from './adapters/smtp-reset-mailer';
import { createZeroMoneySummary } from './adapters/zero-money-summary';
import { buildApp } from './app';
import { type AuthConfig, AuthConfigSchema, assertMatchingKeys, liveChatOf } from './config';
import { AUTH_SCHEMA, migrations } from './db/migrations';
import { createUserChangedPublisher } from './db/outbox';
import { createUsersRepo } from './db/users-repo';
import { ensureAdmin } from './domain/ensure-admin';

// runService sets its shutdown deadline before it starts the service, so the
// configuration is read first; a bad one is still thrown inside start(), where
// runService reports it and exits with its configuration-error status.
let config: AuthConfig | undefined;
let configError: unknown;
try {
  config = loadConfig(AuthConfigSchema);
} catch (e) {
  configError = e;
}

await runService(
  'auth',
  async () => {
    if (!config) throw configError;
    assertMatchingKeys(config);
    const liveChat = liveChatOf(config);
    const logger = createLogger('auth', config.LOG_LEVEL);
    const db = createDb(config.DATABASE_URL, AUTH_SCHEMA, { logger });
    const applied = await migrate(db, AUTH_SCHEMA, migrations);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');

    const opened = await openBus({ config, db, logger, name: 'auth' });
    const { bus } = opened;
    const outbox = createOutbox({ db, schema: AUTH_SCHEMA, bus, logger });
    const stopRelay = await outbox.startRelay();

    const hasher = createArgon2Hasher();
    if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
      await ensureAdmin(
        {
          users: createUsersRepo(db),
          hasher,
          transactor: createTransactor(db),
          logger,
          publishUserChanged: createUserChangedPublisher(outbox),
        },
        { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD },
      );
    }

    const payments = config.PAYMENTS_URL
      ? createInternalClient({ baseUrl: config.PAYMENTS_URL, secret: config.INTERNAL_SECRET, timeoutMs: 5_000 })
      : null;
    const money = payments ? createPaymentsMoneySummary(payments) : createZeroMoneySummary();
    const referralBonuses = payments ? createPaymentsReferralBonuses(payments) : createNoReferralBonuses();
    if (!config.PAYMENTS_URL) logger.warn('PAYMENTS_URL is not set: every balance is reported as 0');

    const smtp = config.SMTP_URL ? createSmtpResetMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }) : null;
    if (!smtp) logger.warn('SMTP_URL is not set: password reset emails are not sent (an admin can make reset links)');

    const app = await buildApp({
      db,
      logger,
      keys: { publicKey: config.JWT_PUBLIC_KEY, privateKey: config.JWT_PRIVATE_KEY },
      tokenTtl: config.JWT_TTL,
      loginAsTtl: config.LOGIN_AS_TTL,
      internalSecret: config.INTERNAL_SECRET,
      money,
      referralBonuses,
      publishUserChanged: createUserChangedPublisher(outbox),
      hasher,
      publicUrl: config.PUBLIC_URL,
      mailer: smtp ?? createLogResetMailer(logger),
      liveChat,
    });
    opened.registerMetrics(app.metrics);

    flatshipMetrics(app.metrics).trackOutboxDepth(outbox.schema, outbox.depth);

    return {
      app,
      host: config.HOST,
      port: config.PORT,
      drainMs: config.SHUTDOWN_DRAIN_MS,
      async close() {
        await stopRelay();
        // Whatever committed in the last moments goes out now rather than at the next start.
        await outbox.flush().catch((err: unknown) => logger.warn({ err }, 'outbox not fully relayed at shutdown'));
        await opened.close();
        smtp?.close();
        await db.destroy();
      },
    };
  },
  config?.SHUTDOWN_TIMEOUT_MS,
);
