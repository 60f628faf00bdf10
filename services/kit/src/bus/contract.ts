import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { afterEach, describe, expect, test } from 'vitest';
import { migrateOutbox } from './migrate';
import { createOutbox } from './outbox';
import type { BusMessage, EventBus, Subscription } from './port';

/** One process's view of the bus under test. */
export interface BusContractHarness {
  bus: EventBus;
  /** A service database for the outbox (PostgreSQL, whichever bus adapter is under test); all harnesses share it. */
  db: Knex;
  /**
   * Stops this harness as a killed process would: handlers in flight are
   * abandoned, nothing is committed, group membership and partitions are not
   * given back, and connections are dropped. Nothing is used afterwards but `cleanup`.
   */
  crash(): Promise<void>;
  cleanup(): Promise<void>;
}

export interface BusContractOptions {
  /** Upper bound for a delivery that needs no failover. */
  deliveryTimeoutMs?: number;
  /** Upper bound for a surviving member to take over a dead member's partitions (lease or session timeout plus slack). */
  failoverTimeoutMs?: number;
}

/** Polls a condition until it holds; fails with `what` after the timeout instead of sleeping a fixed time. */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const unique = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;

interface Seq {
  k: string;
  n: number;
}

/**
 * The behaviour every event-bus adapter must show. Topic, group and schema
 * names are unique per test, so harnesses may share one database and broker.
 */
export function runBusContract(
  name: string,
  makeBus: () => Promise<BusContractHarness>,
  options: BusContractOptions = {},
): void {
  const deliveryMs = options.deliveryTimeoutMs ?? 5000;
  const failoverMs = options.failoverTimeoutMs ?? 15_000;

  describe(`event bus contract: ${name}`, () => {
    const open: BusContractHarness[] = [];
    const subscriptions: Subscription[] = [];
    const harness = async () => {
      const h = await makeBus();
      open.push(h);
      return h;
    };
    const subscribe = async (bus: EventBus, ...args: Parameters<EventBus['subscribe']>) => {
      const sub = await bus.subscribe(...args);
      subscriptions.push(sub);
      return sub;
    };

    afterEach(async () => {
      await Promise.all(subscriptions.splice(0).map((s) => s.close().catch(() => {})));
      await Promise.all(open.splice(0).map((h) => h.cleanup()));
    });

    test('delivers published messages with key, value and headers to a subscriber', async () => {
      const { bus } = await harness();
      const topic = unique('roundtrip');
      await bus.publish(topic, [{ key: 'order-1', value: { n: 1, note: 'before subscribing' } }]);
      const got: BusMessage[] = [];
      await subscribe(bus, {
        group: unique('g'),
        topics: [topic],
        handler: async (m) => {
          got.push(m);
        },
      });
      await bus.publish(topic, [{ key: 'order-1', value: { n: 2, nested: [1, 'x'] }, headers: { 'x-trace': 'abc' } }]);
      await waitFor('two messages', () => got.length >= 2, deliveryMs);

      expect(got.map((m) => m.value)).toEqual([
        { n: 1, note: 'before subscribing' },
        { n: 2, nested: [1, 'x'] },
      ]);
      const second = got[1]!;
      expect(second.topic).toBe(topic);
      expect(second.key).toBe('order-1');
      expect(second.headers).toMatchObject({ 'x-trace': 'abc' });
      expect(second.timestamp).toBeInstanceOf(Date);
      expect(typeof second.offset).toBe('string');
      expect(second.partition).toBe(got[0]!.partition);
      expect(BigInt(second.offset)).toBeGreaterThan(BigInt(got[0]!.offset));
    });

    test('members of one group share the partitions, each message handled by exactly one member', async () => {
      const a = await harness();
      const b = await harness();
      const topic = unique('shared');
      const group = unique('g');
      const byA: string[] = [];
      const byB: string[] = [];
      await subscribe(a.bus, { group, topics: [topic], handler: async (m) => void byA.push(m.key) });
      await subscribe(b.bus, { group, topics: [topic], handler: async (m) => void byB.push(m.key) });
      const keys = Array.from({ length: 100 }, (_, i) => `key-${i}`);
      await a.bus.publish(
        topic,
        keys.map((key) => ({ key, value: key })),
      );
      await waitFor('every message', () => byA.length + byB.length >= keys.length, deliveryMs);

      expect(byA.length).toBeGreaterThan(0);
      expect(byB.length).toBeGreaterThan(0);
      expect([...byA, ...byB].sort()).toEqual([...keys].sort());
    });

    test('two different groups each see every message', async () => {
      const { bus } = await harness();
      const topic = unique('fanout');
      const first: string[] = [];
      const second: string[] = [];
      await subscribe(bus, { group: unique('g1'), topics: [topic], handler: async (m) => void first.push(m.key) });
      await subscribe(bus, { group: unique('g2'), topics: [topic], handler: async (m) => void second.push(m.key) });
      const keys = Array.from({ length: 20 }, (_, i) => `key-${i}`);
      await bus.publish(
        topic,
        keys.map((key) => ({ key, value: null })),
      );
      await waitFor('both groups', () => first.length >= keys.length && second.length >= keys.length, deliveryMs);

      expect([...first].sort()).toEqual([...keys].sort());
      expect([...second].sort()).toEqual([...keys].sort());
    });

    test('redelivers uncommitted messages to a surviving member after a member dies', async () => {
      const doomed = await harness();
      const survivor = await harness();
      const topic = unique('failover');
      const group = unique('g');
      const completed: number[] = [];
      const hung: number[] = [];
      // The doomed member finishes the first three messages, then hangs on the fourth until it is killed.
      await subscribe(doomed.bus, {
        group,
        topics: [topic],
        handler: async (m) => {
          const { n } = m.value as Seq;
          if (n < 3) {
            completed.push(n);
            return;
          }
          hung.push(n);
          await new Promise(() => {});
        },
      });
      await doomed.bus.publish(
        topic,
        Array.from({ length: 8 }, (_, n) => ({ key: 'one-key', value: { k: 'one-key', n } })),
      );
      await waitFor('the doomed member to hang', () => hung.length > 0, deliveryMs);
      await doomed.crash();

      const redelivered: number[] = [];
      await subscribe(survivor.bus, {
        group,
        topics: [topic],
        handler: async (m) => void redelivered.push((m.value as Seq).n),
      });
      await waitFor('the uncommitted messages', () => redelivered.includes(7), failoverMs);

      expect(completed).toEqual([0, 1, 2]);
      expect(hung).toEqual([3]);
      // At-least-once: everything not completed arrives, in order; an adapter may also replay completed ones.
      expect(redelivered.filter((n) => n >= 3)).toEqual([3, 4, 5, 6, 7]);
      expect(redelivered).toEqual([...redelivered].sort((x, y) => x - y));
    });

    test('keeps the order of messages with the same key (1000 messages over 10 keys)', async () => {
      const { bus } = await harness();
      const topic = unique('ordering');
      const seen = new Map<string, number[]>();
      let total = 0;
      await subscribe(bus, {
        group: unique('g'),
        topics: [topic],
        concurrency: 4,
        handler: async (m) => {
          const { k, n } = m.value as Seq;
          const list = seen.get(k) ?? [];
          list.push(n);
          seen.set(k, list);
          total++;
        },
      });
      const keys = Array.from({ length: 10 }, (_, i) => `customer-${i}`);
      // Ten publish calls of 100 interleaved messages each, so ordering must hold within and across calls.
      for (let batch = 0; batch < 10; batch++) {
        await bus.publish(
          topic,
          Array.from({ length: 100 }, (_, i) => {
            const k = keys[i % 10]!;
            return { key: k, value: { k, n: batch * 10 + Math.floor(i / 10) } };
          }),
        );
      }
      await waitFor('1000 messages', () => total >= 1000, deliveryMs * 2);

      expect(total).toBe(1000);
      for (const k of keys) expect(seen.get(k)).toEqual(Array.from({ length: 100 }, (_, n) => n));
    });

    test('a batch handler gets consecutive messages of one partition, at most maxBatchSize at a time, in order', async () => {
      const { bus } = await harness();
      const topic = unique('batches');
      const batches: BusMessage[][] = [];
      await bus.publish(
        topic,
        Array.from({ length: 60 }, (_, n) => ({ key: 'one-key', value: { n } })),
      );
      await subscribe(bus, {
        group: unique('g'),
        topics: [topic],
        maxBatchSize: 25,
        batchHandler: async (messages) => {
          batches.push(messages);
        },
      });
      await waitFor('60 messages in batches', () => batches.flat().length >= 60, deliveryMs);

      expect(batches.flat().map((m) => (m.value as { n: number }).n)).toEqual(Array.from({ length: 60 }, (_, n) => n));
      expect(Math.max(...batches.map((b) => b.length))).toBe(25);
      expect(batches.length).toBeGreaterThanOrEqual(3);
      for (const b of batches) expect(new Set(b.map((m) => m.partition)).size).toBe(1);
    });

    test('a batch whose handler throws comes again whole, and nothing after it is delivered first', async () => {
      const { bus } = await harness();
      const topic = unique('batch-retry');
      const calls: number[][] = [];
      let failures = 0;
      await subscribe(bus, {
        group: unique('g'),
        topics: [topic],
        maxBatchSize: 10,
        batchHandler: async (messages) => {
          const ns = messages.map((m) => (m.value as { n: number }).n);
          calls.push(ns);
          if (ns.includes(3) && failures < 2) {
            failures++;
            throw new Error('database away');
          }
        },
      });
      await bus.publish(
        topic,
        Array.from({ length: 5 }, (_, n) => ({ key: 'k', value: { n } })),
      );
      await waitFor(
        'the batch to succeed',
        () => calls.some((c) => c.includes(4)) && failures === 2 && calls.length >= 3,
        deliveryMs * 2,
      );

      const firstWithThree = calls.findIndex((c) => c.includes(3));
      // The failed batch is offered again unchanged (no later message skipped ahead, none lost).
      expect(calls[firstWithThree + 1]).toEqual(calls[firstWithThree]);
      expect(calls[firstWithThree + 2]).toEqual(calls[firstWithThree]);
      expect([...new Set(calls.flat())].sort()).toEqual([0, 1, 2, 3, 4]);
    });

    test('subscribe refuses options with both or neither of handler and batchHandler', async () => {
      const { bus } = await harness();
      const topic = unique('bad');
      await expect(
        bus.subscribe({ group: unique('g'), topics: [topic] } as unknown as Parameters<EventBus['subscribe']>[0]),
      ).rejects.toThrow(/handler/);
      await expect(
        bus.subscribe({
          group: unique('g'),
          topics: [topic],
          handler: async () => {},
          batchHandler: async () => {},
        } as unknown as Parameters<EventBus['subscribe']>[0]),
      ).rejects.toThrow(/handler/);
    });

    test('outbox rows of a committed transaction survive a relay crash and are relayed exactly once; rolled-back rows never', async () => {
      const dying = await harness();
      const next = await harness();
      const schema = unique('svc');
      const topic = unique('outbox');
      await migrateOutbox(dying.db, schema);
      // This process records events and dies before its relay ever runs.
      const dyingOutbox = createOutbox({ db: dying.db, schema, bus: dying.bus });
      await dying.db.transaction((trx) =>
        dyingOutbox.add(trx, topic, [
          { key: 'order-1', value: { k: 'order-1', n: 1 } },
          { key: 'order-1', value: { k: 'order-1', n: 2 } },
        ]),
      );
      await dying.db.transaction((trx) =>
        dyingOutbox.add(trx, topic, [{ key: 'order-1', value: { k: 'order-1', n: 3 }, headers: { 'x-kind': 'c' } }]),
      );
      const rolledBack = dying.db.transaction(async (trx) => {
        await dyingOutbox.add(trx, topic, [{ key: 'order-1', value: { k: 'order-1', n: -1 } }]);
        throw new Error('business rule failed');
      });
      await expect(rolledBack).rejects.toThrow('business rule failed');
      await dying.crash();

      const got: BusMessage[] = [];
      await subscribe(next.bus, { group: unique('g'), topics: [topic], handler: async (m) => void got.push(m) });
      const outbox = createOutbox({ db: next.db, schema, bus: next.bus });
      const stopRelay = await outbox.startRelay();
      try {
        await waitFor('the three committed events', () => got.length >= 3, deliveryMs);
        expect(await outbox.flush()).toBe(0);
        // A marker on the same key arrives after anything the relay published, so duplicates would show up before it.
        await next.bus.publish(topic, [{ key: 'order-1', value: { k: 'order-1', n: 99 } }]);
        await waitFor('the marker', () => got.some((m) => (m.value as Seq).n === 99), deliveryMs);
      } finally {
        await stopRelay();
      }

      expect(got.map((m) => (m.value as Seq).n)).toEqual([1, 2, 3, 99]);
      expect(got[2]!.headers).toMatchObject({ 'x-kind': 'c' });
    });

    test('outbox rows are relayed once the adding transaction commits', async () => {
      const { bus, db } = await harness();
      const schema = unique('svc');
      const topic = unique('outbox');
      await migrateOutbox(db, schema);
      const outbox = createOutbox({ db, schema, bus });
      const got: unknown[] = [];
      await subscribe(bus, { group: unique('g'), topics: [topic], handler: async (m) => void got.push(m.value) });
      const stopRelay = await outbox.startRelay();
      try {
        await db.transaction((trx) => outbox.add(trx, topic, [{ key: 'user-7', value: { k: 'user-7', n: 1 } }]));
        await waitFor('the relayed event', () => got.length >= 1, deliveryMs);
      } finally {
        await stopRelay();
      }
      expect(got).toEqual([{ k: 'user-7', n: 1 }]);
      expect(await outbox.flush()).toBe(0);
    });
  });
}
