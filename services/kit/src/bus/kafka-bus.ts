import net from 'node:net';
import {
  type Admin,
  type Consumer,
  type EachBatchPayload,
  type ISocketFactory,
  Kafka,
  type KafkaMessage,
  logLevel,
  type PartitionAssigner,
  PartitionAssigners,
  Partitioners,
  type Producer,
} from 'kafkajs';
import type { Registry } from 'prom-client';
import { byDeadLetterTopic, type DeadLetter, deliverChunk } from './delivery';
import { consumerLagGauge } from './lag';
import { fallbackLogger, sleep } from './pg-support';
import type { BusLogger, BusMessage, EventBus, OutgoingMessage, SubscribeOptions, Subscription } from './port';

export interface KafkaBusOptions {
  /** Bootstrap brokers, `host:port`. */
  brokers: string[];
  clientId: string;
  logger?: BusLogger;
  /** Registers `flatship_bus_consumer_lag{group,topic,partition}` here. */
  metrics?: Registry;
  /**
   * Idempotent producer (default true): a retried send is written once. Needs a
   * cluster that hands out producer ids, as every real Kafka does.
   */
  idempotent?: boolean;
  /** A member that stops heartbeating is dropped from its group after this long (default 30 s). */
  sessionTimeoutMs?: number;
  /** Default 3 s, or a third of a shorter session timeout (see `heartbeatIntervalFor`). */
  heartbeatIntervalMs?: number;
  /** How long the coordinator waits for members to rejoin during a rebalance (default 60 s). */
  rebalanceTimeoutMs?: number;
  /** How long a fetch waits for new messages before returning empty (default 1 s). */
  maxWaitTimeMs?: number;
  /** First wait before retrying a failed handler; doubles up to `maxRetryDelayMs` (defaults 200 ms and 10 s). */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Batch handler size when a subscription gives none (default 100). */
  batchSize?: number;
  /**
   * How long a group's leader waits before sending the partition assignment (default 0). Only for
   * librdkafka's mock cluster: its coordinator finishes a rebalance as soon as the leader's SyncGroup
   * arrives and refuses a member's SyncGroup that comes after it, which stops that consumer (it is
   * then started again, and the group rebalances once more). Keep it well below the session timeout,
   * which is how long the coordinator waits for the assignment.
   */
  leaderSyncDelayMs?: number;
  /** How long `subscribe` waits for the member to join its group (default: the rebalance timeout). */
  joinTimeoutMs?: number;
  /** How long closing waits for handlers in flight before dropping the connections anyway (default 30 s). */
  closeTimeoutMs?: number;
  /** How often the consumer lag is read from the brokers when `metrics` is given (default 15 s). */
  lagIntervalMs?: number;
  /** Connection and request timeouts towards the brokers (defaults 3 s and 30 s). */
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
}

export interface KafkaBus extends EventBus {
  readonly kind: 'kafka';
  /**
   * Test hook: drops every connection at once, as a killed process would:
   * nothing is committed, the groups are not left (the coordinator notices only
   * when the session times out) and handlers in flight are abandoned.
   */
  simulateCrash(): Promise<void>;
}

export function isKafkaBus(bus: EventBus): bus is KafkaBus {
  return (bus as Partial<KafkaBus>).kind === 'kafka';
}

interface Member {
  group: string;
  assigned: Map<string, number[]>;
  stopLag(): void;
  close(): Promise<void>;
}

const encode = (m: OutgoingMessage) => ({
  key: m.key,
  value: JSON.stringify(m.value ?? null),
  headers: m.headers ?? {},
});

function headersOf(message: KafkaMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    const v = Array.isArray(value) ? value[value.length - 1] : value;
    if (v !== undefined) out[name] = Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
  }
  return out;
}

/** The message as handlers see it; `problem` is set when its value is not JSON. */
function decode(topic: string, partition: number, message: KafkaMessage): { msg: BusMessage; problem?: string } {
  const raw = message.value?.toString('utf8');
  const base = {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString('utf8') ?? '',
    headers: headersOf(message),
    timestamp: new Date(Number(message.timestamp)),
  };
  if (raw === undefined) return { msg: { ...base, value: null } };
  try {
    return { msg: { ...base, value: JSON.parse(raw) } };
  } catch {
    return { msg: { ...base, value: raw }, problem: 'value is not JSON' };
  }
}

const isUnknownTopic = (err: unknown): boolean =>
  (err as { type?: string }).type === 'UNKNOWN_TOPIC_OR_PARTITION' ||
  /does not host this topic-partition/.test((err as Error).message ?? '');

const missingTopic = (topics: string, cause: unknown) =>
  new Error(
    `Kafka topic ${topics} does not exist (or not all of them): topics are declared in infra/kafka/topics.ts and created by the topic job (infra/kafka/create-topics.ts)`,
    { cause },
  );

/**
 * The heartbeat interval that goes with a session timeout: 3 s, as Kafka's clients default to, but at
 * least three heartbeats within the session, so that one late heartbeat does not cost the member its
 * partitions (a 3 s heartbeat with a 3 s session timeout, which the configuration allows, would).
 */
export function heartbeatIntervalFor(sessionTimeoutMs: number): number {
  return Math.max(1, Math.min(3000, Math.floor(sessionTimeoutMs / 3)));
}

/**
 * kafkajs' round-robin assignment, handed to the coordinator `delayMs` later when the group has other
 * members (their SyncGroup must get there first); a group's only member is assigned at once.
 */
const patientLeader =
  (delayMs: number): PartitionAssigner =>
  (config) => {
    const roundRobin = PartitionAssigners.roundRobin(config);
    return {
      name: roundRobin.name,
      version: roundRobin.version,
      protocol: (subscription) => roundRobin.protocol(subscription),
      assign: async (group) => {
        if (group.members.length > 1) await sleep(delayMs);
        return roundRobin.assign(group);
      },
    };
  };

/**
 * The Kafka adapter (kafkajs). Keys map to partitions with murmur2, as the
 * postgres adapter does; every subscription is a consumer of its own in its
 * group, offsets are committed explicitly right after the handler resolves,
 * and the producer waits for all in-sync replicas. Topics are never created
 * here: they are declared in infra/kafka/topics.ts and created by the topic job.
 */
export function createKafkaBus(opts: KafkaBusOptions): KafkaBus {
  const logger = opts.logger ?? fallbackLogger;
  const settings = {
    sessionTimeout: opts.sessionTimeoutMs ?? 30_000,
    heartbeatInterval: opts.heartbeatIntervalMs ?? heartbeatIntervalFor(opts.sessionTimeoutMs ?? 30_000),
    rebalanceTimeout: opts.rebalanceTimeoutMs ?? 60_000,
    maxWaitTimeInMs: opts.maxWaitTimeMs ?? 1000,
    retryDelayMs: opts.retryDelayMs ?? 200,
    maxRetryDelayMs: opts.maxRetryDelayMs ?? 10_000,
    batchSize: opts.batchSize ?? 100,
    closeTimeoutMs: opts.closeTimeoutMs ?? 30_000,
    lagIntervalMs: opts.lagIntervalMs ?? 15_000,
  };
  const joinTimeoutMs = opts.joinTimeoutMs ?? settings.rebalanceTimeout;
  const lag = consumerLagGauge(opts.metrics);

  let crashed = false;
  let closed = false;
  const sockets = new Set<net.Socket>();
  const socketFactory: ISocketFactory = ({ host, port, onConnect }) => {
    if (crashed) {
      // A killed process opens nothing: the attempt fails at once.
      const dead = new net.Socket();
      setImmediate(() => dead.destroy(new Error('connection refused: the process was stopped')));
      return dead;
    }
    const socket = net.connect({ host, port }, onConnect);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };

  const kafka = new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    connectionTimeout: opts.connectionTimeoutMs ?? 3000,
    requestTimeout: opts.requestTimeoutMs ?? 30_000,
    socketFactory,
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }) => {
        if (crashed) return;
        const { message, ...extra } = log;
        const obj = { kafka: extra };
        if (level === logLevel.ERROR) logger.error(obj, `kafka: ${message}`);
        else if (level === logLevel.WARN) logger.warn(obj, `kafka: ${message}`);
        else logger.debug(obj, `kafka: ${message}`);
      },
  });

  const producer: Producer = kafka.producer({
    allowAutoTopicCreation: false,
    idempotent: opts.idempotent ?? true,
    maxInFlightRequests: opts.idempotent === false ? undefined : 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  let producerReady: Promise<void> | undefined;
  const connectProducer = (): Promise<void> => {
    producerReady ??= producer.connect();
    producerReady.catch(() => {
      producerReady = undefined;
    });
    return producerReady;
  };

  let admin: Promise<Admin> | undefined;
  const getAdmin = (): Promise<Admin> => {
    admin ??= (async () => {
      const a = kafka.admin();
      await a.connect();
      return a;
    })();
    admin.catch(() => {
      admin = undefined;
    });
    return admin;
  };

  const members = new Set<Member>();

  const publish = async (topic: string, messages: OutgoingMessage[]): Promise<void> => {
    if (closed) throw new Error('event bus is closed');
    if (messages.length === 0) return;
    await connectProducer();
    try {
      await producer.send({ topic, acks: -1, messages: messages.map(encode) });
    } catch (err) {
      throw isUnknownTopic(err) ? missingTopic(topic, err) : err;
    }
  };

  /**
   * Where a group that starts at the end begins is stored at once (as the
   * postgres adapter does): each assigned partition without a committed offset
   * is moved to the current end and that offset committed, so a message
   * published once subscribe has resolved is never skipped, and a member that
   * takes the partition over later starts from the same place.
   */
  const recordStart = async (consumer: Consumer, group: string, assignment: Map<string, number[]>) => {
    try {
      const a = await getAdmin();
      const topics = [...assignment.keys()];
      const committed = await a.fetchOffsets({ groupId: group, topics });
      for (const t of committed) {
        const mine = new Set(assignment.get(t.topic) ?? []);
        const missing = t.partitions.filter((p) => mine.has(p.partition) && p.offset === '-1');
        if (missing.length === 0) continue;
        const ends = await a.fetchTopicOffsets(t.topic);
        const starts = missing.map((p) => ({
          topic: t.topic,
          partition: p.partition,
          offset: ends.find((e) => e.partition === p.partition)?.high ?? '0',
        }));
        for (const st of starts) consumer.seek(st);
        await consumer.commitOffsets(starts);
      }
    } catch (err) {
      logger.warn({ err, group }, 'could not record where a new consumer group starts; it starts at the end');
    }
  };

  const startLagPolling = (member: Member): (() => void) => {
    if (!lag) return () => {};
    let stopped = false;
    const timer = setInterval(async () => {
      if (stopped || crashed || member.assigned.size === 0) return;
      try {
        const a = await getAdmin();
        const topics = [...member.assigned.keys()];
        const committed = await a.fetchOffsets({ groupId: member.group, topics });
        for (const t of committed) {
          const ends = await a.fetchTopicOffsets(t.topic);
          const owned = new Set(member.assigned.get(t.topic) ?? []);
          for (const p of t.partitions) {
            if (!owned.has(p.partition)) continue;
            const end = ends.find((e) => e.partition === p.partition);
            if (!end) continue;
            const from = p.offset === '-1' ? BigInt(end.low) : BigInt(p.offset);
            lag.set(
              { group: member.group, topic: t.topic, partition: String(p.partition) },
              Number(BigInt(end.high) - from),
            );
          }
        }
      } catch (err) {
        logger.debug({ err, group: member.group }, 'could not read consumer lag');
      }
    }, settings.lagIntervalMs);
    timer.unref();
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  };

  const forgetLag = (member: Member) => {
    if (!lag) return;
    for (const [topic, partitions] of member.assigned) {
      for (const partition of partitions) lag.remove({ group: member.group, topic, partition: String(partition) });
    }
  };

  const subscribe = async (options: SubscribeOptions): Promise<Subscription> => {
    if (closed) throw new Error('event bus is closed');
    if (options.topics.length === 0) throw new Error('subscribe needs at least one topic');
    if (!options.handler === !options.batchHandler) {
      throw new Error('subscribe needs exactly one of handler and batchHandler');
    }
    const group = options.group;
    const topics = [...new Set(options.topics)];
    const fromBeginning = options.fromBeginning ?? true;

    const consumer = kafka.consumer({
      groupId: group,
      sessionTimeout: settings.sessionTimeout,
      heartbeatInterval: settings.heartbeatInterval,
      rebalanceTimeout: settings.rebalanceTimeout,
      maxWaitTimeInMs: settings.maxWaitTimeInMs,
      allowAutoTopicCreation: false,
      ...(opts.leaderSyncDelayMs ? { partitionAssigners: [patientLeader(opts.leaderSyncDelayMs)] } : {}),
      retry: { restartOnFailure: async () => !crashed && !closed },
    });
    const member: Member = { group, assigned: new Map(), stopLag: () => {}, close: async () => {} };
    let closing = false;
    let joined: (started: Promise<void>) => void = () => {};
    const joinedOnce = new Promise<Promise<void>>((resolve) => {
      joined = resolve;
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      forgetLag(member);
      member.assigned = new Map(
        Object.entries(payload.memberAssignment).map(([topic, partitions]) => [topic, partitions as number[]]),
      );
      joined(fromBeginning ? Promise.resolve() : recordStart(consumer, group, member.assigned));
    });
    // kafkajs restarts a consumer itself only after a retriable error; after any other
    // (librdkafka's mock coordinator refuses a follower's late SyncGroup as a malformed
    // request) it stops for good, so the adapter starts it again.
    let restarts = 0;
    let restartTimer: NodeJS.Timeout | undefined;
    const restart = (delay: number) => {
      restartTimer = setTimeout(async () => {
        restartTimer = undefined;
        if (crashed || closed || closing) return;
        try {
          await start();
          logger.info({ group, restarts }, 'kafka consumer started again');
        } catch (err) {
          const next = Math.min(delay * 2, settings.maxRetryDelayMs);
          logger.error({ err, group, retryInMs: next }, 'kafka consumer could not be started again; retrying');
          restart(next);
        }
      }, delay);
      restartTimer.unref();
    };
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (crashed || closed || closing) return;
      if (payload.restart) {
        logger.error({ err: payload.error, group }, 'kafka consumer failed; kafkajs restarts it');
        return;
      }
      restarts++;
      const delay = Math.min(settings.retryDelayMs * 2 ** Math.min(restarts - 1, 10), settings.maxRetryDelayMs);
      logger.error(
        { err: payload.error, group, restarts, retryInMs: delay },
        'kafka consumer stopped after an error; starting it again',
      );
      restart(delay);
    });

    const step = options.batchHandler ? Math.max(1, options.maxBatchSize ?? settings.batchSize) : 1;

    const eachBatch = async ({
      batch,
      resolveOffset,
      heartbeat,
      isRunning,
      isStale,
      commitOffsetsIfNecessary,
    }: EachBatchPayload) => {
      const { topic, partition } = batch;
      let lost = false;
      const stillOwned = () => !lost && !crashed && !closing && isRunning() && !isStale();
      // Waits between retries keep the member's session alive; a heartbeat refused because of a rebalance ends the batch.
      const wait = async (ms: number) => {
        const until = Date.now() + ms;
        while (stillOwned() && Date.now() < until) {
          await sleep(Math.min(until - Date.now(), settings.heartbeatInterval));
          try {
            await heartbeat();
          } catch {
            lost = true;
          }
        }
      };
      const ctx = {
        group,
        options,
        settings,
        logger,
        stillOwned,
        wait,
        crashed: () => crashed,
        problemOf: (m: BusMessage) => problems.get(m),
        deadLetter: async (letters: DeadLetter[]) => {
          for (const [dlq, messages] of byDeadLetterTopic(group, letters)) await publish(dlq, messages);
        },
      };
      const problems = new WeakMap<BusMessage, string>();
      const messages = batch.messages.map((m) => {
        const { msg, problem } = decode(topic, partition, m);
        if (problem) problems.set(msg, problem);
        return msg;
      });
      for (let i = 0; i < messages.length; i += step) {
        if (!stillOwned()) return;
        const slice = messages.slice(i, i + step);
        // A long handler (a batch of carrier purchases) keeps the session alive; a rebalance shows in isStale().
        const keepAlive = setInterval(() => void heartbeat().catch(() => {}), settings.heartbeatInterval);
        let done: boolean;
        try {
          done = await deliverChunk(ctx, slice);
        } finally {
          clearInterval(keepAlive);
        }
        if (!done) return;
        const last = slice[slice.length - 1]!.offset;
        const next = (BigInt(last) + 1n).toString();
        // A handler that finished while the consumer closes is still committed: the group is left only afterwards.
        const mayCommit = () => !lost && !crashed && !isStale();
        // The batch's own commit works while the consumer stops (consumer.commitOffsets is ignored by then).
        const write = () =>
          commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: next }] }] });
        if (!(await commit(write, topic, partition, mayCommit, stillOwned, wait))) return;
        if (!stillOwned()) return;
        resolveOffset(last);
        lag?.set(
          { group, topic, partition: String(partition) },
          Math.max(0, Number(BigInt(batch.highWatermark) - BigInt(next))),
        );
        try {
          await heartbeat();
        } catch {
          return;
        }
      }
    };

    const commit = async (
      write: () => Promise<void>,
      topic: string,
      partition: number,
      mayCommit: () => boolean,
      owned: () => boolean,
      wait: (ms: number) => Promise<void>,
    ): Promise<boolean> => {
      let delay = settings.retryDelayMs;
      for (let attempt = 1; ; attempt++) {
        // A member that lost the partition must not move the group's offset.
        if (!mayCommit()) return false;
        try {
          await write();
          return true;
        } catch (err) {
          if (crashed) return false;
          logger.warn({ err, group, topic, partition, attempt }, 'event bus offset commit failed; retrying');
        }
        // While the consumer stops, a commit that keeps failing is given up: the next owner handles the message again.
        const stopping = !owned();
        if (stopping && attempt >= 3) return false;
        // Otherwise the wait heartbeats, so a commit refused because of a rebalance ends the batch and lets the member rejoin.
        await (stopping ? sleep(delay) : wait(delay));
        delay = Math.min(delay * 2, settings.maxRetryDelayMs);
      }
    };

    const start = async () => {
      await consumer.connect();
      await consumer.subscribe({ topics, fromBeginning }).catch((err: unknown) => {
        throw isUnknownTopic(err) ? missingTopic(topics.join(', '), err) : err;
      });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: Math.max(1, options.concurrency ?? 1),
        eachBatch,
      });
    };
    const abandon = async () => {
      closing = true;
      clearTimeout(restartTimer);
      await consumer.disconnect().catch(() => {});
    };
    try {
      await start();
    } catch (err) {
      await abandon();
      throw err;
    }
    // Resolving only once the member has joined its group (and recorded where a new group
    // starts) means a subscription that is not consuming never looks ready.
    const joinWait = new AbortController();
    const inTime = await Promise.race([
      joinedOnce.then(async (started) => {
        await started;
        return true;
      }),
      sleep(joinTimeoutMs, joinWait.signal).then(() => false),
    ]);
    joinWait.abort();
    if (!inTime) {
      await abandon();
      throw new Error(
        `kafka consumer of group ${group} did not join the group within ${joinTimeoutMs} ms (topics ${topics.join(', ')})`,
      );
    }
    members.add(member);
    member.stopLag = startLagPolling(member);

    let closedOnce: Promise<void> | undefined;
    const close = (): Promise<void> => {
      closedOnce ??= (async () => {
        closing = true;
        clearTimeout(restartTimer);
        members.delete(member);
        member.stopLag();
        // The handler in flight finishes (and is committed if it still may be); then the group is left.
        const timeout = new AbortController();
        const finished = await Promise.race([
          consumer.disconnect().then(
            () => true,
            (err: unknown) => {
              logger.warn({ err, group }, 'kafka consumer did not close cleanly');
              return true;
            },
          ),
          sleep(settings.closeTimeoutMs, timeout.signal).then(() => false),
        ]);
        timeout.abort();
        if (!finished) logger.warn({ group }, 'a handler was still running when the consumer closed');
        forgetLag(member);
      })();
      return closedOnce;
    };
    member.close = close;
    return { close };
  };

  return {
    kind: 'kafka',
    publish,
    subscribe,
    async close() {
      if (closed) return;
      closed = true;
      const all = [...members];
      members.clear();
      await Promise.all(all.map((m) => m.close()));
      await producer.disconnect().catch(() => {});
      const a = await admin?.catch(() => undefined);
      await a?.disconnect().catch(() => {});
      for (const s of sockets) s.destroy();
    },
    async simulateCrash() {
      crashed = true;
      closed = true;
      for (const m of members) m.stopLag();
      members.clear();
      for (const s of sockets) s.destroy();
    },
  };
}
