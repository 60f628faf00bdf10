import {
  AUTH_MESSAGES,
  type BusLogger,
  createDb,
  createPostgresBus,
  type EventBus,
  migrateBus,
  type ServiceApp,
} from '@flatship/kit';
import { createTestDatabase } from '@flatship/kit/testing';
import { TOPICS } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildGateway } from '../src/app';
import { createBusUserChangeFeed, replicaGroup } from '../src/user-changes';
import { createUserDirectory, gatewayDeps, type StandInService, startStandInService } from './helpers';

let database: { url: string; drop(): Promise<void> };
let db: ReturnType<typeof createDb>;
let bus: EventBus & { close(): Promise<void> };
let auth: StandInService;
const warnings: string[] = [];
const logger: BusLogger = {
  error: () => {},
  warn: (_obj, msg) => void warnings.push(msg ?? ''),
  info: () => {},
  debug: () => {},
};

beforeAll(async () => {
  database = await createTestDatabase('gateway');
  db = createDb(database.url, 'bus', { max: 6 });
  await migrateBus(db, 'bus');
  bus = createPostgresBus({ db, schema: 'bus', logger, pollIntervalMs: 100, joinTimeoutMs: 500 });
  auth = await startStandInService('auth');
});
afterAll(async () => {
  await bus.close();
  await db.destroy();
  await database.drop();
  await auth.close();
});

async function replica(users: ReturnType<typeof createUserDirectory>): Promise<ServiceApp> {
  const app = await buildGateway(
    gatewayDeps({
      upstreams: { auth: auth.url },
      tokenState: users.tokenState,
      userChanges: createBusUserChangeFeed(bus, logger),
    }),
  );
  await app.ready();
  return app;
}

async function statusWithin(app: ServiceApp, token: string, expected: number, ms = 15_000): Promise<number> {
  const until = Date.now() + ms;
  let status = 0;
  while (Date.now() < until) {
    status = (await app.inject({ method: 'GET', url: '/api/auth/verify', headers: { token } })).statusCode;
    if (status === expected) return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  return status;
}

describe('user.changed over the event bus', () => {
  test('every replica applies a block at once, even with a long token-state cache', async () => {
    // Two replicas, each with its own cache that would not ask auth again for a minute.
    const usersA = createUserDirectory(60_000);
    const usersB = createUserDirectory(60_000);
    const token = usersA.add({ id: 'bus-u1' });
    usersB.add({ id: 'bus-u1' });
    const [a, b] = [await replica(usersA), await replica(usersB)];
    try {
      expect(await statusWithin(a, token, 200)).toBe(200);
      expect(await statusWithin(b, token, 200)).toBe(200);

      await bus.publish(TOPICS.userChanged, [
        { key: 'bus-u1', value: { id: 'bus-u1', role: 'user', activation: 'block', tokenVersion: 2 } },
      ]);

      expect(await statusWithin(a, token, 401)).toBe(401);
      expect(await statusWithin(b, token, 401)).toBe(401);
      const res = await a.inject({ method: 'GET', url: '/api/auth/verify', headers: { token } });
      expect(res.json()).toEqual({ code: 'AUTH_TOKEN_REVOKED', message: AUTH_MESSAGES.revoked });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('a malformed event is skipped without stopping the ones after it', async () => {
    const users = createUserDirectory(60_000);
    const token = users.add({ id: 'bus-u2' });
    const app = await replica(users);
    try {
      expect(await statusWithin(app, token, 200)).toBe(200);
      await bus.publish(TOPICS.userChanged, [
        { key: 'bus-u2', value: { id: 'bus-u2', role: 'emperor' } },
        { key: 'bus-u2', value: { id: 'bus-u2', role: 'user', activation: 'allow', deleted: true, tokenVersion: 1 } },
      ]);
      expect(await statusWithin(app, token, 401)).toBe(401);
      expect(warnings).toContain('ignoring malformed user.changed event');
    } finally {
      await app.close();
    }
  });

  test('each replica gets a consumer group of its own', () => {
    expect(replicaGroup()).toMatch(/^gateway-.+-\d+-[a-z0-9]+$/);
    expect(replicaGroup()).not.toBe(replicaGroup());
  });
});
