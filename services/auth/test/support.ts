import { createDb, type Knex, migrate, type ServiceApp } from '@flatship/kit';
import { createOutbox, createPostgresBus, migrateBus, type Outbox, type PostgresBus } from '@flatship/kit/bus';
import { createTestDatabase, generateTokenKeys } from '@flatship/kit/testing';
import type { AddressInput, SessionUser, UserChangedEvent } from '@flatship/proto';
import { createArgon2Hasher } from '../src/adapters/argon2-hasher';
import { buildApp } from '../src/app';
import { AUTH_SCHEMA, migrations } from '../src/db/migrations';
import { createUserChangedPublisher } from '../src/db/outbox';
import type {
  AddressChecker,
  Clock,
  MoneySummary,
  MoneySummarySource,
  PasswordHasher,
  ResetMail,
  ResetMailer,
} from '../src/domain/ports';
import type { LiveChatConfig } from '../src/routes/live-chat';

export const PUBLIC_URL = 'http://ship.test:8080';

/** Keeps the reset mails it is given, for tests to read the link from. */
export function createRecordingMailer(): ResetMailer & { sent: ResetMail[] } {
  const sent: ResetMail[] = [];
  return {
    sent,
    async send(mail) {
      sent.push(mail);
    },
  };
}

export const INTERNAL_SECRET = 'test-internal-secret-0123456789';
export const PASSWORD = 'correct horse battery';

/** Cheap argon2id costs keep the suite fast; the algorithm and code paths are the production ones. */
export const testHasher = () => createArgon2Hasher({ memoryCost: 1024, timeCost: 1 });

/** Money as payments would report it; tests set entries directly. */
export function createFakeMoney(): MoneySummarySource & { set(id: string, m: MoneySummary): void; calls: string[][] } {
  const entries = new Map<string, MoneySummary>();
  const calls: string[][] = [];
  return {
    calls,
    set: (id, m) => entries.set(id, m),
    async get(ids) {
      calls.push(ids);
      return new Map(ids.flatMap((id) => (entries.has(id) ? [[id, entries.get(id) as MoneySummary] as const] : [])));
    },
  };
}

export interface TestAuth {
  app: ServiceApp;
  db: Knex;
  keys: { publicKey: string; privateKey: string };
  money: ReturnType<typeof createFakeMoney>;
  /** Not relaying: tests read the outbox table, or flush it to the bus themselves. */
  outbox: Outbox;
  bus: PostgresBus;
  /** The mailer the app was built with when the test gave none. */
  mails: ResetMail[];
  close(): Promise<void>;
}

export interface StartTestAuthOptions {
  tokenTtl?: string;
  loginAsTtl?: string;
  hasher?: PasswordHasher;
  mailer?: ResetMailer;
  clock?: Clock;
  liveChat?: LiveChatConfig;
  addressChecker?: AddressChecker;
}

/** A migrated database of its own and an app built from it, as main.ts builds it. */
export async function startTestAuth(opts: StartTestAuthOptions = {}): Promise<TestAuth> {
  const tdb = await createTestDatabase('auth');
  const db = createDb(tdb.url, AUTH_SCHEMA);
  await migrate(db, AUTH_SCHEMA, migrations);
  const keys = generateTokenKeys();
  const money = createFakeMoney();
  await migrateBus(db, 'bus');
  const bus = createPostgresBus({ db, schema: 'bus' });
  const outbox = createOutbox({ db, schema: AUTH_SCHEMA, bus });
  const recording = createRecordingMailer();
  const app = await buildApp({
    db,
    logger: false,
    keys,
    tokenTtl: opts.tokenTtl ?? '7d',
    ...(opts.loginAsTtl ? { loginAsTtl: opts.loginAsTtl } : {}),
    internalSecret: INTERNAL_SECRET,
    money,
    publishUserChanged: createUserChangedPublisher(outbox),
    hasher: opts.hasher ?? testHasher(),
    publicUrl: PUBLIC_URL,
    mailer: opts.mailer ?? recording,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.liveChat ? { liveChat: opts.liveChat } : {}),
    ...(opts.addressChecker ? { addressChecker: opts.addressChecker } : {}),
  });
  await app.ready();
  return {
    app,
    db,
    keys,
    money,
    outbox,
    bus,
    mails: recording.sent,
    async close() {
      await app.close();
      await bus.close();
      await db.destroy();
      await tdb.drop();
    },
  };
}

let seq = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${Date.now().toString(36)}.${++seq}@example.com`;

export interface Registered {
  token: string;
  user: SessionUser;
  email: string;
  password: string;
}

export async function register(
  app: ServiceApp,
  over: Partial<{ name: string; email: string; password: string; referralCode: string }> = {},
): Promise<Registered> {
  const email = over.email ?? uniqueEmail();
  const password = over.password ?? PASSWORD;
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      name: over.name ?? 'Test User',
      email,
      password,
      confirmPassword: password,
      ...(over.referralCode ? { referralCode: over.referralCode } : {}),
    },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { token: string; user: SessionUser };
  return { token: body.token, user: body.user, email, password };
}

export async function internal(
  app: ServiceApp,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
): Promise<import('fastify').LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { 'x-internal-secret': INTERNAL_SECRET },
    ...(payload ? { payload } : {}),
  });
}

export const makeAdmin = (app: ServiceApp) => makeWithRole(app, 'admin');
export const makeFriend = (app: ServiceApp) => makeWithRole(app, 'friend');

/** A registered user given `role`, signed in again so the token carries it. */
export async function makeWithRole(app: ServiceApp, role: 'admin' | 'friend'): Promise<Registered> {
  const admin = await register(app, { name: role === 'admin' ? 'Boss' : 'Pal', email: uniqueEmail(role) });
  const res = await internal(app, 'POST', `/internal/users/${admin.user._id}/role`, { user_role: role });
  if (res.statusCode !== 200) throw new Error(`role change failed: ${res.body}`);
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: admin.email, password: admin.password },
  });
  return {
    ...admin,
    token: (login.json() as { token: string }).token,
    user: (login.json() as { user: SessionUser }).user,
  };
}

export async function outboxEvents(db: Knex): Promise<{ topic: string; key: string; value: UserChangedEvent }[]> {
  return db('outbox').select('topic', 'key', 'value').orderBy('id');
}

export async function countUsers(db: Knex): Promise<number> {
  const row = await db('users').count<{ count: string }[]>('* as count').first();
  return Number(row?.count ?? 0);
}

/** A saved address every rule accepts, as the address form sends it. */
export const ADDRESS_FORM: AddressInput = {
  address_id: 'Warehouse',
  name: 'Ada Lovelace',
  company: 'Engines Ltd',
  phone: '+1 555-010-0199',
  street: '1 Main St',
  street2: 'Suite 4',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US',
};
