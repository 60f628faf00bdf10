import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Gauge } from 'prom-client';
import { byDeadLetterTopic, deliverChunk } from './delivery';
import { sleep } from './pg-support';
import type { BusLogger, BusMessage, OutgoingMessage, SubscribeOptions } from './port';
import { execute, query } from './sql';

export interface MemberSettings {
  leaseTimeoutMs: number;
  heartbeatIntervalMs: number;
  pollIntervalMs: number;
  batchSize: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  joinTimeoutMs: number;
  closeTimeoutMs: number;
}

interface TopicPartition {
  topic: string;
  partition: number;
}

/** `releasing`: finish the message in hand, then give the lease back. `stopped`: the lease is gone or no longer ours. */
type WorkState = 'active' | 'releasing' | 'stopped';

class PartitionWork {
  state: WorkState = 'active';
  running = false;
  queued = false;
  /** A wake-up arrived while a batch was in progress: fetch again afterwards. */
  dirty = false;
  /** Batches that could not be read, in a row (the database away); sets the back-off before the next try. */
  failures = 0;
  current: Promise<void> | undefined;
  readonly abort = new AbortController();
  constructor(
    readonly topic: string,
    readonly partition: number,
    /** The next offset to fetch. */
    public position: bigint,
  ) {}
}

interface MessageRow {
  offset: string;
  key: string;
  value: unknown;
  headers: Record<string, string> | null;
  created_at: Date;
}

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/**
 * One member of a consumer group.
 *
 * Partitions are owned through lease rows that the heartbeat renews. Each
 * member aims at ceil(partitions / live members); a member over its share
 * hands partitions back (after the message in hand), a member under it claims
 * partitions whose lease is free or expired. A member that dies simply stops
 * renewing, and its partitions become claimable once the leases expire.
 *
 * Offsets are committed right after the handler resolves (one message at a
 * time, or past a whole batch for a batch handler), and only while this member still holds the partition's lease, so
 * a member that lost a partition can never move the group's offset.
 */
export class GroupMember {
  readonly id = randomUUID();
  readonly group: string;
  private readonly s: string;
  private readonly concurrency: number;
  private readonly owned = new Map<string, PartitionWork>();
  private readonly queue: PartitionWork[] = [];
  private active = 0;
  private closed = false;
  private crashed = false;
  private readonly abort = new AbortController();
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private maintenance: Promise<void> = Promise.resolve();
  private rebalancePending = false;
  private lastQuota = 0;
  /** Aborted (and replaced) when the database is known to be back, to end every back-off early. */
  private databaseBack = new AbortController();

  constructor(
    private readonly deps: {
      db: Knex;
      schema: string;
      settings: MemberSettings;
      logger: BusLogger;
      options: SubscribeOptions;
      partitions: TopicPartition[];
      notifyGroup(group: string): Promise<void>;
      /** For dead letters (`<topic>.dlq`). */
      publish(topic: string, messages: OutgoingMessage[]): Promise<void>;
      lag?: Gauge<'group' | 'topic' | 'partition'> | undefined;
    },
  ) {
    this.group = deps.options.group;
    this.s = `"${deps.schema}"`;
    this.concurrency = Math.max(1, deps.options.concurrency ?? 1);
  }

  private get db() {
    return this.deps.db;
  }

  private get settings() {
    return this.deps.settings;
  }

  private leaseInterval(): number {
    return this.settings.leaseTimeoutMs;
  }

  async start(): Promise<void> {
    await this.runExclusive(() => this.heartbeat(), true);
    await this.deps.notifyGroup(this.group);
    // Wait, boundedly, for the members already there to hand over this member's share, so a caller that
    // publishes right after subscribing sees the work spread over the group.
    const deadline = Date.now() + this.settings.joinTimeoutMs;
    for (;;) {
      await this.runExclusive(() => this.rebalance(), true);
      if (this.activeCount() >= this.lastQuota || Date.now() >= deadline || this.closed) break;
      await sleep(Math.min(25, this.settings.pollIntervalMs), this.abort.signal);
    }
    this.scheduleHeartbeat();
    this.schedulePoll();
  }

  wakePartition(topic: string, partition: number): void {
    const work = this.owned.get(keyOf(topic, partition));
    if (work) this.wake(work);
  }

  wakeAll(): void {
    for (const work of this.owned.values()) this.wake(work);
  }

  /**
   * The LISTEN connection came back after a drop, so the database is reachable
   * again: renew membership and leases now (they may have expired meanwhile),
   * rebalance, cut every retry back-off short and re-read every partition.
   * Notifications sent while it was away are lost; this re-check covers them.
   */
  reconnected(): void {
    if (this.closed) return;
    this.databaseBack.abort();
    this.databaseBack = new AbortController();
    void this.runExclusive(async () => {
      await this.heartbeat();
      await this.rebalance();
    });
    this.wakeAll();
  }

  /** A back-off that ends early when the partition is given up or the database comes back. */
  private backOff(work: PartitionWork, ms: number): Promise<void> {
    return sleep(ms, AbortSignal.any([work.abort.signal, this.databaseBack.signal]));
  }

  private delayAfter(failures: number): number {
    const { retryDelayMs, maxRetryDelayMs } = this.settings;
    return Math.min(retryDelayMs * 2 ** Math.min(failures - 1, 20), maxRetryDelayMs);
  }

  requestRebalance(): void {
    if (this.rebalancePending || this.closed) return;
    this.rebalancePending = true;
    void this.runExclusive(async () => {
      this.rebalancePending = false;
      await this.rebalance();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.heartbeatTimer);
    clearTimeout(this.pollTimer);
    const works = [...this.owned.values()];
    for (const w of works) {
      if (w.state === 'active') w.state = 'releasing';
      w.abort.abort();
    }
    const inFlight = works.map((w) => w.current).filter((p): p is Promise<void> => p !== undefined);
    if (inFlight.length > 0) {
      const timeout = new AbortController();
      await Promise.race([Promise.all(inFlight), sleep(this.settings.closeTimeoutMs, timeout.signal)]);
      timeout.abort();
    }
    this.abort.abort();
    for (const w of works) this.stop(w);
    await this.maintenance;
    try {
      await execute(this.db, `delete from ${this.s}.leases where group_id = ? and member_id = ?`, [
        this.group,
        this.id,
      ]);
      await execute(this.db, `delete from ${this.s}.members where group_id = ? and member_id = ?`, [
        this.group,
        this.id,
      ]);
      await this.deps.notifyGroup(this.group);
    } catch (err) {
      // The leases then simply expire; the group carries on after the lease timeout.
      this.deps.logger.warn({ err, group: this.group }, 'event bus member could not release its partitions');
    }
  }

  /** Stops at once without touching the database. */
  crash(): void {
    this.closed = true;
    this.crashed = true;
    clearTimeout(this.heartbeatTimer);
    clearTimeout(this.pollTimer);
    this.abort.abort();
    for (const w of this.owned.values()) {
      w.state = 'stopped';
      w.abort.abort();
    }
    this.owned.clear();
    this.queue.length = 0;
  }

  // --- maintenance: heartbeat and rebalance never run concurrently, so neither sees the other's half-done work

  private runExclusive(fn: () => Promise<void>, rethrow = false): Promise<void> {
    const next = this.maintenance.then(async () => {
      if (this.closed) return;
      try {
        await fn();
      } catch (err) {
        if (rethrow) throw err;
        if (!this.crashed) this.deps.logger.error({ err, group: this.group }, 'event bus group maintenance failed');
      }
    });
    // The chain itself must never stay rejected, or every later step would be skipped.
    this.maintenance = next.catch(() => {});
    return next;
  }

  private scheduleHeartbeat(): void {
    if (this.closed) return;
    this.heartbeatTimer = setTimeout(async () => {
      await this.runExclusive(async () => {
        await this.heartbeat();
        await this.rebalance();
      });
      this.scheduleHeartbeat();
    }, this.settings.heartbeatIntervalMs);
  }

  private schedulePoll(): void {
    if (this.closed) return;
    this.pollTimer = setTimeout(async () => {
      await this.wakeBehind();
      this.schedulePoll();
    }, this.settings.pollIntervalMs);
  }

  /**
   * The poll that covers a lost notification: one query for the head of every partition this member reads, and only
   * those with messages past its position are read. Reading each partition instead would take a connection per
   * partition every poll, all at once, and an idle process would keep that many PostgreSQL backends.
   */
  private async wakeBehind(): Promise<void> {
    const held = [...this.owned.values()].filter((w) => w.state === 'active');
    if (held.length === 0) return;
    let heads: { topic: string; partition: number; next_offset: string }[];
    try {
      heads = await query(
        this.db,
        `select topic, partition, next_offset from ${this.s}.partitions
         where (topic, partition) in (select * from unnest(?::text[], ?::int[]))`,
        [held.map((w) => w.topic), held.map((w) => w.partition)],
      );
    } catch {
      // Each partition's own read reports the database's trouble and backs off.
      this.wakeAll();
      return;
    }
    for (const head of heads) {
      const work = this.owned.get(keyOf(head.topic, head.partition));
      if (work && BigInt(head.next_offset) > work.position) this.wake(work);
    }
  }

  private async heartbeat(): Promise<void> {
    const interval = this.leaseInterval();
    await execute(
      this.db,
      `insert into ${this.s}.members (group_id, member_id, expires_at)
       values (?, ?, now() + ? * interval '1 millisecond')
       on conflict (group_id, member_id) do update set expires_at = excluded.expires_at`,
      [this.group, this.id, interval],
    );
    const renewed = await query<TopicPartition>(
      this.db,
      `update ${this.s}.leases set expires_at = now() + ? * interval '1 millisecond'
       where group_id = ? and member_id = ? returning topic, partition`,
      [interval, this.group, this.id],
    );
    const held = new Set(renewed.map((r) => keyOf(r.topic, r.partition)));
    for (const [key, work] of this.owned) {
      if (!held.has(key)) {
        this.deps.logger.warn(
          { group: this.group, topic: work.topic, partition: work.partition },
          'event bus member lost a partition lease',
        );
        this.stop(work);
      }
    }
    await this.recordLag();
    // Members that died long ago would otherwise stay in the table forever.
    await execute(
      this.db,
      `delete from ${this.s}.members where group_id = ? and expires_at < now() - ? * interval '1 millisecond'`,
      [this.group, interval * 10],
    );
  }

  /** Messages past the committed offset of every partition this member holds, for the lag gauge. */
  private async recordLag(): Promise<void> {
    const lag = this.deps.lag;
    if (!lag || this.owned.size === 0) return;
    const rows = await query<{ topic: string; partition: number; lag: string }>(
      this.db,
      `select p.topic, p.partition, greatest(p.next_offset - coalesce(o.next_offset, 0), 0) as lag
       from ${this.s}.leases l
       join ${this.s}.partitions p on p.topic = l.topic and p.partition = l.partition
       left join ${this.s}.offsets o on o.group_id = l.group_id and o.topic = l.topic and o.partition = l.partition
       where l.group_id = ? and l.member_id = ?`,
      [this.group, this.id],
    );
    for (const r of rows) lag.set({ group: this.group, topic: r.topic, partition: String(r.partition) }, Number(r.lag));
  }

  private forgetLag(work: PartitionWork): void {
    this.deps.lag?.remove({ group: this.group, topic: work.topic, partition: String(work.partition) });
  }

  private activeCount(): number {
    let n = 0;
    for (const w of this.owned.values()) if (w.state === 'active') n++;
    return n;
  }

  private async rebalance(): Promise<void> {
    const [live] = await query<{ n: number }>(
      this.db,
      `select count(*)::int as n from ${this.s}.members where group_id = ? and expires_at > now()`,
      [this.group],
    );
    const all = this.deps.partitions;
    const quota = Math.ceil(all.length / Math.max(1, live?.n ?? 1));
    this.lastQuota = quota;
    const mine = [...this.owned.values()].filter((w) => w.state === 'active');
    if (mine.length > quota) {
      // Idle partitions first: they can be handed over without waiting for a handler.
      mine.sort((a, b) => Number(a.running) - Number(b.running));
      for (const w of mine.slice(0, mine.length - quota)) this.release(w);
      return;
    }
    if (mine.length === quota) return;
    const taken = await query<TopicPartition>(
      this.db,
      `select topic, partition from ${this.s}.leases where group_id = ? and expires_at > now()`,
      [this.group],
    );
    const busy = new Set([...taken.map((r) => keyOf(r.topic, r.partition)), ...this.owned.keys()]);
    const free = all.filter((p) => !busy.has(keyOf(p.topic, p.partition)));
    // Random picks keep members that join together from all racing for the same partitions.
    for (let i = free.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [free[i], free[j]] = [free[j]!, free[i]!];
    }
    const wanted = free.slice(0, quota - mine.length);
    if (wanted.length === 0) return;
    const claimed = await query<TopicPartition>(
      this.db,
      `insert into ${this.s}.leases as l (group_id, topic, partition, member_id, expires_at)
       select ?, t.topic, t.partition, ?, now() + ? * interval '1 millisecond'
       from unnest(?::text[], ?::int[]) as t(topic, partition)
       on conflict (group_id, topic, partition) do update
         set member_id = excluded.member_id, expires_at = excluded.expires_at
         where l.expires_at <= now()
       returning topic, partition`,
      [this.group, this.id, this.leaseInterval(), wanted.map((p) => p.topic), wanted.map((p) => p.partition)],
    );
    for (const c of claimed) {
      const position = await this.startingOffset(c.topic, c.partition);
      const work = new PartitionWork(c.topic, c.partition, position);
      this.owned.set(keyOf(c.topic, c.partition), work);
      this.wake(work);
    }
    if (claimed.length > 0) await this.recordLag();
  }

  private async startingOffset(topic: string, partition: number): Promise<bigint> {
    // The starting point is stored at once so that a later member of a group that starts "at the end"
    // does not skip what was published in between.
    await execute(
      this.db,
      `insert into ${this.s}.offsets (group_id, topic, partition, next_offset)
       select ?, p.topic, p.partition, case when ? then 0 else p.next_offset end
       from ${this.s}.partitions p where p.topic = ? and p.partition = ?
       on conflict do nothing`,
      [this.group, this.deps.options.fromBeginning ?? true, topic, partition],
    );
    const [row] = await query<{ next_offset: string }>(
      this.db,
      `select next_offset from ${this.s}.offsets where group_id = ? and topic = ? and partition = ?`,
      [this.group, topic, partition],
    );
    return BigInt(row?.next_offset ?? 0);
  }

  private release(work: PartitionWork): void {
    work.state = 'releasing';
    // Ends a retry back-off early; the handler in flight, if any, still finishes and is committed.
    work.abort.abort();
    if (!work.running) void this.finishRelease(work);
  }

  private async finishRelease(work: PartitionWork): Promise<void> {
    this.stop(work);
    if (this.closed) return;
    try {
      await execute(
        this.db,
        `delete from ${this.s}.leases where group_id = ? and topic = ? and partition = ? and member_id = ?`,
        [this.group, work.topic, work.partition, this.id],
      );
      await this.deps.notifyGroup(this.group);
    } catch (err) {
      this.deps.logger.warn({ err, group: this.group }, 'event bus member could not hand over a partition');
    }
  }

  private stop(work: PartitionWork): void {
    this.forgetLag(work);
    work.state = 'stopped';
    work.abort.abort();
    const key = keyOf(work.topic, work.partition);
    if (this.owned.get(key) === work) this.owned.delete(key);
  }

  // --- processing

  private wake(work: PartitionWork): void {
    if (work.state !== 'active' || this.closed) return;
    if (work.running) {
      work.dirty = true;
      return;
    }
    if (!work.queued) {
      work.queued = true;
      this.queue.push(work);
    }
    this.pump();
  }

  private pump(): void {
    while (this.active < this.concurrency && this.queue.length > 0) {
      const work = this.queue.shift()!;
      work.queued = false;
      if (work.state !== 'active' || work.running) continue;
      this.run(work);
    }
  }

  private run(work: PartitionWork): void {
    work.running = true;
    work.dirty = false;
    this.active++;
    work.current = (async () => {
      let more = false;
      try {
        more = await this.processBatch(work);
        work.failures = 0;
      } catch (err) {
        if (this.crashed) return;
        // Doubling back-off: a database that is down is not hammered, nor the log flooded, by every partition.
        work.failures++;
        const retryInMs = this.delayAfter(work.failures);
        this.deps.logger.error(
          { err, group: this.group, topic: work.topic, partition: work.partition, attempt: work.failures, retryInMs },
          'event bus consumer failed to read or commit; retrying',
        );
        await this.backOff(work, retryInMs);
        more = true;
      } finally {
        work.running = false;
        work.current = undefined;
        this.active--;
      }
      if (work.state === 'releasing' && !this.closed) await this.finishRelease(work);
      else if (more || work.dirty) this.wake(work);
      this.pump();
    })();
  }

  /** Handles one batch; returns true when more messages may be waiting. */
  private async processBatch(work: PartitionWork): Promise<boolean> {
    const { batchHandler } = this.deps.options;
    // A batch handler asking for more than the fetch size gets it: one read per batch.
    const limit = batchHandler
      ? Math.max(this.settings.batchSize, this.deps.options.maxBatchSize ?? 0)
      : this.settings.batchSize;
    const rows = await query<MessageRow>(
      this.db,
      `select "offset", key, value, headers, created_at from ${this.s}.messages
       where topic = ? and partition = ? and "offset" >= ? order by "offset" limit ?`,
      [work.topic, work.partition, work.position.toString(), limit],
    );
    const messages = rows.map(
      (row): BusMessage => ({
        topic: work.topic,
        partition: work.partition,
        offset: row.offset,
        key: row.key,
        value: row.value,
        headers: row.headers ?? {},
        timestamp: row.created_at,
      }),
    );
    const step = batchHandler ? Math.max(1, this.deps.options.maxBatchSize ?? this.settings.batchSize) : 1;
    for (let i = 0; i < messages.length; i += step) {
      if (work.state !== 'active') return false;
      const slice = messages.slice(i, i + step);
      const ok = await this.deliver(work, slice);
      if (!ok || this.crashed) return false;
      const next = BigInt(slice[slice.length - 1]!.offset) + 1n;
      if (!(await this.commit(work, next))) return false;
      work.position = next;
    }
    return rows.length === limit;
  }

  /**
   * Hands a chunk to the handler until it succeeds or the message is dead-lettered (retry limit, schema);
   * false when the partition is being given up instead.
   */
  private deliver(work: PartitionWork, slice: BusMessage[]): Promise<boolean> {
    return deliverChunk(
      {
        group: this.group,
        options: this.deps.options,
        settings: this.settings,
        logger: this.deps.logger,
        // A partition being handed over stops retrying: the next owner starts again from the committed offset.
        stillOwned: () => work.state === 'active' && !this.crashed,
        wait: (ms) => this.backOff(work, ms),
        crashed: () => this.crashed,
        deadLetter: async (letters) => {
          for (const [topic, messages] of byDeadLetterTopic(this.group, letters))
            await this.deps.publish(topic, messages);
        },
      },
      slice,
    );
  }

  /** Commits only while the lease is still ours; false (and the partition is dropped) otherwise. */
  private async commit(work: PartitionWork, next: bigint): Promise<boolean> {
    let delay = this.settings.retryDelayMs;
    for (;;) {
      try {
        const n = await execute(
          this.db,
          `update ${this.s}.offsets o set next_offset = ?, updated_at = now()
           where o.group_id = ? and o.topic = ? and o.partition = ? and o.next_offset < ?
             and exists (select 1 from ${this.s}.leases l
                         where l.group_id = o.group_id and l.topic = o.topic and l.partition = o.partition
                           and l.member_id = ?)`,
          [next.toString(), this.group, work.topic, work.partition, next.toString(), this.id],
        );
        if (n === 1) return true;
        this.deps.logger.warn(
          { group: this.group, topic: work.topic, partition: work.partition },
          'event bus member no longer owns a partition; dropping it',
        );
        this.stop(work);
        return false;
      } catch (err) {
        if (this.crashed) return false;
        this.deps.logger.error({ err, group: this.group }, 'event bus offset commit failed; retrying');
        if (work.abort.signal.aborted) return false;
        await this.backOff(work, delay);
        delay = Math.min(delay * 2, this.settings.maxRetryDelayMs);
      }
    }
  }
}
