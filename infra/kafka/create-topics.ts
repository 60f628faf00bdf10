/**
 * The topic job: creates every declared Kafka topic (infra/kafka/topics.ts)
 * and its dead-letter topic, idempotently. Reads KAFKA_BROKERS (required),
 * KAFKA_REPLICATION_FACTOR and LABEL_REQUESTED_PARTITIONS (optional); exits 0
 * once every topic exists, 1 with the reason otherwise.
 */
import { declaredTopics } from './topics';
import { ensureTopics } from './topics-job';

const fail = (message: string): never => {
  process.stderr.write(`create-topics: ${message}\n`);
  process.exit(1);
};

const positive = (name: string): number | undefined => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    fail(`${name}=${JSON.stringify(raw)} is invalid: expected a whole number of at least 1`);
  return n;
};

const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
if (brokers.length === 0)
  fail('KAFKA_BROKERS is required: list the bootstrap brokers as host:port separated by commas');

try {
  const replicationFactor = positive('KAFKA_REPLICATION_FACTOR');
  const labelRequestedPartitions = positive('LABEL_REQUESTED_PARTITIONS');
  const result = await ensureTopics({
    brokers,
    topics: declaredTopics({ labelRequestedPartitions }),
    ...(replicationFactor ? { replicationFactor } : {}),
    connectTimeoutMs: positive('KAFKA_CONNECT_TIMEOUT_MS') ?? 60_000,
    log: (line) => process.stdout.write(`create-topics: ${line}\n`),
  });
  process.stdout.write(
    `create-topics: done, ${result.created.length} created, ${result.existing.length} already there\n`,
  );
  process.exit(0);
} catch (err) {
  fail((err as Error).message);
}
