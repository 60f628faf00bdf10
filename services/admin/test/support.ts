import type { AddressInfo } from 'node:net';
import { AUTH_SCHEMA, migrations as authMigrations, buildApp as buildAuth } from '@flatship/auth';
import {
  createAuthTokenStateFetcher,
  createCachedTokenState,
  createDb,
  createInternalClient,
  type InternalClient,
  type Knex,
  migrate,
  type ServiceApp,
} from '@flatship/kit';
import { createTestDatabase, generateTokenKeys } from '@flatship/kit/testing';

/** Where auth says users open the web app; reset links point there. */
export const PUBLIC_URL = 'http://ship.test:8080';

import { buildApp as buildPayments, PAYMENTS_SCHEMA, migrations as paymentsMigrations } from '@flatship/payments';
import type { LedgerEntriesReply, SessionUser } from '@flatship/proto';
// The peers are started exactly as their main.ts wires them; these adapters are theirs, not copies.
import { createArgon2Hasher } from '../../auth/src/adapters/argon2-hasher';
import { createPaymentsMoneySummary } from '../../auth/src/adapters/payments-money-summary';
import { buildApp } from '../src/app';

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
  authClient: InternalClient;
  paymentsClient: InternalClient;
  close(): Promise<void>;
}

/** Real auth and payments on ephemeral ports over one test database, and the admin app in front of them. */
export async function startStack(): Promise<Stack> {
  const tdb = await createTestDatabase('admin');
  const keys = generateTokenKeys();
  const authDb: Knex = createDb(tdb.url, AUTH_SCHEMA);
  const paymentsDb: Knex = createDb(tdb.url, PAYMENTS_SCHEMA);
  await migrate(authDb, AUTH_SCHEMA, authMigrations);
  await migrate(paymentsDb, PAYMENTS_SCHEMA, paymentsMigrations);

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
    publishUserChanged: async () => {},
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
  });
  authUrl = await listen(auth);
  paymentsUrl = await listen(payments);

  const admin = await buildApp({
    logger: false,
    jwtPublicKey: keys.publicKey,
    auth: authClient,
    payments: paymentsClient,
    tokenState: tokenStates(),
  });
  await admin.ready();

  return {
    admin,
    auth,
    payments,
    authClient,
    paymentsClient,
    async close() {
      await admin.close();
      await auth.close();
      await payments.close();
      await authDb.destroy();
      await paymentsDb.destroy();
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
