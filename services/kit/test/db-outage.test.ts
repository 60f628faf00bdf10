import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServiceApp } from '../src/app';
import {
  createDb,
  databaseReadiness,
  isDatabaseUnavailable,
  type Knex,
  retryWhileDatabaseUnavailable,
} from '../src/db';
import { AppError, UNAVAILABLE_MESSAGE } from '../src/errors';
import { createTestDatabase } from '../src/testing/database';
import { freePort } from '../src/testing/embedded-pg';

// A database that is down (nothing listens on its port), and one whose server takes connections but never answers.
let refusedUrl: string;
let silentUrl: string;
let silent: Server;
const held: Socket[] = [];
let live: { url: string; drop(): Promise<void> };
const dbs: Knex[] = [];
const open = (url: string, opts: Parameters<typeof createDb>[2] = {}) => {
  const db = createDb(url, 'demo', { logger: { warn: () => {} }, ...opts });
  dbs.push(db);
  return db;
};

beforeAll(async () => {
  refusedUrl = `postgres://u:p@127.0.0.1:${await freePort()}/db`;
  silent = createServer((socket) => void held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address = silent.address();
  silentUrl = `postgres://u:p@127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/db`;
  live = await createTestDatabase();
});

afterAll(async () => {
  await Promise.all(dbs.map((db) => db.destroy()));
  for (const s of held) s.destroy();
  silent.close();
  await live.drop();
});

const failureOf = async (p: Promise<unknown>): Promise<unknown> => {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
};

describe('isDatabaseUnavailable', () => {
  test('is true for a database that refuses connections or does not answer, false for a query it refused', async () => {
    expect(isDatabaseUnavailable(await failureOf(open(refusedUrl).raw('select 1')))).toBe(true);
    const waited = open(silentUrl, { connectTimeoutMs: 200, acquireTimeoutMs: 500 }).raw('select 1');
    expect(isDatabaseUnavailable(await failureOf(waited))).toBe(true);
    const db = open(live.url);
    expect(isDatabaseUnavailable(await failureOf(db.raw('select * from no_such_table')))).toBe(false);
    expect(isDatabaseUnavailable(await failureOf(db.raw('select 1/0')))).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    expect(
      isDatabaseUnavailable(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '57P03' }) })),
    ).toBe(true);
  });
});

describe('createDb', () => {
  test('a server that never answers fails queries within the connect timeout instead of hanging', async () => {
    // The pool would wait a minute for a connection, far longer than the test may run: an answer at all, and
    // one naming the connection timeout, shows the connect timeout ended the wait.
    const db = open(silentUrl, { connectTimeoutMs: 300, acquireTimeoutMs: 60_000 });
    const failure = await failureOf(db.raw('select 1'));
    expect((failure as Error).message).toMatch(/connection timeout|timeout expired/i);
    expect((failure as Error).message).not.toMatch(/Timeout acquiring a connection/);
  }, 10_000);

  test('the readiness check fails within its own timeout, and passes against a live database', async () => {
    // Its own 300 ms ends the wait, before the connection's 10 s timeout would.
    const check = databaseReadiness(open(silentUrl, { connectTimeoutMs: 10_000 }), 300);
    await expect(check()).rejects.toThrow('the database is not reachable (no answer within 300 ms)');
    await expect(databaseReadiness(open(refusedUrl))()).rejects.toThrow('the database is not reachable (ECONNREFUSED)');
    await expect(databaseReadiness(open(live.url))()).resolves.toBeUndefined();
  });
});

describe('requests during a database outage', () => {
  test('a request failing because the database is away answers 503 SERVICE_UNAVAILABLE; other errors are unchanged', async () => {
    const db = open(refusedUrl);
    const app = createServiceApp({ name: 'demo', logger: false });
    app.get('/rows', async () => db.raw('select 1'));
    app.get('/refused', async () => {
      throw new AppError('ORDERS_INVALID', 'The order is not valid');
    });
    app.get('/bug', async () => {
      throw new Error('secret internals');
    });
    try {
      const rows = await app.inject({ url: '/rows' });
      expect(rows.statusCode).toBe(503);
      expect(rows.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE_MESSAGE });
      expect((await app.inject({ url: '/refused' })).statusCode).toBe(400);
      const bug = await app.inject({ url: '/bug' });
      expect(bug.statusCode).toBe(500);
      expect(bug.json().code).toBe('INTERNAL');
    } finally {
      await app.close();
    }
  });
});

describe('retryWhileDatabaseUnavailable', () => {
  const unavailable = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

  test('tries again while the database is away and returns the first success', async () => {
    let calls = 0;
    const result = await retryWhileDatabaseUnavailable(
      async () => {
        if (++calls < 3) throw unavailable();
        return 'done';
      },
      { forMs: 5000 },
    );
    expect(result).toBe('done');
    expect(calls).toBe(3);
  });

  test('never repeats work that failed for another reason, and gives up after its time', async () => {
    let calls = 0;
    const refused = retryWhileDatabaseUnavailable(
      async () => {
        calls++;
        throw new Error('duplicate key');
      },
      { forMs: 5000 },
    );
    await expect(refused).rejects.toThrow('duplicate key');
    expect(calls).toBe(1);
    // Pauses of 100, 200, 400 ms…: within 300 ms there is room for at most two, so at most three tries.
    let tries = 0;
    await expect(
      retryWhileDatabaseUnavailable(
        async () => {
          tries++;
          return Promise.reject(unavailable());
        },
        { forMs: 300 },
      ),
    ).rejects.toThrow('ECONNREFUSED');
    expect(tries).toBeGreaterThanOrEqual(1);
    expect(tries).toBeLessThanOrEqual(3);
  });
});
