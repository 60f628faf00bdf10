import { freePort, spawnService, startKafkaMockCluster, waitUntilUp } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { keys } from './helpers';

// The real entry point: with the Kafka bus the gateway keeps no database at all.
// The built entry production runs (the test setup rebuilds it when its sources changed).
const MAIN = new URL('../dist/main.js', import.meta.url);
let cluster: Awaited<ReturnType<typeof startKafkaMockCluster>>;
beforeAll(async () => {
  cluster = await startKafkaMockCluster();
});
afterAll(() => cluster?.stop());

function spawnMain(env: Record<string, string>) {
  return spawnService(MAIN, {
    JWT_PUBLIC_KEY: keys.publicKey,
    INTERNAL_SECRET: 'main-test-internal-secret',
    AUTH_URL: 'http://127.0.0.1:9',
    LOG_LEVEL: 'info',
    ...env,
  });
}

test('with EVENT_BUS=kafka the gateway starts without DATABASE_URL and stops cleanly', async () => {
  const port = await freePort();
  const s = spawnMain({ EVENT_BUS: 'kafka', KAFKA_BROKERS: cluster.brokers.join(','), PORT: String(port) });
  try {
    const res = await waitUntilUp(`http://127.0.0.1:${port}/healthz`, s, { timeoutMs: 45_000 });
    expect(await res.json()).toEqual({ status: 'ok', service: 'gateway' });
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
