import pg from 'pg';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createServiceApp } from '../src/app';
import { migrateOutbox } from '../src/bus/migrate';
import type { Migration } from '../src/db';
import { startPeriodicJob } from '../src/periodic-job';
import type { Running } from '../src/run';
import { type ServiceRuntime, startServiceRuntime } from '../src/runtime';
import { createTestDatabase } from '../src/testing/database';
import { waitFor } from '../src/testing/index';

// The shared start-up and shutdown of every service, against a real PostgreSQL: its own database per test, so
// "nothing is left connected" can be read from pg_stat_activity.
const SCHEMA = 'svc';
const migrations: Migration[] = [{ name: '0001_outbox', up: (db) => migrateOutbox(db, SCHEMA) }];

let database: { url: string; drop(): Promise<void> };
let check: pg.Client;

beforeEach(async () => {
  database = await createTestDatabase('runtime');
  check = new pg.Client({ connectionString: database.url, application_name: 'runtime-test-check' });
  await check.connect();
});

afterEach(async () => {
  await check.end();
  await database.drop();
});

const config = () => ({
  HOST: '127.0.0.1',
  PORT: 0,
  LOG_LEVEL: 'silent',
  INTERNAL_SECRET: 'runtime-test-internal-secret',
  SHUTDOWN_TIMEOUT_MS: 10_000,
  SHUTDOWN_DRAIN_MS: 0,
  EVENT_BUS: 'postgres' as const,
  DATABASE_URL: database.url,
});

const appOf = (rt: ServiceRuntime<unknown>) => createServiceApp({ name: rt.name, logger: false });

/** Connections to the test database other than the test's own. */
async function othersConnected(): Promise<number> {
  const { rows } = await check.query<{ n: string }>(
    `select count(*) as n from pg_stat_activity
     where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
  );
  return Number(rows[0]?.n);
}

async function eventsOnTheBus(topic: string): Promise<unknown[]> {
  const { rows } = await check.query<{ value: unknown }>(
    `select value from bus.messages where topic = $1 order by "offset"`,
    [topic],
  );
  return rows.map((r) => r.value);
}

async function outboxRows(): Promise<number> {
  const { rows } = await check.query<{ n: string }>(`select count(*) as n from ${SCHEMA}.outbox`);
  return Number(rows[0]?.n);
}

async function shutDown(running: Running) {
  // In that order, as runService does on SIGTERM.
  await running.app.close();
  await running.close();
}

describe('startServiceRuntime', () => {
  test('shutdown stops the jobs, then closes the clients, then relays the last outbox rows, and closes the bus and the database', async () => {
    const steps: string[] = [];
    const running = await startServiceRuntime({
      name: 'runtime-test',
      config,
      database: (c) => ({ url: c.DATABASE_URL, schema: SCHEMA, migrations }),
      outbox: {},
      async build(rt) {
        rt.own({ close: async () => void steps.push('first client closed') });
        rt.own({ close: async () => void steps.push('second client closed') });
        rt.job({
          async stop() {
            // The last thing a job does still commits, and what it records reaches the bus.
            await rt.db.transaction((trx) => rt.outbox.add(trx, 'runtime.test', [{ key: 'k', value: { by: 'job' } }]));
            steps.push('job stopped');
          },
        });
        return appOf(rt);
      },
    });
    expect(await othersConnected()).toBeGreaterThan(0);

    await shutDown(running);

    expect(steps).toEqual(['job stopped', 'second client closed', 'first client closed']);
    expect(await eventsOnTheBus('runtime.test')).toEqual([{ by: 'job' }]);
    expect(await outboxRows()).toBe(0);
    await waitFor('every connection of the service to close', async () => (await othersConnected()) === 0);
  });

  test('a job round still running at shutdown finishes before the relay, the bus and the database close', async () => {
    let releaseRound!: () => void;
    const roundMayFinish = new Promise<void>((resolve) => (releaseRound = resolve));
    let stopAsked = false;
    const failedRounds: unknown[] = [];
    const running = await startServiceRuntime({
      name: 'runtime-test',
      config,
      database: (c) => ({ url: c.DATABASE_URL, schema: SCHEMA, migrations }),
      outbox: {},
      async build(rt) {
        const app = appOf(rt);
        const sweeper = startPeriodicJob({
          intervalMs: 60_000,
          runAtStart: true,
          logger: { error: (obj) => void failedRounds.push(obj) },
          failedMessage: 'round failed',
          run: async () => {
            await roundMayFinish;
            await rt.db.transaction(async (trx) => {
              await rt.outbox.add(trx, 'runtime.swept', [{ key: 'k', value: { swept: true } }]);
            });
          },
        });
        rt.job({
          stop() {
            stopAsked = true;
            return sweeper.stop();
          },
        });
        return app;
      },
    });

    const stopping = shutDown(running);
    await waitFor('the shutdown to ask the job to stop', () => stopAsked);
    releaseRound();
    await stopping;

    expect(failedRounds).toEqual([]);
    expect(await eventsOnTheBus('runtime.swept')).toEqual([{ swept: true }]);
    await waitFor('every connection of the service to close', async () => (await othersConnected()) === 0);
  });

  test('a start that fails in the service build stops the jobs and clients it had started, closes the relay, the bus and the database, and rethrows', async () => {
    const steps: string[] = [];
    const starting = startServiceRuntime({
      name: 'runtime-test',
      config,
      database: (c) => ({ url: c.DATABASE_URL, schema: SCHEMA, migrations }),
      outbox: {},
      async build(rt) {
        rt.own({ close: () => void steps.push('client closed') });
        rt.job({ stop: async () => void steps.push('job stopped') });
        throw new Error('the carrier settings are unusable');
      },
    });

    await expect(starting).rejects.toThrow('the carrier settings are unusable');
    expect(steps).toEqual(['job stopped', 'client closed']);
    await waitFor('every connection of the service to close', async () => (await othersConnected()) === 0);
  });

  test('a start whose migration fails closes the database and rethrows', async () => {
    const broken: Migration[] = [{ name: '0001_broken', up: (db) => db.raw('select * from no_such_table') }];
    const starting = startServiceRuntime({
      name: 'runtime-test',
      config,
      database: (c) => ({
        url: c.DATABASE_URL,
        schema: SCHEMA,
        migrations: broken,
      }),
      async build(rt) {
        return appOf(rt);
      },
    });

    await expect(starting).rejects.toThrow('no_such_table');
    await waitFor('every connection of the service to close', async () => (await othersConnected()) === 0);
  });

  test("the bus and the outbox are measured on the app's registry", async () => {
    const running = await startServiceRuntime({
      name: 'runtime-test',
      config,
      database: (c) => ({ url: c.DATABASE_URL, schema: SCHEMA, migrations }),
      outbox: {},
      async build(rt) {
        return appOf(rt);
      },
    });
    try {
      const res = await running.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.body).toContain('flatship_outbox_depth{schema="svc",service="runtime-test"} 0');
    } finally {
      await shutDown(running);
    }
  });
});

describe('the database pool', () => {
  test('holds at most DB_POOL_MAX connections and closes one unused for DB_POOL_IDLE_MS', async () => {
    const running = await startServiceRuntime({
      name: 'runtime-test',
      config: () => ({ ...config(), DB_POOL_MAX: 2, DB_POOL_IDLE_MS: 200 }),
      database: (c) => ({ url: c.DATABASE_URL, schema: SCHEMA, migrations }),
      async build(rt) {
        const app = appOf(rt);
        app.get('/pids', async () => {
          const pids = await Promise.all(
            Array.from({ length: 4 }, () =>
              rt.db.raw<{ rows: { pid: number }[] }>('select pg_backend_pid() as pid, pg_sleep(0.2)'),
            ),
          );
          return [...new Set(pids.map((r) => r.rows[0]?.pid))];
        });
        return app;
      },
    });
    try {
      const pids = (await running.app.inject({ url: '/pids' })).json<number[]>();
      expect(pids.length).toBeGreaterThan(0);
      expect(pids.length).toBeLessThanOrEqual(2);
      // Nothing uses the pool now: its connections close, whatever the pace of the machine.
      await expect
        .poll(
          async () => {
            const { rows } = await check.query('select pid from pg_stat_activity where pid = any($1::int[])', [pids]);
            return rows.length;
          },
          { timeout: 15_000, interval: 100 },
        )
        .toBe(0);
    } finally {
      await shutDown(running);
    }
  });
});
