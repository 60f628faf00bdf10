import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import { GroupMember, type MemberSettings } from './group-member';
import { consumerLagGauge } from './lag';
import { partitionFor } from './partitioner';
import { checkSchemaName, clientConfigFor, fallbackLogger, type Listener, startListener } from './pg-support';
import type { BusLogger, EventBus, OutgoingMessage, SubscribeOptions, Subscription } from './port';
import { execute, query } from './sql';

export interface PostgresBusOptions {
  /** The database holding the bus schema (created by `migrateBus`). The bus never destroys this instance. */
  db: Knex;
  /** Default `bus`. */
  schema?: string;
  /** Partition count for topics this process creates on first use: one number, or per topic (default 4). */
  partitions?: number | Record<string, number>;
  /** For the LISTEN connection; by default it is derived from the knex connection settings. */
  connectionString?: string;
  logger?: BusLogger;
  /** A member that stops heartbeating loses its partitions after this long (default 10 s). */
  leaseTimeoutMs?: number;
  /** Default a third of the lease timeout. */
  heartbeatIntervalMs?: number;
  /** Fallback for missed notifications (default 1 s). */
  pollIntervalMs?: number;
  /** Messages fetched per partition per round (default 100). */
  batchSize?: number;
  /** First wait before retrying a failed handler; doubles up to `maxRetryDelayMs` (defaults 200 ms and 10 s). */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** How long `subscribe` waits for other members to hand over this member's share (default 3 s). */
  joinTimeoutMs?: number;
  /** How long closing waits for handlers in flight before giving up their partitions anyway (default: lease timeout). */
  closeTimeoutMs?: number;
  /** Registers `flatship_bus_consumer_lag{group,topic,partition}` here (updated with every heartbeat). */
  metrics?: Registry;
}

export interface LogEntry {
  topic: string;
  message: OutgoingMessage;
}

export interface PostgresBus extends EventBus {
  readonly schema: string;
  /**
   * Appends to the log inside the caller's transaction: the messages become
   * visible, and consumers are notified, only if that transaction commits.
   */
  publishInTransaction(trx: Knex.Transaction, entries: LogEntry[]): Promise<void>;
  /** A random id stored in the bus schema, to tell whether another knex instance reaches the same database. */
  instanceId(): Promise<string>;
  /**
   * Test hook: stops every loop and drops the LISTEN connection at once, as
   * a killed process would, without committing offsets or releasing leases.
   * The caller then destroys its knex instance.
   */
  simulateCrash(): Promise<void>;
}

const DEFAULT_PARTITIONS = 4;

export function isPostgresBus(bus: EventBus): bus is PostgresBus {
  const candidate = bus as Partial<PostgresBus>;
  return typeof candidate.publishInTransaction === 'function' && typeof candidate.instanceId === 'function';
}

export function createPostgresBus(opts: PostgresBusOptions): PostgresBus {
  const schema = checkSchemaName(opts.schema ?? 'bus');
  const s = `"${schema}"`;
  const db = opts.db;
  const logger = opts.logger ?? fallbackLogger;
  const leaseTimeoutMs = opts.leaseTimeoutMs ?? 10_000;
  const settings: MemberSettings = {
    leaseTimeoutMs,
    heartbeatIntervalMs: opts.heartbeatIntervalMs ?? Math.max(10, Math.floor(leaseTimeoutMs / 3)),
    pollIntervalMs: opts.pollIntervalMs ?? 1000,
    batchSize: opts.batchSize ?? 100,
    retryDelayMs: opts.retryDelayMs ?? 200,
    maxRetryDelayMs: opts.maxRetryDelayMs ?? 10_000,
    joinTimeoutMs: opts.joinTimeoutMs ?? 3000,
    closeTimeoutMs: opts.closeTimeoutMs ?? leaseTimeoutMs,
  };
  const lag = consumerLagGauge(opts.metrics);
  const messagesChannel = `${schema}.messages`;
  const groupsChannel = `${schema}.groups`;

  const partitionCounts = new Map<string, number>();
  const members = new Set<GroupMember>();
  let listener: Promise<Listener> | undefined;
  let closed = false;
  let cachedInstanceId: string | undefined;

  const configuredPartitions = (topic: string): number => {
    const p = opts.partitions;
    const n = typeof p === 'number' ? p : (p?.[topic] ?? DEFAULT_PARTITIONS);
    if (!Number.isInteger(n) || n < 1) throw new Error(`invalid partition count ${n} for topic ${topic}`);
    return n;
  };

  // A topic's partition count is fixed by whichever process creates it first: changing it would move keys between partitions.
  const ensureTopic = async (conn: Knex | Knex.Transaction, topic: string): Promise<number> => {
    await execute(conn, `insert into ${s}.topics (topic, partitions) values (?, ?) on conflict do nothing`, [
      topic,
      configuredPartitions(topic),
    ]);
    const [row] = await query<{ partitions: number }>(conn, `select partitions from ${s}.topics where topic = ?`, [
      topic,
    ]);
    const count = row!.partitions;
    await execute(
      conn,
      `insert into ${s}.partitions (topic, partition) select ?, g from generate_series(0, ?::int - 1) g on conflict do nothing`,
      [topic, count],
    );
    partitionCounts.set(topic, count);
    return count;
  };

  const partitionCount = async (conn: Knex | Knex.Transaction, topic: string): Promise<number> =>
    partitionCounts.get(topic) ?? ensureTopic(conn, topic);

  const publishInTransaction = async (trx: Knex.Transaction, entries: LogEntry[]): Promise<void> => {
    if (closed) throw new Error('event bus is closed');
    if (entries.length === 0) return;
    const groups = new Map<string, { topic: string; partition: number; messages: OutgoingMessage[] }>();
    for (const { topic, message } of entries) {
      const partition = partitionFor(message.key, await partitionCount(trx, topic));
      const id = `${topic}\u0000${partition}`;
      let group = groups.get(id);
      if (!group) {
        group = { topic, partition, messages: [] };
        groups.set(id, group);
      }
      group.messages.push(message);
    }
    // Every publisher locks partition rows in the same order, so two transactions spanning several partitions cannot deadlock.
    const ordered = [...groups.values()].sort((a, b) =>
      a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1,
    );
    const cols = {
      topic: [] as string[],
      partition: [] as number[],
      offset: [] as string[],
      key: [] as string[],
      value: [] as string[],
      headers: [] as string[],
    };
    const wakeUps: string[] = [];
    for (const g of ordered) {
      const reserve = () =>
        query<{ next_offset: string }>(
          trx,
          `update ${s}.partitions set next_offset = next_offset + ? where topic = ? and partition = ? returning next_offset`,
          [g.messages.length, g.topic, g.partition],
        );
      let rows = await reserve();
      if (rows.length === 0) {
        // The cached count came from a transaction that rolled back, so the topic rows may be missing.
        await ensureTopic(trx, g.topic);
        rows = await reserve();
      }
      if (rows.length === 0) throw new Error(`topic ${g.topic} has no partition ${g.partition}`);
      let offset = BigInt(rows[0]!.next_offset) - BigInt(g.messages.length);
      for (const m of g.messages) {
        cols.topic.push(g.topic);
        cols.partition.push(g.partition);
        cols.offset.push(offset.toString());
        cols.key.push(m.key);
        cols.value.push(JSON.stringify(m.value ?? null));
        cols.headers.push(JSON.stringify(m.headers ?? {}));
        offset++;
      }
      wakeUps.push(`${g.partition}:${g.topic}`);
    }
    await execute(
      trx,
      `insert into ${s}.messages (topic, partition, "offset", key, value, headers)
       select * from unnest(?::text[], ?::int[], ?::bigint[], ?::text[], ?::jsonb[], ?::jsonb[])`,
      [cols.topic, cols.partition, cols.offset, cols.key, cols.value, cols.headers],
    );
    // NOTIFY inside the transaction is delivered on commit, never for a rollback.
    await query(trx, 'select pg_notify(?, w) from unnest(?::text[]) w', [messagesChannel, wakeUps]);
  };

  const getListener = (): Promise<Listener> => {
    listener ??= (async () =>
      startListener({
        config: await clientConfigFor(db, opts.connectionString),
        channels: [messagesChannel, groupsChannel],
        logger,
        retryMs: Math.min(settings.pollIntervalMs, 1000),
        onNotification(channel, payload) {
          if (channel === messagesChannel) {
            const colon = payload.indexOf(':');
            const partition = Number(payload.slice(0, colon));
            const topic = payload.slice(colon + 1);
            for (const m of members) m.wakePartition(topic, partition);
          } else if (channel === groupsChannel) {
            for (const m of members) if (m.group === payload) m.requestRebalance();
          }
        },
        onReconnect() {
          for (const m of members) m.reconnected();
        },
      }))();
    // A failed first connection must not stay cached as a rejected promise.
    listener.catch(() => {
      listener = undefined;
    });
    return listener;
  };

  const publish = async (topic: string, messages: OutgoingMessage[]): Promise<void> => {
    if (messages.length === 0) return;
    await db.transaction((trx) =>
      publishInTransaction(
        trx,
        messages.map((message) => ({ topic, message })),
      ),
    );
  };

  return {
    schema,

    publish,

    publishInTransaction,

    async subscribe(subscribeOpts: SubscribeOptions): Promise<Subscription> {
      if (closed) throw new Error('event bus is closed');
      if (subscribeOpts.topics.length === 0) throw new Error('subscribe needs at least one topic');
      if (!subscribeOpts.handler === !subscribeOpts.batchHandler) {
        throw new Error('subscribe needs exactly one of handler and batchHandler');
      }
      await getListener();
      const partitions: { topic: string; partition: number }[] = [];
      for (const topic of new Set(subscribeOpts.topics)) {
        const count = await partitionCount(db, topic);
        for (let p = 0; p < count; p++) partitions.push({ topic, partition: p });
      }
      const member = new GroupMember({
        db,
        schema,
        settings,
        logger,
        options: subscribeOpts,
        partitions,
        lag,
        publish: (topic, messages) => publish(topic, messages),
        notifyGroup: async (group) => {
          await query(db, 'select pg_notify(?, ?)', [groupsChannel, group]);
        },
      });
      members.add(member);
      try {
        await member.start();
      } catch (err) {
        members.delete(member);
        await member.close();
        throw err;
      }
      return {
        async close() {
          members.delete(member);
          await member.close();
        },
      };
    },

    async instanceId() {
      if (!cachedInstanceId) {
        const [row] = await query<{ value: string }>(db, `select value from ${s}.meta where key = 'instance'`);
        if (!row) throw new Error(`bus schema ${schema} has no instance id; run migrateBus`);
        cachedInstanceId = row.value;
      }
      return cachedInstanceId;
    },

    async close() {
      if (closed) return;
      closed = true;
      const all = [...members];
      members.clear();
      await Promise.all(all.map((m) => m.close()));
      const l = await listener?.catch(() => undefined);
      await l?.close();
    },

    async simulateCrash() {
      closed = true;
      for (const m of members) m.crash();
      members.clear();
      const l = await listener?.catch(() => undefined);
      l?.destroy();
    },
  };
}
