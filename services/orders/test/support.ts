import { randomUUID, sign } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxCarrier } from '@flatship/carriers';
import { createCachedTokenState, createDb, type Knex, migrate, type ServiceApp } from '@flatship/kit';
import { createOutbox, createPostgresBus, migrateBus, type Outbox, type PostgresBus } from '@flatship/kit/bus';
import { createTestDatabase, generateTokenKeys } from '@flatship/kit/testing';
import type { OrderCreateBody, Role, TokenState } from '@flatship/proto';
import { createLocalFileStore } from '../src/adapters/local-file-store';
import { buildApp, createDomainDeps } from '../src/app';
import { migrations, ORDERS_SCHEMA } from '../src/db/migrations';
import { createEventRecorder, createLabelPurchasedPublisher, createLabelRefundedPublisher } from '../src/db/outbox';
import type { LabelConverter } from '../src/domain/label-formats';
import type { CarrierPort, Clock, FileStore, LedgerPort, QuotePort } from '../src/domain/ports';
import type { CarrierRoutesDeps } from '../src/routes/carrier-routes';
import type { DomainDeps } from '../src/routes/deps';

export const INTERNAL_SECRET = 'test-internal-secret-0123456789';

export interface OrdersHarness {
  app: ServiceApp;
  db: Knex;
  /** The database URL, for peers started on the same test database. */
  url: string;
  filesDir: string;
  keys: { publicKey: string; privateKey: string };
  /** Users the token-state source knows; add with `user()`. */
  states: Map<string, TokenState>;
  domain: DomainDeps & { clock: Clock };
  bus: PostgresBus;
  outbox: Outbox;
  close(): Promise<void>;
}

export interface HarnessPorts {
  quotes: QuotePort;
  ledger: LedgerPort;
  carrier?: CarrierPort;
  /** The enabled carriers' couriers, when the test enables more than the default. */
  couriers?: readonly string[];
  /** Serves /internal/carrier-routes with this carrier set and route store. */
  carrierRoutes?: CarrierRoutesDeps;
}

/** Longer than any test runs: retry-failed answers once the retried rows have settled, never for want of time. */
const RETRY_WAIT_FOR_THE_OUTCOME_MS = 10 * 60_000;

/**
 * A migrated test database, a temporary FILES_DIR and the orders app built as
 * main.ts builds it. Peers come in through `ports` so a test file can give the
 * real pricing and payments services or its own in-memory ports.
 */
export async function startOrders(
  makePorts: (ctx: {
    url: string;
    keys: { publicKey: string; privateKey: string };
    /** The users every service in the test accepts tokens of, as auth would answer. */
    states: Map<string, TokenState>;
  }) => Promise<HarnessPorts>,
  opts: {
    onClose?: () => Promise<void>;
    retryWaitMs?: number;
    /** A cluster of the test's own instead of the run's PostgreSQL. */
    adminUrl?: string;
    /** Wraps the file store the app and the domain write through (e.g. to count writes, or fail one). */
    files?: (real: FileStore) => FileStore;
    /** EasyPost's webhook secret, for the tracker webhook. */
    easyPostWebhookSecret?: string;
    /** Converts label files instead of pdftoppm and pdf-lib (e.g. to count or hold conversions). */
    converter?: LabelConverter;
    /** How many ZPL conversions run at once. */
    zplConversions?: number;
    /**
     * Single-label purchases at work at once (the lock pool's size) and waiting for one of them. By default 20 and
     * 30: fewer at work than the concurrency test's 50 purchases, so that it also shows the rest waiting their turn.
     */
    purchases?: { atWork: number; waiting: number };
  } = {},
): Promise<OrdersHarness> {
  const tdb = await createTestDatabase('orders', opts.adminUrl);
  const db = createDb(tdb.url, ORDERS_SCHEMA, { max: 20 });
  const purchases = opts.purchases ?? { atWork: 20, waiting: 30 };
  const lockDb = createDb(tdb.url, ORDERS_SCHEMA, { max: purchases.atWork });
  await migrate(db, ORDERS_SCHEMA, migrations);
  await migrateBus(db, 'bus');
  const bus = createPostgresBus({ db, schema: 'bus' });
  const outbox = createOutbox({ db, schema: ORDERS_SCHEMA, bus });
  const keys = generateTokenKeys();
  const filesDir = await mkdtemp(join(tmpdir(), 'orders-files-'));
  const states = new Map<string, TokenState>();
  const tokenState = createCachedTokenState(async (id) => states.get(id) ?? null, 0);
  const ports = await makePorts({ url: tdb.url, keys, states });
  const deps = {
    db,
    lockDb,
    quotes: ports.quotes,
    ledger: ports.ledger,
    carrier: ports.carrier ?? createSandboxCarrier(),
    ...(ports.couriers ? { couriers: ports.couriers } : {}),
    ...(ports.carrierRoutes ? { carrierRoutes: ports.carrierRoutes } : {}),
    files: (opts.files ?? ((real) => real))(createLocalFileStore(filesDir)),
    publishLabelPurchased: createLabelPurchasedPublisher(outbox),
    publishLabelRefunded: createLabelRefundedPublisher(outbox),
    events: createEventRecorder(outbox),
    carrierRetryDelaysMs: [1, 1],
    // Tests read a retry's outcome from its answer, so the answer waits for it however long this machine takes;
    // the test's own timeout is the bound.
    retryWaitMs: opts.retryWaitMs ?? RETRY_WAIT_FOR_THE_OUTCOME_MS,
    ...(opts.converter ? { converter: opts.converter } : {}),
    ...(opts.zplConversions ? { zplConversions: opts.zplConversions } : {}),
    purchaseQueue: purchases.waiting,
  };
  const app = await buildApp({
    ...deps,
    logger: false,
    jwtPublicKey: keys.publicKey,
    tokenState,
    internalSecret: INTERNAL_SECRET,
    easyPostWebhookSecret: opts.easyPostWebhookSecret,
  });
  await app.ready();
  const silent = { info() {}, warn() {}, error() {} };
  return {
    app,
    db,
    url: tdb.url,
    filesDir,
    keys,
    states,
    bus,
    outbox,
    domain: { ...createDomainDeps(deps, silent), clock: { now: () => new Date() } },
    async close() {
      await app.close();
      await opts.onClose?.();
      await bus.close();
      await db.destroy();
      await lockDb.destroy();
      await tdb.drop();
      await rm(filesDir, { recursive: true, force: true });
    },
  };
}

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/** An access token as auth signs it (EdDSA, `sub`/`role`/`ver`; a login-as token also `imp`/`iv`). */
export function signToken(
  privateKey: string,
  claims: { sub: string; role: Role; ver: number; imp?: string; iv?: number },
): string {
  const now = Math.floor(Date.now() / 1000);
  const head = b64url(JSON.stringify({ alg: 'EdDSA', typ: 'JWT' }));
  const body = b64url(JSON.stringify({ ...claims, iat: now, exp: now + 3600 }));
  const sig = sign(null, Buffer.from(`${head}.${body}`), privateKey);
  return `${head}.${body}.${b64url(sig)}`;
}

export interface TestUser {
  id: string;
  token: string;
}

/** A user the token-state source accepts, with a valid token. */
export function user(h: OrdersHarness, role: Role = 'user', id = randomUUID()): TestUser {
  h.states.set(id, { id, role, activation: 'allow', tokenVersion: 1 });
  return { id, token: signToken(h.keys.privateKey, { sub: id, role, ver: 1 }) };
}

/**
 * A Login As token as auth issues it: `target`'s token naming the admin visiting as them (`imp`, at the admin's
 * impersonation version `iv`).
 */
export function loginAs(h: OrdersHarness, admin: TestUser, target: TestUser): TestUser {
  h.states.set(admin.id, {
    id: admin.id,
    role: 'admin',
    activation: 'allow',
    tokenVersion: 1,
    impersonationVersion: 1,
  });
  const role = h.states.get(target.id)?.role ?? 'user';
  return { id: target.id, token: signToken(h.keys.privateKey, { sub: target.id, role, ver: 1, imp: admin.id, iv: 1 }) };
}

/** A complete, valid single-label order as the web sends it. */
export function orderBody(userId: string, over: Partial<OrderCreateBody> = {}): OrderCreateBody {
  return {
    user_id: userId,
    service_name: 'USPS Priority Mail',
    manifested: false,
    courier: 'usps',
    sender: {
      sender_name: 'Ada Sender',
      sender_phone: '+1 555-010-0000',
      sender_company: 'Acme',
      sender_address1: '1 Main St',
      sender_address2: '',
      sender_city: 'Austin',
      sender_state_province: 'TX',
      sender_zip_postal: '73301',
      sender_country: 'US',
      ...over.sender,
    },
    receiver: {
      receiver_name: 'Bob Receiver',
      receiver_phone: '',
      receiver_company: '',
      receiver_address1: '2 Side Ave',
      receiver_address2: 'Apt 3',
      receiver_city: 'Los Angeles',
      receiver_state_province: 'CA',
      receiver_zip_postal: '90001',
      receiver_country: 'US',
      ...over.receiver,
    },
    package: {
      package_length: 10,
      package_width: 8,
      package_height: 4,
      package_weight: 2,
      package_weight_unit: 'LB',
      package_description: 'Books',
      package_reference1: '1',
      package_reference2: 'SKU-1',
      ...over.package,
    },
    ...(over.service_name !== undefined ? { service_name: over.service_name } : {}),
  };
}

export function postOrder(h: OrdersHarness, u: TestUser, body: unknown, headers: Record<string, string> = {}) {
  return h.app.inject({
    method: 'POST',
    url: '/api/orders/v2',
    headers: { token: u.token, ...headers },
    payload: body as object,
  });
}

export interface LabelRowView {
  id: string;
  status: string;
  refunded: boolean;
  price_cents: number;
  pdf_name: string | null;
  tracking_number: string | null;
  error: string | null;
  charged_at: Date | null;
}

export const labelRows = (h: OrdersHarness, userId: string): Promise<LabelRowView[]> =>
  h.db('labels').where({ user_id: userId }).orderBy('created_at');

export const outboxRows = (
  h: OrdersHarness,
): Promise<{ topic: string; key: string; value: Record<string, unknown> }[]> =>
  h.db('outbox').select('topic', 'key', 'value').orderBy('id');

/**
 * A label row as a purchase leaves it, written straight to the table: for figures that only read rows.
 * `at` is when it was bought, `updatedAt` when it last changed.
 */
export async function insertLabelRow(
  db: Knex,
  row: {
    userId: string;
    status: 'pending' | 'completed' | 'cancelled';
    priceCents: number;
    at: string | Date;
    updatedAt?: string | Date;
    serviceName?: string;
  },
): Promise<string> {
  const id = randomUUID();
  const completed = row.status === 'completed';
  await db('labels').insert({
    id,
    user_id: row.userId,
    status: row.status,
    courier: 'usps',
    service_uid: 'usps_priority_mail',
    service_name: row.serviceName ?? 'USPS Priority Mail',
    sender: {},
    receiver: {},
    package: {},
    price_cents: row.priceCents,
    charge_key: `charge-${id}`,
    tracking_number: completed ? `9400${row.priceCents}` : null,
    pdf_name: completed ? `${id}.pdf` : null,
    created_at: row.at,
    updated_at: row.updatedAt ?? row.at,
  });
  return id;
}

/** What orders' configuration requires, with values no test connects to: for tests that read the configuration. */
export const CONFIG_ENV_REQUIRED = {
  DATABASE_URL: 'postgres://unused',
  JWT_PUBLIC_KEY: 'x'.repeat(40),
  INTERNAL_SECRET: 'x'.repeat(16),
  AUTH_URL: 'http://127.0.0.1:9',
  PRICING_URL: 'http://127.0.0.1:9',
  PAYMENTS_URL: 'http://127.0.0.1:9',
  FILES_DIR: '/tmp',
};

/** Opens a download as the browser does: a link from download-token, then the link (with `query` appended). */
export async function openDownload(app: ServiceApp, u: TestUser, path: string, query = '') {
  const link = await app.inject({
    method: 'POST',
    url: '/api/orders/download-token',
    headers: { token: u.token },
    payload: { path },
  });
  if (link.statusCode !== 200) throw new Error(`download-token answered ${link.statusCode}: ${link.body}`);
  return app.inject({ url: `${link.json().url}${query}` });
}
