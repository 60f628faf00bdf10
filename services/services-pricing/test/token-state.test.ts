import type { AddressInfo } from 'node:net';
import { AUTH_SCHEMA, migrations as authMigrations, buildApp as buildAuthApp } from '@flatship/auth';
import {
  createAuthTokenStateFetcher,
  createBusUserChangeFeed,
  createCachedTokenState,
  createDb,
  createInternalClient,
  type Knex,
  migrate,
  type ServiceApp,
} from '@flatship/kit';
import { createOutbox, createPostgresBus, migrateBus, type PostgresBus } from '@flatship/kit/bus';
import { createTestDatabase, generateTokenKeys } from '@flatship/kit/testing';
import { TOPICS } from '@flatship/proto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildApp } from '../src/app';
import { migrations, PRICING_SCHEMA } from '../src/db/migrations';
import { createFakeCarrier, INTERNAL_SECRET } from './support';

// The real auth service over HTTP, and user.changed over the real Postgres bus, as in production.
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
let authDb: Knex;
let pricingDb: Knex;
let authBus: PostgresBus;
let pricingBus: PostgresBus;
let auth: ServiceApp;
let pricing: ServiceApp;
let authUrl: string;
let stopRelay: () => Promise<void>;
const silent = { warn() {} };

beforeAll(async () => {
  tdb = await createTestDatabase('pricing_tokens');
  const keys = generateTokenKeys();
  authDb = createDb(tdb.url, AUTH_SCHEMA);
  await migrate(authDb, AUTH_SCHEMA, authMigrations);
  await migrateBus(authDb, 'bus');
  authBus = createPostgresBus({ db: authDb, schema: 'bus' });
  const outbox = createOutbox({ db: authDb, schema: AUTH_SCHEMA, bus: authBus });
  auth = await buildAuthApp({
    db: authDb,
    logger: false,
    keys,
    tokenTtl: '1h',
    internalSecret: INTERNAL_SECRET,
    money: { get: async () => new Map() },
    publicUrl: 'http://localhost:8080',
    mailer: { send: async () => {} },
    publishUserChanged: (tx, event) =>
      outbox.add(tx as unknown as Knex.Transaction, TOPICS.userChanged, [{ key: event.id, value: event }]),
  });
  await auth.listen({ port: 0, host: '127.0.0.1' });
  authUrl = `http://127.0.0.1:${(auth.server.address() as AddressInfo).port}`;
  // Relay the outbox continuously, as auth's main.ts does.
  stopRelay = await outbox.startRelay();

  pricingDb = createDb(tdb.url, PRICING_SCHEMA);
  await migrate(pricingDb, PRICING_SCHEMA, migrations);
  pricingBus = createPostgresBus({ db: pricingDb, schema: 'bus' });
  const client = createInternalClient({ baseUrl: authUrl, secret: INTERNAL_SECRET });
  pricing = await buildApp({
    db: pricingDb,
    logger: false,
    publicKey: keys.publicKey,
    internalSecret: INTERNAL_SECRET,
    // A long cache: only the event can make a block take effect within this test.
    tokenState: createCachedTokenState(createAuthTokenStateFetcher(client, silent), 60_000),
    userChanges: createBusUserChangeFeed(pricingBus, silent, 'services-pricing'),
    source: createFakeCarrier(),
  });
  await pricing.ready();
});

afterAll(async () => {
  await pricing.close();
  await stopRelay();
  await auth.close();
  await pricingBus.close();
  await authBus.close();
  await pricingDb.destroy();
  await authDb.destroy();
  await tdb.drop();
});

async function registerUser(): Promise<{ id: string; token: string }> {
  const res = await fetch(`${authUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Shipper',
      email: `shipper.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`,
      password: 'correct horse battery',
      confirmPassword: 'correct horse battery',
    }),
  });
  const body = (await res.json()) as { token: string; user: { _id: string } };
  return { id: body.user._id, token: body.token };
}

const available = (u: { id: string; token: string }) =>
  pricing.inject({ method: 'GET', url: `/api/userServices/${u.id}/available`, headers: { token: u.token } });

test('a token issued by auth is accepted, and blocking the user ends it at once through user.changed', async () => {
  const user = await registerUser();
  expect((await available(user)).statusCode).toBe(200);

  const block = await fetch(`${authUrl}/internal/users/${user.id}/activation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-secret': INTERNAL_SECRET },
    body: JSON.stringify({ activation: 'block' }),
  });
  expect(block.status).toBe(200);

  const deadline = Date.now() + 10_000;
  while ((await available(user)).statusCode === 200 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  // Blocking bumps the token version, so the old token is refused as ended.
  const res = await available(user);
  expect({ status: res.statusCode, ...res.json() }).toEqual({
    status: 401,
    code: 'AUTH_TOKEN_REVOKED',
    message: 'Your session has ended. Please log in again.',
  });
}, 30_000);

async function internalPost(path: string, body: object): Promise<Response> {
  return fetch(`${authUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-secret': INTERNAL_SECRET },
    body: JSON.stringify(body),
  });
}

/** The first status `call` answers other than `from`, polling until `ms` have passed (or `from` still). */
async function statusAfter(call: () => Promise<{ statusCode: number }>, from: number, ms = 10_000): Promise<number> {
  const deadline = Date.now() + ms;
  let status = (await call()).statusCode;
  while (status === from && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await call()).statusCode;
  }
  return status;
}

test('a Login As token ends at once through user.changed when its admin is demoted or goes back to admin', async () => {
  for (const end of ['demoted', 'back to admin'] as const) {
    const admin = await registerUser();
    expect((await internalPost(`/internal/users/${admin.id}/role`, { user_role: 'admin' })).status).toBe(200);
    const user = await registerUser();
    const issued = await internalPost(`/internal/users/${user.id}/login-as-token`, { adminId: admin.id });
    const visit = { id: user.id, token: ((await issued.json()) as { token: string }).token };
    expect((await available(visit)).statusCode, end).toBe(200);

    if (end === 'demoted') {
      expect((await internalPost(`/internal/users/${admin.id}/role`, { user_role: 'user' })).status).toBe(200);
    } else {
      const ended = await fetch(`${authUrl}/api/auth/login-as/end`, {
        method: 'POST',
        headers: { token: visit.token },
      });
      expect(ended.status).toBe(200);
    }
    // The admin's state was cached for a minute: only the event can explain the refusal.
    expect(await statusAfter(() => available(visit), 200), end).toBe(401);
    expect((await available(user)).statusCode, end).toBe(200);
  }
}, 30_000);

test('a token of a user auth does not know is refused', async () => {
  const user = await registerUser();
  await authDb('users').where({ id: user.id }).del();
  const res = await available(user);
  expect(res.statusCode).toBe(401);
});
