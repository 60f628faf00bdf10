import type { Knex } from 'knex';
import { isDatabaseUnavailable } from '../db-basics';
import { currentRequestId, REQUEST_ID_HEADER } from '../request-context';
import { checkSchemaName, clientConfigFor, fallbackLogger, type Listener, startListener } from './pg-support';
import type { BusLogger, EventBus, Outbox, OutgoingMessage } from './port';
import { isPostgresBus, type LogEntry } from './postgres-bus';
import { execute, query } from './sql';

export interface OutboxOptions {
  /** The service's database; the outbox table is `<schema>.outbox` (see `migrateOutbox`). */
  db: Knex;
  schema: string;
  bus: EventBus;
  logger?: BusLogger;
  /** Fallback for missed notifications (default 1 s). */
  pollIntervalMs?: number;
  /** Rows relayed per transaction (default 100). */
  batchSize?: number;
  /** For the LISTEN connection; by default derived from the knex connection settings. */
  connectionString?: string;
}

/** The outbox as its service's composition root sees it: which schema it is, and how many rows wait. */
export interface RelayedOutbox extends Outbox {
  readonly schema: string;
  /** Rows recorded and not relayed yet (the `flatship_outbox_depth` gauge). */
  depth(): Promise<number>;
}

interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  value: unknown;
  headers: Record<string, string> | null;
}

/**
 * Relays rows in id order under a per-schema advisory lock: with several
 * replicas relaying at once, rows of one key could otherwise be published out
 * of order by two relays working on neighbouring batches.
 *
 * When the bus is the postgres adapter on this same database, the log append
 * and the outbox delete share one transaction, so each row reaches the log
 * exactly once. With any other bus the row is published, then deleted: a crash
 * in between publishes it again on the next run (at-least-once).
 */
export function createOutbox(opts: OutboxOptions): RelayedOutbox {
  const schema = checkSchemaName(opts.schema);
  const table = `"${schema}".outbox`;
  const channel = `${schema}.outbox`;
  const logger = opts.logger ?? fallbackLogger;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const batchSize = opts.batchSize ?? 100;
  const { db, bus } = opts;
  let sameDatabase: Promise<boolean> | undefined;
  let flushing: Promise<unknown> = Promise.resolve();

  const detectSameDatabase = async (): Promise<boolean> => {
    if (!isPostgresBus(bus)) return false;
    try {
      const [row] = await query<{ value: string }>(db, `select value from "${bus.schema}".meta where key = 'instance'`);
      return row !== undefined && row.value === (await bus.instanceId());
    } catch (err) {
      // An unreachable database says nothing about which database it is: the caller asks again next time.
      if (isDatabaseUnavailable(err)) throw err;
      return false;
    }
  };

  const relayBatch = async (): Promise<number> => {
    sameDatabase ??= detectSameDatabase();
    let transactional: boolean;
    try {
      transactional = await sameDatabase;
    } catch (err) {
      sameDatabase = undefined;
      throw err;
    }
    return db.transaction(async (trx) => {
      await query(trx, 'select pg_advisory_xact_lock(hashtext(?))', [`flatship.outbox.relay:${schema}`]);
      const rows = await query<OutboxRow>(
        trx,
        `select id, topic, key, value, headers from ${table} order by id limit ? for update skip locked`,
        [batchSize],
      );
      if (rows.length === 0) return 0;
      const entries: LogEntry[] = rows.map((r) => ({
        topic: r.topic,
        message: { key: r.key, value: r.value, headers: r.headers ?? {} },
      }));
      if (transactional && isPostgresBus(bus)) {
        await bus.publishInTransaction(trx, entries);
      } else {
        // Consecutive rows of one topic go in one call; the order between calls follows the ids.
        let i = 0;
        while (i < entries.length) {
          const topic = entries[i]!.topic;
          const messages: OutgoingMessage[] = [];
          while (i < entries.length && entries[i]!.topic === topic) messages.push(entries[i++]!.message);
          await bus.publish(topic, messages);
        }
      }
      await execute(trx, `delete from ${table} where id = any(?::bigint[])`, [rows.map((r) => r.id)]);
      return rows.length;
    });
  };

  const flush = (): Promise<number> => {
    const run = flushing.then(async () => {
      let total = 0;
      for (;;) {
        const n = await relayBatch();
        total += n;
        if (n < batchSize) return total;
      }
    });
    flushing = run.catch(() => {});
    return run;
  };

  return {
    schema,

    async depth() {
      const [row] = await query<{ n: string }>(db, `select count(*) as n from ${table}`);
      return Number(row?.n ?? 0);
    },

    async add(trx, topic, messages) {
      if (messages.length === 0) return;
      // Events recorded while handling a request carry its id, so the consumer's log lines can be tied to it.
      const requestId = currentRequestId();
      const headersOf = (m: OutgoingMessage) =>
        requestId && !m.headers?.[REQUEST_ID_HEADER]
          ? { ...m.headers, [REQUEST_ID_HEADER]: requestId }
          : (m.headers ?? {});
      await execute(
        trx,
        `insert into ${table} (topic, key, value, headers)
         select ?, k, v, h from unnest(?::text[], ?::jsonb[], ?::jsonb[]) as t(k, v, h)`,
        [
          topic,
          messages.map((m) => m.key),
          messages.map((m) => JSON.stringify(m.value ?? null)),
          messages.map((m) => JSON.stringify(headersOf(m))),
        ],
      );
      // Delivered when the caller commits, never for a rollback.
      await query(trx, 'select pg_notify(?, ?)', [channel, '']);
    },

    flush,

    async startRelay() {
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<void> | undefined;
      let again = false;

      const kick = (): void => {
        if (stopped) return;
        if (running) {
          again = true;
          return;
        }
        running = (async () => {
          do {
            again = false;
            try {
              await flush();
            } catch (err) {
              // The rows stay in the table; the next poll tries again.
              logger.error({ err, schema }, 'outbox relay failed');
            }
          } while (again && !stopped);
          running = undefined;
        })();
      };

      const poll = (): void => {
        timer = setTimeout(() => {
          kick();
          if (!stopped) poll();
        }, pollIntervalMs);
      };

      const listener: Listener = await startListener({
        config: await clientConfigFor(db, opts.connectionString),
        channels: [channel],
        logger,
        retryMs: Math.min(pollIntervalMs, 1000),
        onNotification: kick,
        onReconnect: kick,
      });
      // Rows left behind by a relay that died are relayed now, not at the next notification.
      kick();
      poll();

      return async () => {
        stopped = true;
        clearTimeout(timer);
        await listener.close();
        await running;
      };
    },
  };
}
