import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, type KafkaMockCluster, startKafkaMockCluster } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { keys } from './helpers';

// The real entry point: with the Kafka bus the gateway keeps no database at all.
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
let cluster: KafkaMockCluster;
beforeAll(async () => {
  cluster = await startKafkaMockCluster();
});
afterAll(() => cluster?.stop());

function spawnMain(env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      PATH: process.env.PATH,
      JWT_PUBLIC_KEY: keys.publicKey,
      INTERNAL_SECRET: 'main-test-internal-secret',
      AUTH_URL: 'http://127.0.0.1:9',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, logs: () => out, exited };
}

test('with EVENT_BUS=kafka the gateway starts without DATABASE_URL and stops cleanly', async () => {
  const port = await freePort();
  const s = spawnMain({ EVENT_BUS: 'kafka', KAFKA_BROKERS: cluster.brokers.join(','), PORT: String(port) });
  try {
    const deadline = Date.now() + 45_000;
    for (;;) {
      if (s.child.exitCode !== null) throw new Error(`the gateway exited early:\n${s.logs()}`);
      const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
      if (res?.ok) {
        expect(await res.json()).toEqual({ status: 'ok', service: 'gateway' });
        break;
      }
      if (Date.now() > deadline) throw new Error(`the gateway did not start:\n${s.logs()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    s.child.kill('SIGTERM');
  }
  expect(await s.exited).toBe(0);
}, 60_000);

test('without EVENT_BUS the gateway still needs DATABASE_URL and says so', async () => {
  const s = spawnMain({ PORT: String(await freePort()) });
  expect(await s.exited).toBe(78);
  expect(s.logs()).toContain('DATABASE_URL is required but not set');
}, 30_000);
