import { Kafka, logLevel } from 'kafkajs';
import type { TopicDeclaration } from './topics';

export interface EnsureTopicsOptions {
  brokers: string[];
  topics: TopicDeclaration[];
  clientId?: string;
  /** Copies of each partition (default: 3, or fewer when the cluster has fewer brokers). */
  replicationFactor?: number;
  /** How long to keep trying to reach the cluster (default 60 s): the job may start before the brokers. */
  connectTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface EnsureTopicsResult {
  created: string[];
  existing: string[];
  /** Existing topics whose partition count differs from the declaration (left as they are). */
  mismatched: { name: string; declared: number; actual: number }[];
}

export class TopicJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TopicJobError';
  }
}

/**
 * Creates the declared topics that do not exist yet, with their partition
 * count and retention; existing topics are left alone (so running it again
 * changes nothing), and one whose partition count differs is reported.
 */
export async function ensureTopics(opts: EnsureTopicsOptions): Promise<EnsureTopicsResult> {
  const log = opts.log ?? (() => {});
  const kafka = new Kafka({
    clientId: opts.clientId ?? 'flatship-topics',
    brokers: opts.brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3000,
    retry: { retries: 0 },
  });
  const admin = kafka.admin();
  const deadline = Date.now() + (opts.connectTimeoutMs ?? 60_000);
  for (;;) {
    try {
      await admin.connect();
      break;
    } catch (err) {
      if (Date.now() >= deadline) {
        throw new TopicJobError(`cannot reach the Kafka brokers ${opts.brokers.join(',')}: ${(err as Error).message}`, {
          cause: err,
        });
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    const cluster = await admin.describeCluster();
    const replicationFactor = opts.replicationFactor ?? Math.min(3, cluster.brokers.length);
    const metadata = await admin.fetchTopicMetadata();
    const actual = new Map(metadata.topics.map((t) => [t.name, t.partitions.length]));
    const missing = opts.topics.filter((t) => !actual.has(t.name));
    const existing = opts.topics.filter((t) => actual.has(t.name));
    const mismatched = existing
      .filter((t) => actual.get(t.name) !== t.partitions)
      .map((t) => ({ name: t.name, declared: t.partitions, actual: actual.get(t.name)! }));
    for (const m of mismatched) {
      log(
        `topic ${m.name} has ${m.actual} partitions, ${m.declared} declared: left as it is (changing it would move keys between partitions)`,
      );
    }
    if (missing.length > 0) {
      try {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((t) => ({
            topic: t.name,
            numPartitions: t.partitions,
            replicationFactor,
            configEntries: [{ name: 'retention.ms', value: String(t.retentionMs) }],
          })),
        });
      } catch (err) {
        throw new TopicJobError(
          `could not create ${missing.map((t) => t.name).join(', ')}: ${(err as Error).message}`,
          { cause: err },
        );
      }
      // Another run may have created some of them meanwhile; either way they exist now.
      for (const t of missing) log(`created ${t.name} (${t.partitions} partitions, retention ${t.retentionMs} ms)`);
    }
    for (const t of existing) log(`${t.name} exists`);
    return { created: missing.map((t) => t.name), existing: existing.map((t) => t.name), mismatched };
  } finally {
    await admin.disconnect().catch(() => {});
  }
}
