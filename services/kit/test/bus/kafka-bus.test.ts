import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import knex, { type Knex } from 'knex';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type BusLogger, type EventBus, partitionFor } from '../../src/bus/index';
import { createKafkaBus, heartbeatIntervalFor, type KafkaBusOptions } from '../../src/bus/kafka-bus';
import { createTestDatabase } from '../../src/testing/database';
import {
  type BusContractHarness,
  type KafkaMockCluster,
  runBusContract,
  startKafkaMockCluster,
  waitFor,
} from '../../src/testing/index';

const print = (level: string) => (obj: object, msg?: string) =>
  console.log(level, msg, JSON.stringify(obj).slice(0, 300));
// BUS_TEST_LOG=1 prints what the adapter logs, for looking into a failure.
const quiet: BusLogger = process.env.BUS_TEST_LOG
  ? { error: print('error'), warn: print('warn'), info: print('info'), debug: () => {} }
  : { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };

/**
 * Short group timings keep failover and rebalances within seconds. The mock
 * cluster hands out no producer ids (it names no controller), so the producer
 * is not idempotent here; acks=all and everything else is as in production.
 * As the services do on the mock (KAFKA_LEADER_SYNC_DELAY_MS), a group's leader
 * assigns a moment late, so that a second member's SyncGroup is not refused and
 * the group does not rebalance once more; the tests of that refusal turn it off.
 */
const fast = {
  idempotent: false,
  leaderSyncDelayMs: 300,
  sessionTimeoutMs: 3000,
  heartbeatIntervalMs: 200,
  rebalanceTimeoutMs: 4000,
  maxWaitTimeMs: 50,
  retryDelayMs: 10,
  maxRetryDelayMs: 50,
  joinTimeoutMs: 10_000,
  closeTimeoutMs: 3000,
  connectionTimeoutMs: 1000,
  requestTimeoutMs: 5000,
} satisfies Partial<KafkaBusOptions>;

let cluster: KafkaMockCluster;
let database: { url: string; drop(): Promise<void> };
const dbs: Knex[] = [];
let clients = 0;

beforeAll(async () => {
  [cluster, database] = await Promise.all([startKafkaMockCluster(), createTestDatabase('kafka_bus')]);
});

afterAll(async () => {
  await Promise.all(dbs.splice(0).map((db) => db.destroy()));
  await cluster?.stop();
  await database?.drop();
});

function makeHarness(brokers: () => string[], overrides: Partial<KafkaBusOptions> = {}): BusContractHarness {
  const db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 4 } });
  dbs.push(db);
  const bus = createKafkaBus({
    brokers: brokers(),
    clientId: `test-${++clients}`,
    logger: quiet,
    ...fast,
    ...overrides,
  });
  let crashed = false;
  return {
    bus,
    db,
    async crash() {
      crashed = true;
      await bus.simulateCrash();
    },
    async cleanup() {
      if (!crashed) await bus.close();
    },
  };
}

// Each new group waits out the mock coordinator's 3 s initial rebalance delay, and each rebalance its session
// timeout less a second: the tests are mostly waiting on those timers, so all of them run side by side (the contract's
// and the adapter's at once; each has its own topics, groups and client ids), rather than five at a time.
vi.setConfig({ maxConcurrency: 32 });

describe.concurrent("on librdkafka's mock cluster", () => {
  runBusContract('kafka (librdkafka mock cluster)', async () => makeHarness(() => cluster.brokers), {
    deliveryTimeoutMs: 10_000,
    failoverTimeoutMs: 20_000,
    concurrent: true,
  });

  describe('kafka adapter', { timeout: 30_000 }, () => {
    test("kafkajs' default partitioner puts every key where partitionFor does, for any partition count", () => {
      const partitioner = Partitioners.DefaultPartitioner();
      const keys = [...Array.from({ length: 500 }, (_, i) => `order-${i}`), '', 'ü-ñ-漢字', 'a'.repeat(1000)];
      for (const count of [1, 3, 4, 7, 16, 48]) {
        const partitionMetadata = Array.from({ length: count }, (_, partitionId) => ({
          partitionId,
          leader: 1,
          partitionErrorCode: 0,
          replicas: [1],
          isr: [1],
        }));
        for (const key of keys) {
          expect(partitioner({ topic: 't', partitionMetadata, message: { key, value: null } })).toBe(
            partitionFor(key, count),
          );
        }
      }
    });

    test('a consumer heartbeats three times within a short session timeout; with the default one, every 3 s', () => {
      expect(heartbeatIntervalFor(30_000)).toBe(3000);
      expect(heartbeatIntervalFor(9000)).toBe(3000);
      expect(heartbeatIntervalFor(5000)).toBe(1666);
      // The shortest KAFKA_SESSION_TIMEOUT_MS the configuration takes.
      expect(heartbeatIntervalFor(3000)).toBe(1000);
    });

    test('messages of a key land in the partition partitionFor names (the mock cluster gives topics 4 partitions)', async () => {
      const h = makeHarness(() => cluster.brokers);
      try {
        const topic = `placement-${Date.now()}`;
        const got: { key: string; partition: number }[] = [];
        await h.bus.subscribe({ group: `g-${topic}`, topics: [topic], handler: async (m) => void got.push(m) });
        const keys = Array.from({ length: 30 }, (_, i) => `user-${i}`);
        await h.bus.publish(
          topic,
          keys.map((key) => ({ key, value: key })),
        );
        await waitFor('every key', () => got.length >= keys.length, 10_000);
        for (const m of got) expect(m.partition).toBe(partitionFor(m.key, 4));
      } finally {
        await h.cleanup();
      }
    });

    test('a value that is not JSON goes to the dead-letter topic; the consumer lag gauge follows the group', async () => {
      const metrics = new Registry();
      const h = makeHarness(() => cluster.brokers, { metrics, lagIntervalMs: 100 });
      const topic = `raw-${Date.now()}`;
      const raw = new Kafka({ clientId: 'raw', brokers: cluster.brokers, logLevel: logLevel.NOTHING }).producer({
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await raw.connect();
      try {
        const got: unknown[] = [];
        const dead: { value: unknown; headers: Record<string, string> }[] = [];
        await h.bus.subscribe({ group: `g-${topic}`, topics: [topic], handler: async (m) => void got.push(m.value) });
        await h.bus.subscribe({
          group: `d-${topic}`,
          topics: [`${topic}.dlq`],
          handler: async (m) => void dead.push(m),
        });
        await raw.send({
          topic,
          messages: [
            { key: 'k', value: '{"n":1}' },
            { key: 'k', value: 'not json {' },
            { key: 'k', value: '{"n":3}' },
          ],
        });
        await waitFor('both good messages and the dead letter', () => got.length >= 2 && dead.length >= 1, 10_000);
        expect(got).toEqual([{ n: 1 }, { n: 3 }]);
        expect(dead[0]!.value).toBe('not json {');
        expect(dead[0]!.headers).toMatchObject({
          'x-dead-letter-reason': 'schema',
          'x-dead-letter-error': 'value is not JSON',
        });

        const partition = partitionFor('k', 4);
        const line = `flatship_bus_consumer_lag{group="g-${topic}",topic="${topic}",partition="${partition}"} 0`;
        await waitFor('the lag gauge', async () => (await metrics.metrics()).includes(line), 5000);
      } finally {
        await raw.disconnect();
        await h.cleanup();
      }
    });

    test('a member whose SyncGroup the coordinator refuses is started again, and subscribe resolves only once it consumes', async () => {
      // librdkafka's mock coordinator completes a rebalance as soon as the leader's SyncGroup
      // arrives, and answers a follower's SyncGroup that comes later as a malformed request,
      // an error kafkajs does not restart after. The second member's first SyncGroup is held
      // back here so that it always comes late.
      const topic = `late-sync-${Date.now()}`;
      const group = `g-${topic}`;
      const stopped: string[] = [];
      const watching: BusLogger = {
        ...quiet,
        error: (obj, msg) => {
          if (msg?.startsWith('kafka consumer stopped')) stopped.push(msg);
          quiet.error(obj, msg);
        },
      };
      const undo = holdBackFirstSyncGroup('late-member', 1500);
      const first = makeHarness(() => cluster.brokers, { leaderSyncDelayMs: 0 });
      const second = makeHarness(() => cluster.brokers, {
        leaderSyncDelayMs: 0,
        clientId: 'late-member',
        logger: watching,
      });
      try {
        const got = [new Set<string>(), new Set<string>()];
        await first.bus.subscribe({ group, topics: [topic], handler: async (m) => void got[0]!.add(String(m.value)) });
        await second.bus.subscribe({ group, topics: [topic], handler: async (m) => void got[1]!.add(String(m.value)) });
        expect(stopped.length).toBeGreaterThan(0);
        const keys = Array.from({ length: 40 }, (_, i) => `order-${i}`);
        await first.bus.publish(
          topic,
          keys.map((key) => ({ key, value: key })),
        );
        await waitFor('every message', () => got[0]!.size + got[1]!.size >= keys.length, 10_000);
        // The two members share the four partitions: the one started again consumes too.
        expect(got[0]!.size).toBeGreaterThan(0);
        expect(got[1]!.size).toBeGreaterThan(0);
      } finally {
        undo();
        await Promise.all([first.cleanup(), second.cleanup()]);
      }
    }, 60_000);

    test('with leaderSyncDelayMs the leader assigns after a slow member has sent its SyncGroup: nobody stops', async () => {
      const topic = `patient-${Date.now()}`;
      const group = `g-${topic}`;
      const stopped: string[] = [];
      const watching: BusLogger = {
        ...quiet,
        error: (obj, msg) => {
          if (msg?.startsWith('kafka consumer stopped')) stopped.push(msg);
          quiet.error(obj, msg);
        },
      };
      const undo = holdBackFirstSyncGroup('patient-member', 1500);
      // The coordinator gives the members a session timeout to sync, so the wait stays well within it.
      const patient = { leaderSyncDelayMs: 2500, sessionTimeoutMs: 6000, logger: watching };
      const first = makeHarness(() => cluster.brokers, patient);
      const second = makeHarness(() => cluster.brokers, { ...patient, clientId: 'patient-member' });
      try {
        const got = [new Set<string>(), new Set<string>()];
        await first.bus.subscribe({ group, topics: [topic], handler: async (m) => void got[0]!.add(String(m.value)) });
        await second.bus.subscribe({ group, topics: [topic], handler: async (m) => void got[1]!.add(String(m.value)) });
        const keys = Array.from({ length: 40 }, (_, i) => `order-${i}`);
        await first.bus.publish(
          topic,
          keys.map((key) => ({ key, value: key })),
        );
        await waitFor('every message', () => got[0]!.size + got[1]!.size >= keys.length, 10_000);
        expect(got[0]!.size).toBeGreaterThan(0);
        expect(got[1]!.size).toBeGreaterThan(0);
        expect(stopped).toEqual([]);
      } finally {
        undo();
        await Promise.all([first.cleanup(), second.cleanup()]);
      }
    }, 60_000);

    test("with leaderSyncDelayMs, a group's only member is assigned its partitions without waiting", async () => {
      // Nobody else's SyncGroup can come late, so the delay would only slow every start of a one-member group:
      // here it is far longer than the join timeout, which the mock's 3 s initial rebalance delay alone fits in.
      const h = makeHarness(() => cluster.brokers, { leaderSyncDelayMs: 20_000, joinTimeoutMs: 12_000 });
      try {
        const topic = `alone-${Date.now()}`;
        const got: unknown[] = [];
        await h.bus.subscribe({ group: `g-${topic}`, topics: [topic], handler: async (m) => void got.push(m.value) });
        await h.bus.publish(topic, [{ key: 'k', value: 'first' }]);
        await waitFor('the message', () => got.length >= 1, 10_000);
        expect(got).toEqual(['first']);
      } finally {
        await h.cleanup();
      }
    });

    test('subscribe fails, naming the group, when the member has not joined it within the join timeout', async () => {
      // The refused SyncGroup stops the consumer; starting it again and rejoining takes longer than 1 s.
      const topic = `slow-join-${Date.now()}`;
      const group = `g-${topic}`;
      const undo = holdBackFirstSyncGroup('slow-member', 1500);
      const first = makeHarness(() => cluster.brokers, { leaderSyncDelayMs: 0 });
      const second = makeHarness(() => cluster.brokers, {
        leaderSyncDelayMs: 0,
        clientId: 'slow-member',
        joinTimeoutMs: 1000,
      });
      try {
        await first.bus.subscribe({ group, topics: [topic], handler: async () => {} });
        await expect(second.bus.subscribe({ group, topics: [topic], handler: async () => {} })).rejects.toThrow(
          `kafka consumer of group ${group} did not join the group within 1000 ms (topics ${topic})`,
        );
      } finally {
        undo();
        await Promise.all([first.cleanup(), second.cleanup()]);
      }
    });

    test('a new group with fromBeginning: false starts at the end, and sees what is published once subscribe resolves', async () => {
      const h = makeHarness(() => cluster.brokers);
      try {
        const topic = `tail-${Date.now()}`;
        await h.bus.publish(topic, [{ key: 'k', value: 'old' }]);
        const got: unknown[] = [];
        await h.bus.subscribe({
          group: `gateway-replica-${topic}`,
          topics: [topic],
          fromBeginning: false,
          handler: async (m) => void got.push(m.value),
        });
        await h.bus.publish(topic, [{ key: 'k', value: 'new' }]);
        await waitFor('the new message', () => got.length >= 1, 10_000);
        expect(got).toEqual(['new']);
      } finally {
        await h.cleanup();
      }
    });
  });
});

/** Client ids whose first SyncGroup is still to be held back, and for how long. */
const holdBacks = new Map<string, number>();
let registrations = 0;
let unpatchedConnect: typeof net.connect | undefined;

/**
 * Delays the first SyncGroup request (Kafka API key 14) a client named `clientId`
 * writes, and everything it writes after it on that connection, by `ms`. Tests
 * running side by side may each hold back a client of their own: one wrapper of
 * net.connect serves them all, and is removed once the last of them undoes it.
 */
function holdBackFirstSyncGroup(clientId: string, ms: number): () => void {
  holdBacks.set(clientId, ms);
  registrations++;
  if (!unpatchedConnect) {
    const connect = net.connect;
    unpatchedConnect = connect;
    net.connect = ((...args: Parameters<typeof net.connect>) => {
      const socket = connect(...args);
      const write = socket.write.bind(socket) as (chunk: Buffer, ...rest: unknown[]) => boolean;
      let queue: Promise<unknown> | undefined;
      socket.write = ((chunk: Buffer, ...rest: unknown[]) => {
        if (queue) {
          queue = queue.then(() => write(chunk, ...rest));
          return true;
        }
        if (holdBacks.size > 0 && Buffer.isBuffer(chunk) && chunk.length > 14 && chunk.readInt16BE(4) === 14) {
          const nameLength = chunk.readInt16BE(12);
          const name = chunk.toString('utf8', 14, 14 + nameLength);
          const delay = holdBacks.get(name);
          if (delay !== undefined) {
            holdBacks.delete(name);
            queue = new Promise((resume) => setTimeout(resume, delay)).then(() => write(chunk, ...rest));
            return true;
          }
        }
        return write(chunk, ...rest);
      }) as typeof socket.write;
      return socket;
    }) as typeof net.connect;
  }
  return () => {
    holdBacks.delete(clientId);
    registrations--;
    if (registrations === 0 && unpatchedConnect) {
      net.connect = unpatchedConnect;
      unpatchedConnect = undefined;
    }
  };
}

/** Docker is there when its CLI answers; the same contract then runs against a real Kafka broker. */
function dockerAvailable(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

const docker = dockerAvailable();
if (!docker) {
  console.info('kafka-bus: no Docker daemon here, so the contract on a real Kafka broker (testcontainers) is skipped');
}

describe.skipIf(!docker)('on a real Kafka broker (testcontainers)', () => {
  let container: { getHost(): string; getMappedPort(p: number): number; stop(): Promise<unknown> } | undefined;
  let brokers: string[] = [];

  beforeAll(async () => {
    const { KafkaContainer } = await import('@testcontainers/kafka');
    const started = await new KafkaContainer('confluentinc/cp-kafka:7.9.0').withKraft().start();
    container = started;
    brokers = [`${started.getHost()}:${started.getMappedPort(9093)}`];
  }, 180_000);

  afterAll(async () => {
    await container?.stop();
  });

  // A real broker creates nothing implicitly for this producer, so the test creates each topic (and its .dlq) first, as the topic job would.
  const withTopics = (h: BusContractHarness): BusContractHarness => {
    const admin = new Kafka({ clientId: 'topics', brokers, logLevel: logLevel.NOTHING }).admin();
    const created = new Set<string>();
    const ensure = async (topics: string[]) => {
      const wanted = topics.flatMap((t) => (t.endsWith('.dlq') ? [t] : [t, `${t}.dlq`])).filter((t) => !created.has(t));
      if (wanted.length === 0) return;
      await admin.connect();
      await admin.createTopics({ waitForLeaders: true, topics: wanted.map((topic) => ({ topic, numPartitions: 4 })) });
      for (const t of wanted) created.add(t);
    };
    const bus: EventBus = {
      publish: async (topic, messages) => {
        await ensure([topic]);
        return h.bus.publish(topic, messages);
      },
      subscribe: async (opts) => {
        await ensure(opts.topics ?? []);
        return h.bus.subscribe(opts);
      },
      close: () => h.bus.close(),
    };
    return {
      ...h,
      bus,
      cleanup: async () => {
        await h.cleanup();
        await admin.disconnect();
      },
    };
  };

  runBusContract('kafka (real broker)', async () => withTopics(makeHarness(() => brokers, { idempotent: true })), {
    deliveryTimeoutMs: 15_000,
    failoverTimeoutMs: 30_000,
  });

  test('the real broker is reachable', () => {
    expect(brokers.length).toBe(1);
  });
});
