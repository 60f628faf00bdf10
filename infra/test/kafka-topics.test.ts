import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type KafkaMockCluster, startKafkaMockCluster } from '@flatship/kit/testing';
import { TOPICS } from '@flatship/proto';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { declaredTopics } from '../kafka/topics';
import { ensureTopics, TopicJobError } from '../kafka/topics-job';

const run = promisify(execFile);
const JOB = fileURLToPath(new URL('../kafka/create-topics.ts', import.meta.url));

async function job(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', JOB], {
      env: { PATH: process.env.PATH, ...env },
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('declared topics', () => {
  test('every bus topic is declared with its dead-letter topic; label.requested takes the shared partition setting', () => {
    const topics = declaredTopics({ labelRequestedPartitions: 16 });
    const names = topics.map((t) => t.name);
    for (const topic of Object.values(TOPICS)) {
      expect(names).toContain(topic);
      expect(names).toContain(`${topic}.dlq`);
    }
    expect(names).toHaveLength(Object.values(TOPICS).length * 2);
    expect(topics.find((t) => t.name === TOPICS.labelRequested)?.partitions).toBe(16);
    expect(declaredTopics().find((t) => t.name === TOPICS.labelRequested)?.partitions).toBe(8);
    for (const t of topics) {
      expect(t.partitions).toBeGreaterThanOrEqual(1);
      expect(t.retentionMs).toBeGreaterThan(0);
    }
  });
});

describe('the topic job', () => {
  let cluster: KafkaMockCluster;
  beforeAll(async () => {
    cluster = await startKafkaMockCluster();
  });
  afterAll(() => cluster?.stop());

  test('with every topic already there it creates nothing, says so, and reports a partition count it leaves alone', async () => {
    // The mock cluster creates a topic when a client asks for it (it has no CreateTopics), as a real one after the job.
    const producer = new Kafka({ clientId: 'setup', brokers: cluster.brokers, logLevel: logLevel.NOTHING }).producer({
      allowAutoTopicCreation: true,
    });
    await producer.connect();
    for (const t of declaredTopics()) await producer.send({ topic: t.name, messages: [] });
    await producer.disconnect();

    const lines: string[] = [];
    const first = await ensureTopics({ brokers: cluster.brokers, topics: declaredTopics(), log: (l) => lines.push(l) });
    const second = await ensureTopics({ brokers: cluster.brokers, topics: declaredTopics() });
    expect(first.created).toEqual([]);
    expect(first.existing).toHaveLength(declaredTopics().length);
    expect(second).toEqual(first);
    // The mock gives every topic 4 partitions; label.requested declares 8 and a dead-letter topic 1.
    expect(first.mismatched).toContainEqual({ name: TOPICS.labelRequested, declared: 8, actual: 4 });
    expect(lines.some((l) => l.includes('left as it is'))).toBe(true);

    const cli = await job({ KAFKA_BROKERS: cluster.brokers.join(',') });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`create-topics: done, 0 created, ${declaredTopics().length} already there`);
  });

  test('a topic the cluster refuses to create fails with the topics named', async () => {
    const refused = ensureTopics({
      brokers: cluster.brokers,
      topics: [{ name: `never-${Date.now()}`, partitions: 2, retentionMs: 1000 }],
    });
    await expect(refused).rejects.toThrow(TopicJobError);
    await expect(refused).rejects.toThrow(/could not create never-\d+/);
  });

  test('without KAFKA_BROKERS, or with brokers out of reach, the job exits 1 with the reason', async () => {
    const unset = await job({});
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain('create-topics: KAFKA_BROKERS is required');

    const away = await job({ KAFKA_BROKERS: '127.0.0.1:1', KAFKA_CONNECT_TIMEOUT_MS: '1' });
    expect(away.code).toBe(1);
    expect(away.stderr).toContain('create-topics: cannot reach the Kafka brokers 127.0.0.1:1');

    const bad = await job({ KAFKA_BROKERS: '127.0.0.1:1', KAFKA_REPLICATION_FACTOR: 'three' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('KAFKA_REPLICATION_FACTOR="three" is invalid');
  });
});
