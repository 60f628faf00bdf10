import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createDb } from '@flatship/kit';
import {
  createTestDatabase,
  freePort,
  generateTokenKeys,
  type KafkaMockCluster,
  startKafkaMockCluster,
} from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

// The real entry point with EVENT_BUS=kafka, on librdkafka's mock cluster.
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
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
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: tdb.url,
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

test('with EVENT_BUS=kafka the service starts on the brokers, shows the consumer lag metric and stops cleanly', async () => {
  const port = await freePort();
  const s = spawnMain({ EVENT_BUS: 'kafka', KAFKA_BROKERS: cluster.brokers.join(','), PORT: String(port) });
  try {
    const deadline = Date.now() + 45_000;
    for (;;) {
      if (s.child.exitCode !== null) throw new Error(`services-pricing exited early:\n${s.logs()}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`services-pricing did not become ready:\n${s.logs()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
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
