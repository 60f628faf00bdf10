import { createDb } from '@flatship/kit';
import {
  createTestDatabase,
  freePort,
  generateTokenKeys,
  type KafkaMockCluster,
  spawnService,
  startKafkaMockCluster,
  waitUntilUp,
} from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

// The real entry point with EVENT_BUS=kafka, on librdkafka's mock cluster.
// The built entry production runs (the test setup rebuilds it when its sources changed).
const MAIN = new URL('../dist/main.js', import.meta.url);
const keys = generateTokenKeys();
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
let cluster: KafkaMockCluster;
beforeAll(async () => {
  [tdb, cluster] = await Promise.all([createTestDatabase('pricing_main_kafka'), startKafkaMockCluster()]);
});
afterAll(async () => {
  await cluster?.stop();
  await tdb?.drop();
});

function spawnMain(env: Record<string, string>) {
  return spawnService(MAIN, {
    DATABASE_URL: tdb.url,
    JWT_PUBLIC_KEY: keys.publicKey,
    INTERNAL_SECRET: 'main-test-internal-secret',
    AUTH_URL: 'http://127.0.0.1:9',
    LOG_LEVEL: 'info',
    ...env,
  });
}

test('with EVENT_BUS=kafka the service starts on the brokers, shows the consumer lag metric and stops cleanly', async () => {
  const port = await freePort();
  const s = spawnMain({ EVENT_BUS: 'kafka', KAFKA_BROKERS: cluster.brokers.join(','), PORT: String(port) });
  try {
    await waitUntilUp(`http://127.0.0.1:${port}/readyz`, s, { timeoutMs: 45_000 });
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toContain('# TYPE flatship_bus_consumer_lag gauge');
  } finally {
    s.child.kill('SIGTERM');
  }
  expect(await s.exited).toBe(0);
  // The postgres bus was never opened: the service database has no bus schema.
  const db = createDb(tdb.url, 'pricing');
  try {
    const { rows } = (await db.raw(
      "select count(*)::int as n from information_schema.schemata where schema_name = 'bus'",
    )) as {
      rows: { n: number }[];
    };
    expect(rows[0]!.n).toBe(0);
  } finally {
    await db.destroy();
  }
}, 60_000);

test('EVENT_BUS=kafka without KAFKA_BROKERS stops the start with a message naming it', async () => {
  const s = spawnMain({ EVENT_BUS: 'kafka', PORT: String(await freePort()) });
  expect(await s.exited).toBe(78);
  expect(s.logs()).toContain('KAFKA_BROKERS is required when EVENT_BUS=kafka');
}, 30_000);
