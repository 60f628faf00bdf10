import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface KafkaMockCluster {
  /** Comma-separated host:port of its brokers, for KAFKA_BROKERS. */
  brokers: string;
  stop(): Promise<void>;
}

const BOOTSTRAP_LINE = /replaced with (\S+)/;

/**
 * librdkafka's mock cluster (Debian's `kcat` + `librdkafka1`): real Kafka wire
 * protocol, topics auto-created with 4 partitions, no CreateTopics. kcat runs
 * it as a producer reading standard input, so it ends by itself when this
 * process goes away (its input closes) as well as on stop().
 */
export function startKafkaMock(brokers = 3, timeoutMs = 10_000): Promise<KafkaMockCluster> {
  const child = spawn(
    'kcat',
    ['-X', `test.mock.num.brokers=${brokers}`, '-b', '127.0.0.1:1', '-P', '-t', 'flatship.mock'],
    {
      stdio: ['pipe', 'ignore', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`kcat printed no mock cluster address within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    child.once('error', (e) =>
      fail(
        new Error(`could not start kcat for the mock Kafka cluster (apt-get install kcat librdkafka1): ${e.message}`),
      ),
    );
    child.once('exit', (code) => fail(new Error(`kcat exited (code ${code}) before the mock cluster was up`)));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      const m = line.match(BOOTSTRAP_LINE);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        brokers: m[1]!,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
