import { type ChildProcess, spawn } from 'node:child_process';

export interface KafkaMockCluster {
  /** Bootstrap brokers, `host:port` each. */
  brokers: string[];
  stop(): Promise<void>;
}

const KCAT_MISSING =
  'kcat is not installed: the Kafka tests run on librdkafka’s mock cluster from kcat (Debian: apt-get install kcat librdkafka1, or make system-deps as root)';

/**
 * Starts librdkafka's mock Kafka cluster (three brokers speaking the real wire
 * protocol, topics auto-created with 4 partitions) through `kcat`, which keeps
 * it running while it consumes a topic; stopping kills kcat and the cluster
 * with it.
 */
export function startKafkaMockCluster(
  options: { brokers?: number; timeoutMs?: number } = {},
): Promise<KafkaMockCluster> {
  const count = options.brokers ?? 3;
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(
        'kcat',
        ['-X', `test.mock.num.brokers=${count}`, '-b', '127.0.0.1:1', '-C', '-t', 'mock-cluster-keepalive'],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
    } catch {
      reject(new Error(KCAT_MISSING));
      return;
    }
    let stderr = '';
    let settled = false;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const timer = setTimeout(() => {
      fail(new Error(`the Kafka mock cluster did not start within ${timeoutMs} ms; kcat said: ${stderr.trim()}`));
    }, timeoutMs);
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    };
    child.once('error', (err: NodeJS.ErrnoException) => fail(err.code === 'ENOENT' ? new Error(KCAT_MISSING) : err));
    child.once('exit', (code) =>
      fail(new Error(`kcat exited (${code}) before the mock cluster was up: ${stderr.trim()}`)),
    );
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (settled) return;
      stderr += chunk;
      // "... original bootstrap.servers and security.protocol ignored and replaced with 127.0.0.1:P1,127.0.0.1:P2,..."
      const match = /replaced with ([0-9.:,]+)/.exec(stderr);
      if (!match) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        brokers: match[1]!.split(',').filter(Boolean),
        async stop() {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            const killer = setTimeout(() => child.kill('SIGKILL'), 2000);
            await exited;
            clearTimeout(killer);
          }
        },
      });
    });
  });
}
