import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  type BusLogger,
  createOutbox,
  createPostgresBus,
  type EventBus,
  migrateBus,
  migrateOutbox,
  type PostgresBus,
} from '../../src/bus/index';
import { createDb, isDatabaseUnavailable, type Knex } from '../../src/db';
import { createTestDatabase } from '../../src/testing/database';
import { type RestartablePostgres, startRestartablePostgres } from '../../src/testing/embedded-pg';
import { waitFor } from '../../src/testing/index';

// A PostgreSQL of this file's own: killing the run's shared one would take every other test file down with it.
let pg: RestartablePostgres;
let db: Knex;
let bus: PostgresBus | undefined;
const crashes: unknown[] = [];
const onCrash = (err: unknown) => void crashes.push(err);
const logged: string[] = [];
const logger: BusLogger = {
  error: (_obj, msg) => void logged.push(`error: ${msg}`),
  warn: (_obj, msg) => void logged.push(`warn: ${msg}`),
  info: () => {},
  debug: () => {},
};

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  pg = await startRestartablePostgres();
  const tdb = await createTestDatabase('outage', pg.adminUrl);
  db = createDb(tdb.url, 'svc_outage', { max: 6, logger: { warn: () => {} } });
  await migrateBus(db, 'bus');
  await migrateOutbox(db, 'svc_outage');
  await migrateOutbox(db, 'svc_late');
  await db.raw('create table svc_outage.handled (k text, n int, primary key (k, n))');
});

afterAll(async () => {
  await bus?.close();
  await db?.destroy();
  await pg?.stop();
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
});

interface Seq {
  k: string;
  n: number;
}

test('after PostgreSQL is killed and started again, consumers and the outbox relay carry on by themselves', async () => {
  // Polls a minute apart: only a LISTEN connection that came back (and the re-check after it) can deliver in time.
  // Leases shorter than any outage, so they have expired by the time the database is back.
  bus = createPostgresBus({ db, logger, pollIntervalMs: 60_000, leaseTimeoutMs: 500 });
  const keys = ['order-1', 'order-2', 'order-3'];
  const seen = new Map<string, number[]>();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  await bus.subscribe({
    group: 'outage-group',
    topics: ['outage-topic'],
    concurrency: 3,
    // As real consumers do: record in the database, idempotently.
    handler: async (m) => {
      const { k, n } = m.value as Seq;
      if (k === 'order-1' && n === 4 && !held) {
        // This one is in the handler when the database dies, and writes once it is gone.
        held = true;
        await gate;
      }
      await db.raw('insert into svc_outage.handled (k, n) values (?, ?) on conflict do nothing', [k, n]);
      seen.set(k, [...(seen.get(k) ?? []), n]);
    },
  });
  const outbox = createOutbox({ db, schema: 'svc_outage', bus, logger, pollIntervalMs: 60_000 });
  const stopRelay = await outbox.startRelay();
  const publish = (from: number, to: number) =>
    bus!.publish(
      'outage-topic',
      keys.flatMap((k) => Array.from({ length: to - from }, (_, i) => ({ key: k, value: { k, n: from + i } }))),
    );
  const distinct = () => [...seen.values()].reduce((n, list) => n + new Set(list).size, 0);
  // An outbox first flushed while the database is away must still find out that the bus shares its database:
  // this bus refuses the publish-then-delete fallback.
  const refusing: EventBus = {
    ...bus,
    publish: async () => {
      throw new Error('publish must not be used');
    },
  };
  const lateOutbox = createOutbox({ db, schema: 'svc_late', bus: refusing, logger });

  try {
    await publish(0, 5);
    await waitFor('the messages before the outage, but one held in its handler', () => distinct() === 14 && held);

    await pg.kill();
    release();
    // Fails at once, on the refused connection, instead of waiting out the pool for a connection that cannot come.
    const failure = await publish(100, 101).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(String((failure as Error)?.message)).not.toMatch(/Timeout acquiring a connection/);
    await expect(lateOutbox.flush()).rejects.toThrow();
    await pg.start();

    await publish(5, 10);
    await db.transaction((trx) =>
      outbox.add(
        trx,
        'outage-topic',
        keys.map((k) => ({ key: k, value: { k, n: 10 } })),
      ),
    );
    await db.transaction((trx) => lateOutbox.add(trx, 'late-topic', [{ key: 'k', value: 'late' }]));
    expect(await lateOutbox.flush()).toBe(1);
    // The handler that failed while the database was away is retried once it is back, with the rest.
    await waitFor('every message, the relayed ones included', () => distinct() === 33, 30_000);
  } finally {
    await stopRelay();
  }

  for (const k of keys) {
    const got = seen.get(k)!;
    // At least once and in order: a message whose commit was lost may come again, but never after a later one.
    expect([...new Set(got)]).toEqual(Array.from({ length: 11 }, (_, n) => n));
    expect(got).toEqual([...got].sort((a, b) => a - b));
  }
  const { rows } = (await db.raw('select count(*)::int as n from svc_outage.handled')) as { rows: { n: number }[] };
  expect(rows[0]!.n).toBe(33);
  expect(logged).toContain('error: event handler failed; the message will be retried');
  expect(crashes).toEqual([]);
}, 60_000);
