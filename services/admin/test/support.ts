import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { AUTH_SCHEMA, migrations as authMigrations, buildApp as buildAuth } from '@flatship/auth';
import { createCarrierSet } from '@flatship/carriers';
import {
  createAuthTokenStateFetcher,
  createCachedTokenState,
  createDb,
  createInternalClient,
  createTransactor,
  type InternalClient,
  type Knex,
  migrate,
  type ServiceApp,
} from '@flatship/kit';
import { createOutbox, createPostgresBus, migrateBus, type Outbox, type PostgresBus } from '@flatship/kit/bus';
import { createTestDatabase, generateTokenKeys } from '@flatship/kit/testing';

/** Where auth says users open the web app; reset links point there. */
export const PUBLIC_URL = 'http://ship.test:8080';

import {
  type BtcpayDeps,
  buildApp as buildPayments,
  PAYMENTS_SCHEMA,
  migrations as paymentsMigrations,
} from '@flatship/payments';
import type { LedgerEntriesReply, SessionUser } from '@flatship/proto';
// The peers are started exactly as their main.ts wires them; these adapters are theirs, not copies.
import { createArgon2Hasher } from '../../auth/src/adapters/argon2-hasher';
import { createPaymentsMoneySummary } from '../../auth/src/adapters/payments-money-summary';
import { createPaymentsReferralBonuses } from '../../auth/src/adapters/payments-referral-bonuses';
import { createUserChangedPublisher } from '../../auth/src/db/outbox';
import { createAuthReferralDirectory } from '../../payments/src/adapters/auth-referrals';
import { createLedgerRepo } from '../../payments/src/db/ledger-repo';
import { buildApp } from '../src/app';
import { ADMIN_SCHEMA, migrations as adminMigrations } from '../src/db/migrations';
import { createRankingsStore } from '../src/db/rankings-repo';
import type { RankingsStore } from '../src/domain/rankings/ports';
import type { CarrierAccounts } from '../src/domain/read-carrier-balance';

export const INTERNAL_SECRET = 'test-internal-secret-0123456789';
export const PASSWORD = 'correct horse battery';

const quiet = { warn: () => {} };

async function listen(app: ServiceApp): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

export interface Stack {
  admin: ServiceApp;
  auth: ServiceApp;
  payments: ServiceApp;
  paymentsDb: Knex;
  authClient: InternalClient;
  paymentsClient: InternalClient;
  /** The admin schema: the user table and the audit. */
  adminDb: Knex;
  rankings: RankingsStore;
  /** The event bus all three share, as in the embedded topology. */
  bus: PostgresBus;
  keys: { publicKey: string; privateKey: string };
  /** Relays whatever auth and payments have recorded to the bus now (the relays also run on their own). */
  flush(): Promise<void>;
  /** A settled deposit, as payments records one when BTCPay confirms it. */
  deposit(userId: string, cents: number): Promise<void>;
  close(): Promise<void>;
}

/** The account balance the test carriers report, in cents. */
export const CARRIER_BALANCE_CENTS = 4_321_00;

/**
 * Real auth and payments on ephemeral ports over one test database, their outboxes relayed to a shared
 * bus (payments pays referral bonuses from it), and the admin app in front of them, fed by that bus. With
 * `btcpay`, payments takes top-ups and webhooks (the test fakes BTCPay at the network edge). Orders is only asked for dashboard figures: a
 * test that needs it passes a client of its own.
 */
export async function startStack(
  opts: {
    now?: () => Date;
    orders?: InternalClient;
    /** Stands in for the carriers (default: the sandbox reporting CARRIER_BALANCE_CENTS). */
    carriers?: CarrierAccounts;
    carrierBalanceWarnCents?: number;
    /** BTCPay for payments (a fake at the network edge); without it top-ups answer that deposits are off. */
    btcpay?: BtcpayDeps;
  } = {},
): Promise<Stack> {
  const tdb = await createTestDatabase('admin');
  const keys = generateTokenKeys();
  const authDb: Knex = createDb(tdb.url, AUTH_SCHEMA);
  const paymentsDb: Knex = createDb(tdb.url, PAYMENTS_SCHEMA);
  const adminDb: Knex = createDb(tdb.url, ADMIN_SCHEMA);
  await migrate(authDb, AUTH_SCHEMA, authMigrations);
  await migrate(paymentsDb, PAYMENTS_SCHEMA, paymentsMigrations);
  await migrate(adminDb, ADMIN_SCHEMA, adminMigrations);
  await migrateBus(adminDb, 'bus');
  const bus = createPostgresBus({ db: adminDb, schema: 'bus', pollIntervalMs: 100 });
  const authOutbox: Outbox = createOutbox({ db: authDb, schema: AUTH_SCHEMA, bus, pollIntervalMs: 100 });
  const paymentsOutbox: Outbox = createOutbox({ db: paymentsDb, schema: PAYMENTS_SCHEMA, bus, pollIntervalMs: 100 });
  const stopRelays = [await authOutbox.startRelay(), await paymentsOutbox.startRelay()];
  const rankings = createRankingsStore(adminDb);

  let paymentsUrl = '';
  let authUrl = '';
  // Clients resolve their base URL lazily: auth and payments each need the other's address.
  const lazyClient = (base: () => string): InternalClient => ({
    request: (method, path, opts) =>
      createInternalClient({ baseUrl: base(), secret: INTERNAL_SECRET }).request(method, path, opts),
  });
  const authClient = lazyClient(() => authUrl);
  const paymentsClient = lazyClient(() => paymentsUrl);
  const tokenStates = () => createCachedTokenState(createAuthTokenStateFetcher(authClient, quiet), 5_000);

  const auth = await buildAuth({
    db: authDb,
    logger: false,
    keys,
    tokenTtl: '1h',
    internalSecret: INTERNAL_SECRET,
    money: createPaymentsMoneySummary(paymentsClient),
    referralBonuses: createPaymentsReferralBonuses(paymentsClient),
    publishUserChanged: createUserChangedPublisher(authOutbox),
    hasher: createArgon2Hasher({ memoryCost: 1024, timeCost: 1 }),
    publicUrl: PUBLIC_URL,
    // Links an admin issues are answered to the admin, never mailed.
    mailer: { send: async () => {} },
  });
  const payments = await buildPayments({
    db: paymentsDb,
    logger: false,
    jwtPublicKey: keys.publicKey,
    internalSecret: INTERNAL_SECRET,
    tokenState: tokenStates(),
    accountChanges: paymentsOutbox,
    referralBonus: { bus, referrals: createAuthReferralDirectory(authClient) },
    ...(opts.btcpay ? { btcpay: opts.btcpay } : {}),
  });
  authUrl = await listen(auth);
  paymentsUrl = await listen(payments);

  const carriers = createCarrierSet('sandbox-usps', { sandboxBalanceCents: CARRIER_BALANCE_CENTS });
  const admin = await buildApp({
    db: adminDb,
    logger: false,
    jwtPublicKey: keys.publicKey,
    internalSecret: INTERNAL_SECRET,
    auth: authClient,
    payments: paymentsClient,
    carriers: opts.carriers ?? carriers,
    carrierBalanceWarnCents: opts.carrierBalanceWarnCents ?? 100_00,
    orders: opts.orders ?? createInternalClient({ baseUrl: 'http://127.0.0.1:9', secret: INTERNAL_SECRET }),
    tokenState: tokenStates(),
    bus,
    rankings,
    ...(opts.now ? { now: opts.now } : {}),
  });
  await admin.ready();

  return {
    admin,
    auth,
    payments,
    paymentsDb,
    authClient,
    paymentsClient,
    adminDb,
    bus,
    keys,
    async deposit(userId, cents) {
      const ledger = createLedgerRepo(paymentsDb, paymentsOutbox);
      await createTransactor(paymentsDb).run(async (tx) => {
        const balance = await ledger.lockAccount(userId, tx);
        const key = `test-deposit:${randomUUID()}`;
        await ledger.append(
          { userId, kind: 'deposit', amountCents: cents, balanceAfterCents: balance + cents, key },
          tx,
        );
      });
    },
    async flush() {
      await authOutbox.flush();
      await paymentsOutbox.flush();
    },
    rankings,
    async close() {
      await admin.close();
      await auth.close();
      await payments.close();
      for (const stop of stopRelays) await stop();
      await carriers.close();
      await bus.close();
      await authDb.destroy();
      await paymentsDb.destroy();
      await adminDb.destroy();
      await tdb.drop();
    },
  };
}

let seq = 0;
export interface Registered {
  token: string;
  user: SessionUser;
  email: string;
}

export async function register(s: Stack, name = 'Test User'): Promise<Registered> {
  const email = `user.${Date.now().toString(36)}.${++seq}@example.com`;
  const res = await s.auth.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name, email, password: PASSWORD, confirmPassword: PASSWORD },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { token: string; user: SessionUser };
  return { token: body.token, user: body.user, email };
}

export async function registerAdmin(s: Stack): Promise<Registered> {
  const admin = await register(s, 'Boss');
  await s.authClient.request('POST', `/internal/users/${admin.user._id}/role`, { body: { user_role: 'admin' } });
  // The role change revoked the first token.
  const login = await s.auth.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: admin.email, password: PASSWORD },
  });
  return { ...admin, token: (login.json() as { token: string }).token };
}

export async function ledgerOf(s: Stack, userId: string) {
  return (await s.paymentsClient.request<LedgerEntriesReply>('GET', `/internal/ledger/${userId}`)).entries;
}

export async function verify(s: Stack, token: string): Promise<SessionUser> {
  const res = await s.auth.inject({ url: '/api/auth/verify', headers: { token } });
  return (res.json() as { user: SessionUser }).user;
}

/**
 * Waits until `check` passes (events travel through the bus), failing with its last error after `ms`: a passing
 * test never waits that long, and a busy machine is slow to relay.
 */
export async function eventually<T>(check: () => Promise<T>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Waits until consumer group `group` has handled every message on `topics` so far (auth's and payments'
 * outboxes are relayed first): whatever those events were going to change has changed, so what a test finds
 * missing afterwards is missing for good.
 */
export async function handledAll(s: Stack, group: string, topics: string[]): Promise<void> {
  await s.flush();
  await eventually(async () => {
    const row = (await s.adminDb.raw(
      `select coalesce(sum(p.next_offset), 0) as produced, coalesce(sum(o.next_offset), 0) as handled
         from bus.partitions p
         left join bus.offsets o on o.group_id = ? and o.topic = p.topic and o.partition = p.partition
        where p.topic = any(?)`,
      [group, topics],
    )) as { rows: { produced: string; handled: string }[] };
    const { produced, handled } = row.rows[0] ?? { produced: '0', handled: '0' };
    if (Number(handled) !== Number(produced)) throw new Error(`${group} has handled ${handled} of ${produced}`);
  });
}
