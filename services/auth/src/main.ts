import { createTransactor, loadConfig, runServiceRuntime } from '@flatship/kit';
import { createArgon2Hasher } from './adapters/argon2-hasher';
import { createLogResetMailer } from './adapters/log-reset-mailer';
import { createOrdersAddressChecker } from './adapters/orders-address-checker';
import { createPaymentsMoneySummary } from './adapters/payments-money-summary';
import { createNoReferralBonuses, createPaymentsReferralBonuses } from './adapters/payments-referral-bonuses';
import { createSmtpResetMailer } from './adapters/smtp-reset-mailer';
import { createZeroMoneySummary } from './adapters/zero-money-summary';
import { buildApp } from './app';
import { AuthConfigSchema, assertMatchingKeys, liveChatOf } from './config';
import { AUTH_SCHEMA, migrations } from './db/migrations';
import { createUserChangedPublisher } from './db/outbox';
import { createUsersRepo } from './db/users-repo';
import { ensureAdmin } from './domain/ensure-admin';

await runServiceRuntime({
  name: 'auth',
  config: () => {
    const config = loadConfig(AuthConfigSchema);
    // Checked with the rest of the configuration, before anything is opened.
    assertMatchingKeys(config);
    return { ...config, liveChat: liveChatOf(config) };
  },
  database: (config) => ({ url: config.DATABASE_URL, schema: AUTH_SCHEMA, migrations }),
  outbox: {},
  async build({ config, logger, db, outbox, internalClient, own }) {
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

    const payments = config.PAYMENTS_URL ? internalClient(config.PAYMENTS_URL, { timeoutMs: 5_000 }) : null;
    const money = payments ? createPaymentsMoneySummary(payments) : createZeroMoneySummary();
    const referralBonuses = payments ? createPaymentsReferralBonuses(payments) : createNoReferralBonuses();
    if (!config.PAYMENTS_URL) logger.warn('PAYMENTS_URL is not set: every balance is reported as 0');

    // Saved addresses are checked with the carriers, which orders holds.
    const addressChecker = config.ORDERS_URL
      ? createOrdersAddressChecker(internalClient(config.ORDERS_URL, { timeoutMs: 10_000 }), logger)
      : null;
    if (!addressChecker) logger.warn('ORDERS_URL is not set: saved addresses are not checked with the carrier');

    const smtp = config.SMTP_URL
      ? own(createSmtpResetMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }))
      : null;
    if (!smtp) logger.warn('SMTP_URL is not set: password reset emails are not sent (an admin can make reset links)');

    return buildApp({
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
      liveChat: config.liveChat,
      addressChecker,
    });
  },
});
