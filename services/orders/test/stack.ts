import { randomUUID } from 'node:crypto';
import { type CarrierSet, type CarrierSettings, createCarrierSet, createSandboxCarrier } from '@flatship/carriers';
import {
  createCachedTokenState,
  createDb,
  createInternalClient,
  type Knex,
  migrate,
  type ServiceApp,
} from '@flatship/kit';
import { buildApp as buildPayments, PAYMENTS_SCHEMA, migrations as paymentsMigrations } from '@flatship/payments';
import { buildApp as buildPricing, PRICING_SCHEMA, migrations as pricingMigrations } from '@flatship/services-pricing';
import { createPaymentsLedger } from '../src/adapters/payments-ledger';
import { createPricingQuotes } from '../src/adapters/pricing-quotes';
import { createCarrierMemory } from '../src/db/carrier-memory';
import { type CarrierRouteStore, createCarrierRouteStore } from '../src/db/carrier-routes';
import { ORDERS_SCHEMA } from '../src/db/migrations';
import type { LabelConverter } from '../src/domain/label-formats';
import type { CarrierPort, FileStore, LedgerPort } from '../src/domain/ports';
import { INTERNAL_SECRET, type OrdersHarness, signToken, startOrders, type TestUser, user } from './support';

export interface Stack extends OrdersHarness {
  payments: ServiceApp;
  pricing: ServiceApp;
  /** The payments schema of the shared test database, for ledger invariants. */
  paymentsDb: Knex;
  internalPayments(path: string, body: unknown): Promise<{ status: number; json: unknown }>;
  /** Sets a user's balance through payments' internal route (recorded as an admin adjustment). */
  setBalance(userId: string, cents: number): Promise<void>;
  balanceCents(userId: string): Promise<number>;
  ledgerEntries(userId: string): Promise<{ kind: string; amount_cents: string; idempotency_key: string }[]>;
  /** An admin's token, for pricing's admin routes. */
  adminToken: string;
  /** Enables or disables a default service in pricing, as an admin would. */
  setServiceEnabled(name: string, enabled: boolean): Promise<void>;
}

async function listen(app: ServiceApp): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no address');
  return `http://127.0.0.1:${addr.port}`;
}

/**
 * Orders with the real services-pricing and payments apps on ephemeral ports,
 * all on one test database (each in its own schema), and the sandbox carrier.
 * Every service reads token states from the same directory, as all would from auth.
 */
export async function startStack(
  opts: {
    carrier?: CarrierPort;
    /**
     * A `CARRIERS` value: pricing sells and orders buys from these carriers instead of the sandbox alone, with the
     * orders database's carrier memory, as the service does.
     */
    carriers?: string;
    /** What those carriers read besides the memory (a live carrier's account settings). */
    carrierSettings?: Omit<CarrierSettings, 'memory'>;
    /** EasyPost's webhook secret, for the tracker webhook. */
    easyPostWebhookSecret?: string;
    /** Purchases at work at once (the lock pool's size) and waiting for one of them; see `startOrders`. */
    purchases?: { atWork: number; waiting: number };
    /** Wraps the ledger client orders talks to payments with (e.g. to cut a purchase off mid-way). */
    ledger?: (real: LedgerPort) => LedgerPort;
    /** A cluster of the test's own instead of the run's PostgreSQL. */
    adminUrl?: string;
    /** Wraps the file store orders writes through (e.g. to count writes, or fail one). */
    files?: (real: FileStore) => FileStore;
    /** Converts label files instead of pdftoppm and pdf-lib (e.g. to count or hold conversions). */
    converter?: LabelConverter;
    /** How many ZPL conversions run at once. */
    zplConversions?: number;
  } = {},
): Promise<Stack> {
  let payments!: ServiceApp;
  let pricing!: ServiceApp;
  let paymentsDb!: Knex;
  let pricingDb!: Knex;
  let tokenState!: () => ReturnType<typeof createCachedTokenState>;
  let carrierSet: CarrierSet | null = null;
  let memoryDb: Knex | null = null;
  let routeStore: CarrierRouteStore | null = null;

  const h = await startOrders(
    async ({ url, keys, states }) => {
      tokenState = () => createCachedTokenState(async (id) => states.get(id) ?? null, 0);
      if (opts.carriers) {
        memoryDb = createDb(url, ORDERS_SCHEMA, { max: 4 });
        routeStore = createCarrierRouteStore(memoryDb);
        carrierSet = createCarrierSet(opts.carriers, {
          ...opts.carrierSettings,
          memory: createCarrierMemory(memoryDb),
          routeStore,
        });
      }
      const carrier = opts.carrier ?? carrierSet;
      paymentsDb = createDb(url, PAYMENTS_SCHEMA, { max: 20 });
      await migrate(paymentsDb, PAYMENTS_SCHEMA, paymentsMigrations);
      payments = await buildPayments({
        db: paymentsDb,
        logger: false,
        jwtPublicKey: keys.publicKey,
        internalSecret: INTERNAL_SECRET,
        tokenState: tokenState(),
      });
      pricingDb = createDb(url, PRICING_SCHEMA, { max: 10 });
      await migrate(pricingDb, PRICING_SCHEMA, pricingMigrations);
      pricing = await buildPricing({
        db: pricingDb,
        logger: false,
        publicKey: keys.publicKey,
        internalSecret: INTERNAL_SECRET,
        tokenState: tokenState(),
        source: { list: () => (carrierSet ?? createSandboxCarrier()).services() },
      });
      const client = (baseUrl: string) => createInternalClient({ baseUrl, secret: INTERNAL_SECRET });
      return {
        quotes: createPricingQuotes(client(await listen(pricing))),
        ledger: (opts.ledger ?? ((real) => real))(createPaymentsLedger(client(await listen(payments)))),
        ...(carrier ? { carrier } : {}),
        ...(carrierSet ? { couriers: carrierSet.couriers } : {}),
        ...(carrierSet && routeStore ? { carrierRoutes: { carriers: carrierSet, store: routeStore } } : {}),
      };
    },
    {
      ...(opts.adminUrl ? { adminUrl: opts.adminUrl } : {}),
      ...(opts.files ? { files: opts.files } : {}),
      ...(opts.converter ? { converter: opts.converter } : {}),
      ...(opts.zplConversions ? { zplConversions: opts.zplConversions } : {}),
      ...(opts.easyPostWebhookSecret ? { easyPostWebhookSecret: opts.easyPostWebhookSecret } : {}),
      ...(opts.purchases ? { purchases: opts.purchases } : {}),
      async onClose() {
        await payments.close();
        await pricing.close();
        await paymentsDb.destroy();
        await pricingDb.destroy();
        await carrierSet?.close();
        await memoryDb?.destroy();
      },
    },
  );
  const admin = { id: randomUUID(), role: 'admin' as const };
  h.states.set(admin.id, { id: admin.id, role: 'admin', activation: 'allow', tokenVersion: 1 });
  const adminToken = signToken(h.keys.privateKey, { sub: admin.id, role: 'admin', ver: 1 });

  const internalPayments = async (path: string, body: unknown) => {
    const res = await payments.inject({
      method: 'POST',
      url: path,
      headers: { 'x-internal-secret': INTERNAL_SECRET },
      payload: body as object,
    });
    return { status: res.statusCode, json: res.json() as unknown };
  };

  // A fresh install syncs the carrier's services and seeds flat prices.
  const synced = await pricing.inject({
    method: 'POST',
    url: '/api/defaultServices/sync',
    headers: { token: adminToken },
  });
  if (synced.statusCode !== 200) throw new Error(`pricing sync failed: ${synced.body}`);

  return {
    ...h,
    payments,
    pricing,
    paymentsDb,
    adminToken,
    internalPayments,
    async setBalance(userId, cents) {
      const r = await internalPayments('/internal/ledger/set-balance', {
        userId,
        balanceCents: cents,
        adminId: admin.id,
        key: `test-fund:${randomUUID()}`,
      });
      if (r.status !== 200) throw new Error(`set-balance failed: ${JSON.stringify(r.json)}`);
    },
    async balanceCents(userId) {
      const row = await paymentsDb('accounts').where({ user_id: userId }).first('balance_cents');
      return Number(row?.balance_cents ?? 0);
    },
    ledgerEntries: (userId) =>
      paymentsDb('ledger_entries')
        .where({ user_id: userId })
        .orderBy('created_at')
        .select('kind', 'amount_cents', 'idempotency_key'),
    async setServiceEnabled(name, enabled) {
      const list = await pricing.inject({ url: '/api/defaultServices', headers: { token: adminToken } });
      const svc = (list.json() as { _id: string; name: string }[]).find((s) => s.name === name);
      if (!svc) throw new Error(`no default service ${name}`);
      const res = await pricing.inject({
        method: 'PATCH',
        url: `/api/defaultServices/${svc._id}/toggle`,
        headers: { token: adminToken },
        payload: { enabled },
      });
      if (res.statusCode !== 200) throw new Error(`toggle failed: ${res.body}`);
    },
  };
}

/** A new customer whose balance is `cents`, set through payments as an admin would. */
export async function fundedUser(s: Stack, cents: number): Promise<TestUser> {
  const u = user(s);
  await s.setBalance(u.id, cents);
  return u;
}
