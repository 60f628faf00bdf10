import { randomUUID, sign } from 'node:crypto';
import {
  createBusUserChangeFeed,
  createCachedTokenState,
  createDb,
  createTransactor,
  type Knex,
  migrate,
  type ServiceApp,
} from '@flatship/kit';
import { createOutbox, createPostgresBus, migrateBus, type Outbox, type PostgresBus } from '@flatship/kit/bus';
import { createTestDatabase, generateTokenKeys } from '@flatship/kit/testing';
import type { Role, TokenClaims, TokenState } from '@flatship/proto';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app';
import { createDepositSettledPublisher } from '../src/db/deposit-events';
import { createDepositsRepo } from '../src/db/deposits-repo';
import { createLedgerRepo } from '../src/db/ledger-repo';
import { migrations, PAYMENTS_SCHEMA } from '../src/db/migrations';
import type { Clock, DomainLogger } from '../src/domain/ports';
import type { SyncDepositDeps } from '../src/domain/sync-deposit';
import type { BtcpayDeps } from '../src/routes/deps';

export const INTERNAL_SECRET = 'test-internal-secret-0123456789';

/** Stands in for auth's users table: the token states auth would answer with. */
export function createUserDirectory() {
  const states = new Map<string, TokenState>();
  return {
    states,
    add(role: Role = 'user'): TokenState {
      const state: TokenState = { id: randomUUID(), role, activation: 'allow', tokenVersion: 1 };
      states.set(state.id, state);
      return state;
    },
    fetch: async (id: string) => states.get(id) ?? null,
  };
}

export interface TestPayments {
  app: ServiceApp;
  db: Knex;
  /** The outbox every ledger entry records `account.changed` in. */
  accountChanges: Outbox;
  bus: PostgresBus;
  keys: { publicKey: string; privateKey: string };
  users: ReturnType<typeof createUserDirectory>;
  repos: {
    ledger: ReturnType<typeof createLedgerRepo>;
    deposits: ReturnType<typeof createDepositsRepo>;
    transactor: ReturnType<typeof createTransactor>;
  };
  /** What the deposit use cases need, for driving them directly (btcpay only when started with it). */
  syncDeps(logger?: DomainLogger): SyncDepositDeps;
  /** A signed access token for this user, as auth would issue it. */
  tokenFor(state: TokenState, over?: Partial<TokenClaims>): string;
  close(): Promise<void>;
}

/**
 * A migrated database of its own and the app built from it the way main.ts builds it; on the run's
 * PostgreSQL unless `adminUrl` names another cluster.
 */
export async function startTestPayments(
  opts: { btcpay?: BtcpayDeps; clock?: Clock; adminUrl?: string } = {},
): Promise<TestPayments> {
  const tdb = await createTestDatabase('payments', opts.adminUrl);
  const db = createDb(tdb.url, PAYMENTS_SCHEMA, { max: 12 });
  await migrate(db, PAYMENTS_SCHEMA, migrations);
  await migrateBus(db, 'bus');
  const bus = createPostgresBus({ db, schema: 'bus' });
  const accountChanges = createOutbox({ db, schema: PAYMENTS_SCHEMA, bus });
  const keys = generateTokenKeys();
  const users = createUserDirectory();
  // A long TTL, so only a user.changed event can make a change visible quickly.
  const tokenState = createCachedTokenState(users.fetch, 60_000);
  const app = await buildApp({
    db,
    logger: false,
    jwtPublicKey: keys.publicKey,
    internalSecret: INTERNAL_SECRET,
    tokenState,
    accountChanges,
    userChanges: createBusUserChangeFeed(bus, { warn: () => {} }, 'payments-test'),
    ...(opts.btcpay ? { btcpay: opts.btcpay } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const repos = {
    ledger: createLedgerRepo(db, accountChanges),
    deposits: createDepositsRepo(db),
    transactor: createTransactor(db),
  };
  await app.ready();
  return {
    app,
    db,
    accountChanges,
    bus,
    keys,
    users,
    repos,
    syncDeps(logger = { info: () => {}, warn: () => {}, error: () => {} }) {
      if (!opts.btcpay) throw new Error('started without btcpay');
      return {
        ...repos,
        provider: opts.btcpay.provider,
        logger,
        clock: opts.clock ?? { now: () => new Date() },
        publishDepositSettled: createDepositSettledPublisher(accountChanges),
      };
    },
    tokenFor: (state, over = {}) =>
      signJwt(keys.privateKey, { sub: state.id, role: state.role, ver: state.tokenVersion, ...over }),
    async close() {
      await app.close();
      await bus.close();
      await db.destroy();
      await tdb.drop();
    },
  };
}

const b64url = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** An EdDSA JWT exactly as auth signs them (header, claims, Ed25519 signature). */
export function signJwt(privateKey: string, claims: TokenClaims, ttlSeconds = 3600): string {
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64url({ alg: 'EdDSA', typ: 'JWT' })}.${b64url({ ...claims, iat: now, exp: now + ttlSeconds })}`;
  return `${body}.${sign(null, Buffer.from(body), privateKey).toString('base64url')}`;
}

export function internal(
  app: ServiceApp,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { 'x-internal-secret': INTERNAL_SECRET },
    ...(payload ? { payload } : {}),
  });
}

/** Credits a deposit straight through the ledger repository (the BTCPay flow does this later). */
export async function creditDeposit(t: TestPayments, userId: string, cents: number, key: string = randomUUID()) {
  return t.repos.transactor.run(async (tx) => {
    const balance = await t.repos.ledger.lockAccount(userId, tx);
    const r = await t.repos.ledger.append(
      { userId, kind: 'deposit', amountCents: cents, balanceAfterCents: balance + cents, key },
      tx,
    );
    if (!r.ok) throw new Error('deposit key taken');
    return r.entry;
  });
}

export async function balanceOf(db: Knex, userId: string): Promise<number | null> {
  const row = await db('accounts').where({ user_id: userId }).first('balance_cents');
  return row ? Number(row.balance_cents) : null;
}

export async function ledgerSum(db: Knex, userId: string): Promise<number> {
  const row = await db('ledger_entries').where({ user_id: userId }).sum({ total: 'amount_cents' }).first();
  return Number(row?.total ?? 0);
}

export async function entriesOf(db: Knex, userId: string) {
  return db('ledger_entries').where({ user_id: userId }).orderBy('created_at');
}
