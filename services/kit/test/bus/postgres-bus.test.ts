import knex, { type Knex } from 'knex';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  type BusLogger,
  createOutbox,
  createPostgresBus,
  type EventBus,
  migrateBus,
  migrateOutbox,
  type OutgoingMessage,
  type PostgresBusOptions,
  pruneBus,
  type Subscription,
} from '../../src/bus/index';
import { createTestDatabase } from '../../src/testing/database';
import { type BusContractHarness, runBusContract, waitFor } from '../../src/testing/index';

let database: { url: string; drop(): Promise<void> };
const created: Knex[] = [];

beforeAll(async () => {
  database = await createTestDatabase('bus');
  await migrateBus(connect());
});

afterAll(async () => {
  await Promise.all(created.splice(0).map((db) => db.destroy()));
  await database.drop();
});

function connect(): Knex {
  const db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 4 } });
  created.push(db);
  return db;
}

const logged: { level: string; msg: string | undefined; obj: object }[] = [];
const testLogger: BusLogger = {
  error: (obj, msg) => void logged.push({ level: 'error', msg, obj }),
  warn: (obj, msg) => void logged.push({ level: 'warn', msg, obj }),
  info: () => {},
  debug: () => {},
};

/** Short timings keep failover tests fast; every bus behaves like a separate process with its own pool. */
const fast = {
  leaseTimeoutMs: 1000,
  pollIntervalMs: 250,
  retryDelayMs: 10,
  maxRetryDelayMs: 50,
  joinTimeoutMs: 2000,
} satisfies Partial<PostgresBusOptions>;

async function makeHarness(overrides: Partial<PostgresBusOptions> = {}): Promise<BusContractHarness> {
  const db = connect();
  const bus = createPostgresBus({ db, logger: testLogger, ...fast, ...overrides });
  let crashed = false;
  return {
    bus,
    db,
    async crash() {
      crashed = true;
      await bus.simulateCrash();
      await db.destroy();
    },
    async cleanup() {
      if (!crashed) await bus.close();
      await db.destroy();
    },
  };
}

runBusContract('postgres', () => makeHarness());

describe('postgres adapter', () => {
  const cleanups: (() => Promise<void>)[] = [];
  const harness = async (overrides: Partial<PostgresBusOptions> = {}) => {
    const h = await makeHarness(overrides);
    cleanups.push(() => h.cleanup());
    return h;
  };
  let n = 0;
  const name = (prefix: string) => `${prefix}-${process.pid}-${++n}`;

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    logged.length = 0;
  });

  test('offsets are dense and become visible in order while many transactions publish to one partition', async () => {
    const { bus, db } = await harness();
    const topic = name('dense');
    await bus.publish(topic, [{ key: 'k', value: 0 }]);
    let reading = true;
    let reads = 0;
    const gaps: string[] = [];
    const reader = (async () => {
      while (reading) {
        const { rows } = (await db.raw('select "offset" from bus.messages where topic = ? order by "offset"', [
          topic,
        ])) as { rows: { offset: string }[] };
        rows.forEach((r, i) => {
          if (r.offset !== String(i)) gaps.push(`read ${reads}: position ${i} holds offset ${r.offset}`);
        });
        reads++;
      }
    })();
    const publishers = connect();
    const other = createPostgresBus({ db: publishers, logger: testLogger });
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? bus : other).publish(topic, [
          { key: 'k', value: i },
          { key: 'k', value: i },
        ]),
      ),
    );
    reading = false;
    await reader;
    await other.close();

    const { rows } = (await db.raw(
      'select min("offset")::int as lo, max("offset")::int as hi, count(*)::int as n from bus.messages where topic = ?',
      [topic],
    )) as { rows: { lo: number; hi: number; n: number }[] };
    expect(rows[0]).toEqual({ lo: 0, hi: 80, n: 81 });
    expect(reads).toBeGreaterThan(0);
    expect(gaps).toEqual([]);
  });

  test('a failing handler is retried with back-off and logged, and the message is never skipped', async () => {
    const { bus } = await harness();
    const topic = name('retry');
    const attempts: number[] = [];
    let failuresLeft = 3;
    const sub = await bus.subscribe({
      group: name('g'),
      topics: [topic],
      handler: async (m) => {
        const v = m.value as number;
        attempts.push(v);
        if (v === 1 && failuresLeft-- > 0) throw new Error('carrier timeout');
      },
    });
    cleanups.push(() => sub.close());
    await bus.publish(
      topic,
      [1, 2, 3].map((v) => ({ key: 'same', value: v })),
    );
    await waitFor('all three handled', () => attempts.includes(3));

    expect(attempts).toEqual([1, 1, 1, 1, 2, 3]);
    const errors = logged.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(3);
    expect(errors[0]!.obj).toMatchObject({ topic, offset: '0', attempt: 1 });
  });

  test('NOTIFY wakes an idle consumer and an idle relay without waiting for a poll', async () => {
    const { bus, db } = await harness({ pollIntervalMs: 60_000 });
    const topic = name('notify');
    const got: number[] = [];
    const sub = await bus.subscribe({
      group: name('g'),
      topics: [topic],
      handler: async (m) => void got.push(m.value as number),
    });
    cleanups.push(() => sub.close());

    // With a one-minute poll, only the notifications can deliver within these waits (15 s, a quarter of it).
    await bus.publish(topic, [{ key: 'a', value: 1 }]);
    await waitFor('the direct publish', () => got.length === 1, 15_000);

    await migrateOutbox(db, 'svc_notify');
    const outbox = createOutbox({ db, schema: 'svc_notify', bus, pollIntervalMs: 60_000 });
    const stop = await outbox.startRelay();
    cleanups.push(stop);
    await db.transaction((trx) => outbox.add(trx, topic, [{ key: 'a', value: 2 }]));
    await waitFor('the relayed publish', () => got.length === 2, 15_000);
  });

  test('a member that closes cleanly hands its partitions over at once, long before its lease would expire', async () => {
    const slow = { leaseTimeoutMs: 60_000, pollIntervalMs: 60_000 };
    const a = await harness(slow);
    const b = await harness(slow);
    const topic = name('handover');
    const group = name('g');
    const byB: string[] = [];
    const subA = await a.bus.subscribe({ group, topics: [topic], handler: async () => {} });
    const subB = await b.bus.subscribe({ group, topics: [topic], handler: async (m) => void byB.push(m.key) });
    cleanups.push(() => subB.close());
    await subA.close();

    const keys = Array.from({ length: 40 }, (_, i) => `key-${i}`);
    await b.bus.publish(
      topic,
      keys.map((key) => ({ key, value: null })),
    );
    await waitFor('every key at the remaining member', () => byB.length >= keys.length, 15_000);
    expect(byB.sort()).toEqual(keys.sort());
  });

  test('closing removes the member and its leases', async () => {
    const { bus, db } = await harness();
    const group = name('g');
    const sub = await bus.subscribe({ group, topics: [name('t')], handler: async () => {} });
    const count = async (table: string) =>
      (
        (await db.raw(`select count(*)::int as n from bus.${table} where group_id = ?`, [group])) as {
          rows: { n: number }[];
        }
      ).rows[0]!.n;
    expect(await count('leases')).toBe(4);
    await sub.close();
    expect(await count('leases')).toBe(0);
    expect(await count('members')).toBe(0);
  });

  test('an idle member checks every partition it holds with one query a poll, so it keeps one pooled connection', async () => {
    const topic = name('idle-wide');
    const { bus, db } = await harness({ partitions: { [topic]: 8 }, pollIntervalMs: 50 });
    await bus.publish(topic, [{ key: 'k', value: 'created with its 8 partitions' }]);
    // The most queries at once: each holds a pooled connection, which the next polls keep from being let go.
    const pool = (db.client as { pool: { numUsed(): number } }).pool;
    let most = 0;
    let reads = 0;
    db.on('query', (q: { sql: string }) => {
      most = Math.max(most, pool.numUsed());
      if (/\.(messages|partitions)\b/.test(q.sql)) reads++;
    });
    const sub = await bus.subscribe({ group: name('g'), topics: [topic], concurrency: 8, handler: async () => {} });
    cleanups.push(() => sub.close());
    const after = reads;
    // Five polls reading each partition, or forty checking them all at once.
    await waitFor('polls of the idle partitions', () => reads >= after + 40);
    expect(most).toBeLessThanOrEqual(2);
  });

  test('a new group with fromBeginning: false starts at the end of the log', async () => {
    const { bus } = await harness();
    const topic = name('tail');
    await bus.publish(topic, [{ key: 'k', value: 'old' }]);
    const got: unknown[] = [];
    const sub: Subscription = await bus.subscribe({
      group: name('g'),
      topics: [topic],
      fromBeginning: false,
      handler: async (m) => void got.push(m.value),
    });
    cleanups.push(() => sub.close());
    await bus.publish(topic, [{ key: 'k', value: 'new' }]);
    await waitFor('the new message', () => got.length >= 1);
    expect(got).toEqual(['new']);
  });

  test('a batch handler may ask for more messages than the bus fetches at a time, and gets them in one batch', async () => {
    const { bus } = await harness({ batchSize: 10 });
    const topic = name('wide');
    await bus.publish(
      topic,
      Array.from({ length: 60 }, (_, i) => ({ key: 'one-key', value: i })),
    );
    const batches: number[][] = [];
    const sub = await bus.subscribe({
      group: name('g'),
      topics: [topic],
      maxBatchSize: 50,
      batchHandler: async (messages) => void batches.push(messages.map((m) => m.value as number)),
    });
    cleanups.push(() => sub.close());
    await waitFor('every message', () => batches.flat().length >= 60);
    expect(batches.map((b) => b.length)).toEqual([50, 10]);
    expect(batches.flat()).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  test('topics get the configured partition count on first use, and keep it', async () => {
    const { bus, db } = await harness({ partitions: { 'sized-topic': 7 } });
    await bus.publish('sized-topic', [{ key: 'k', value: 1 }]);
    const other = createPostgresBus({ db, partitions: 2 });
    await other.publish('sized-topic', [{ key: 'k', value: 2 }]);
    await other.close();
    const { rows } = (await db.raw(
      "select (select partitions from bus.topics where topic = 'sized-topic') as p, count(*)::int as n from bus.partitions where topic = 'sized-topic'",
    )) as { rows: { p: number; n: number }[] };
    expect(rows[0]).toEqual({ p: 7, n: 7 });
  });

  test('the outbox appends to the log in its own transaction when the bus shares its database', async () => {
    const { bus, db } = await harness();
    const topic = name('same-db');
    await migrateOutbox(db, 'svc_same_db');
    // Were the relay to fall back to publish-then-delete, this bus would refuse.
    const refusing: EventBus = {
      ...bus,
      publish: async () => {
        throw new Error('publish must not be used');
      },
    };
    const outbox = createOutbox({ db, schema: 'svc_same_db', bus: refusing, logger: testLogger });
    await db.transaction((trx) => outbox.add(trx, topic, [{ key: 'k', value: 'v' }]));
    expect(await outbox.flush()).toBe(1);
    const { rows } = (await db.raw('select value from bus.messages where topic = ?', [topic])) as {
      rows: { value: unknown }[];
    };
    expect(rows).toEqual([{ value: 'v' }]);
  });

  test('with another bus the outbox publishes in id order, then deletes, and keeps rows whose publish failed', async () => {
    const db = connect();
    await migrateOutbox(db, 'svc_other_bus');
    const calls: [string, unknown[]][] = [];
    let failing = true;
    const remote: EventBus = {
      async publish(topic: string, messages: OutgoingMessage[]) {
        if (failing) throw new Error('broker unavailable');
        calls.push([topic, messages.map((m) => m.value)]);
      },
      subscribe: () => Promise.reject(new Error('not used')),
      close: async () => {},
    };
    const outbox = createOutbox({ db, schema: 'svc_other_bus', bus: remote, logger: testLogger });
    await db.transaction(async (trx) => {
      await outbox.add(trx, 'a', [
        { key: '1', value: 1 },
        { key: '2', value: 2 },
      ]);
      await outbox.add(trx, 'b', [{ key: '3', value: 3 }]);
      await outbox.add(trx, 'a', [{ key: '4', value: 4 }]);
    });
    await expect(outbox.flush()).rejects.toThrow('broker unavailable');
    failing = false;
    expect(await outbox.flush()).toBe(4);
    expect(calls).toEqual([
      ['a', [1, 2]],
      ['b', [3]],
      ['a', [4]],
    ]);
    expect(await outbox.flush()).toBe(0);
  });

  test('pruning drops old messages and the offsets of groups that are gone, and consumers carry on', async () => {
    const { bus, db } = await harness();
    const topic = name('prune');
    await bus.publish(topic, [{ key: 'k', value: 'old' }]);
    const got: unknown[] = [];
    const group = name('g');
    const sub = await bus.subscribe({ group, topics: [topic], handler: async (m) => void got.push(m.value) });
    await waitFor('the old message', () => got.length === 1);
    await sub.close();
    await db.raw("update bus.messages set created_at = now() - interval '2 hours' where topic = ?", [topic]);
    await db.raw("update bus.offsets set updated_at = now() - interval '2 hours' where group_id = ?", [group]);

    const pruned = await pruneBus(db, { retentionMs: 3_600_000 });
    expect(pruned.messages).toBeGreaterThanOrEqual(1);
    expect(pruned.offsets).toBeGreaterThanOrEqual(1);

    const again = await bus.subscribe({ group, topics: [topic], handler: async (m) => void got.push(m.value) });
    cleanups.push(() => again.close());
    await bus.publish(topic, [{ key: 'k', value: 'new' }]);
    await waitFor('the new message', () => got.length === 2);
    expect(got).toEqual(['old', 'new']);
  });

  test('members that join at the same moment settle on an even split', async () => {
    const buses = await Promise.all([1, 2, 3].map(() => harness({ partitions: 6 })));
    const topic = name('even');
    const group = name('g');
    await Promise.all(buses.map((h) => h.bus.subscribe({ group, topics: [topic], handler: async () => {} })));
    const { db } = buses[0]!;
    const split = async () =>
      (
        (await db.raw(
          'select count(*)::int as n from bus.leases where group_id = ? and expires_at > now() group by member_id order by 1',
          [group],
        )) as { rows: { n: number }[] }
      ).rows.map((r) => r.n);
    let last: number[] = [];
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      last = await split();
      if (last.join() === '2,2,2') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(last).toEqual([2, 2, 2]);
  });

  /** A consumer and an outbox relay of one process, polling only once a minute: notifications are all that wakes them. */
  async function consumerAndRelay(label: string) {
    const { bus, db } = await harness({ pollIntervalMs: 60_000 });
    const topic = name(label);
    const got: unknown[] = [];
    const sub = await bus.subscribe({
      group: name('g'),
      topics: [topic],
      handler: async (m) => void got.push(m.value),
    });
    cleanups.push(() => sub.close());
    const schema = `svc_${label}`;
    await migrateOutbox(db, schema);
    const outbox = createOutbox({ db, schema, bus, pollIntervalMs: 60_000, logger: testLogger });
    const stopRelay = await outbox.startRelay();
    return { bus, db, topic, got, outbox, stopRelay };
  }

  test('the consumer and the relay share one LISTEN connection, and both come back after it is killed', async () => {
    const { bus, db, topic, got, outbox, stopRelay } = await consumerAndRelay('reconnect');
    cleanups.push(stopRelay);

    const { rows } = (await db.raw(
      "select pg_terminate_backend(pid) as killed from pg_stat_activity where datname = current_database() and query ilike 'listen%'",
    )) as { rows: { killed: boolean }[] };
    // The consumer and the relay of one process share one LISTEN connection (one PostgreSQL backend).
    expect(rows.length).toBe(1);
    await bus.publish(topic, [{ key: 'k', value: 'direct' }]);
    await db.transaction((trx) => outbox.add(trx, topic, [{ key: 'k', value: 'relayed' }]));
    // The poll is a minute away, so only a reconnect (which re-checks everything) can deliver these in time.
    await waitFor('both messages', () => got.length >= 2, 15_000);
    expect(got).toEqual(['direct', 'relayed']);

    await bus.publish(topic, [{ key: 'k', value: 'after' }]);
    await waitFor('a message after the reconnect', () => got.length >= 3, 15_000);
  });

  test('a relay stopping leaves the shared LISTEN connection to the consumer, which is still woken at once', async () => {
    const { bus, topic, got, stopRelay } = await consumerAndRelay('left');
    await stopRelay();
    // The poll is a minute away: only a notification on the connection the relay shared can deliver this in time.
    await bus.publish(topic, [{ key: 'k', value: 'still here' }]);
    await waitFor('the message', () => got.length >= 1, 15_000);
    expect(got).toEqual(['still here']);
  });

  test('migrateBus is idempotent when several processes run it at once', async () => {
    const dbs = [connect(), connect(), connect()];
    await Promise.all(dbs.map((db) => migrateBus(db, 'bus_concurrent')));
    await migrateBus(dbs[0]!, 'bus_concurrent');
    const { rows } = (await dbs[0]!.raw(
      "select count(*)::int as n from information_schema.tables where table_schema = 'bus_concurrent'",
    )) as { rows: { n: number }[] };
    expect(rows[0]!.n).toBe(7);
  });
});
