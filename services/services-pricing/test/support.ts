import { randomUUID, sign } from 'node:crypto';
import { createDb, type Knex, migrate, type ServiceApp } from '@flatship/kit';
import { createTestDatabase, generateTokenKeys } from '@flatship/kit/testing';
import type { Role, TokenState } from '@flatship/proto';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, createDomainDeps } from '../src/app';
import { migrations, PRICING_SCHEMA } from '../src/db/migrations';
import type { CarrierServiceInfo } from '../src/domain/ports';
import { syncServices } from '../src/domain/sync-services';
import type { DomainDeps } from '../src/routes/deps';

export const INTERNAL_SECRET = 'test-internal-secret-0123456789';

/** What the sandbox carrier offers. */
export const USPS: CarrierServiceInfo[] = [
  { uid: 'usps_priority_mail', name: 'USPS Priority Mail', category: 'USPS', carrier: 'usps', maxWeight: 70 },
  { uid: 'usps_ground_advantage', name: 'USPS Ground Advantage', category: 'USPS', carrier: 'usps', maxWeight: 70 },
  {
    uid: 'usps_priority_mail_express',
    name: 'USPS Priority Mail Express',
    category: 'USPS',
    carrier: 'usps',
    maxWeight: 70,
  },
];

/** A carrier whose offer a test can change between syncs. */
export function createFakeCarrier(initial: CarrierServiceInfo[] = USPS) {
  let offered = initial.map((s) => ({ ...s }));
  return {
    list: () => offered.map((s) => ({ ...s })),
    set(next: CarrierServiceInfo[]) {
      offered = next.map((s) => ({ ...s }));
    },
  };
}

/** Signs an access token as auth would (EdDSA JWT with sub, role, ver). */
export function signToken(privateKey: string, claims: { sub: string; role: Role; ver: number }): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const data = `${b64({ alg: 'EdDSA', typ: 'JWT' })}.${b64({ ...claims, iat: now, exp: now + 3600 })}`;
  return `${data}.${sign(null, Buffer.from(data), privateKey).toString('base64url')}`;
}

export interface Caller {
  id: string;
  token: string;
}

export interface TestPricing {
  app: ServiceApp;
  db: Knex;
  url: string;
  carrier: ReturnType<typeof createFakeCarrier>;
  domain: DomainDeps;
  /** Token states as auth would answer them; tests change them directly. */
  states: Map<string, TokenState>;
  caller(role?: Role): Caller;
  request(
    caller: Caller | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  internal(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A migrated database of its own, synced with a fake carrier, and the app built from it as main.ts builds it. */
export async function startTestPricing(): Promise<TestPricing> {
  const tdb = await createTestDatabase('pricing');
  const db = createDb(tdb.url, PRICING_SCHEMA);
  await migrate(db, PRICING_SCHEMA, migrations);
  const keys = generateTokenKeys();
  const carrier = createFakeCarrier();
  const states = new Map<string, TokenState>();
  const domain = createDomainDeps({ db, source: carrier, logger: false });
  await syncServices(domain);
  const app = await buildApp({
    db,
    logger: false,
    publicKey: keys.publicKey,
    internalSecret: INTERNAL_SECRET,
    tokenState: { get: async (id) => states.get(id) ?? null },
    source: carrier,
  });
  await app.ready();
  return {
    app,
    db,
    url: tdb.url,
    carrier,
    domain,
    states,
    caller(role: Role = 'user') {
      const id = randomUUID();
      states.set(id, { id, role, activation: 'allow', tokenVersion: 1 });
      return { id, token: signToken(keys.privateKey, { sub: id, role, ver: 1 }) };
    },
    request(caller, method, url, payload) {
      return app.inject({
        method,
        url,
        headers: caller ? { token: caller.token } : {},
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    },
    internal(method, url, payload) {
      return app.inject({
        method,
        url,
        headers: { 'x-internal-secret': INTERNAL_SECRET },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    },
    async close() {
      await app.close();
      await db.destroy();
      await tdb.drop();
    },
  };
}

export const error = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  ...(res.json() as { code?: string; message?: string }),
});
