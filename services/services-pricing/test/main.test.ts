import { createDb } from '@flatship/kit';
import { createTestDatabase, freePort, generateTokenKeys, spawnService, waitUntilUp } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

// Runs the real entry point the way the launcher does, against a real database.
// The built entry production runs (the test setup rebuilds it when its sources changed).
const MAIN = new URL('../dist/main.js', import.meta.url);
const keys = generateTokenKeys();
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  tdb = await createTestDatabase('pricing_main');
});
afterAll(() => tdb.drop());

const baseEnv = () => ({
  DATABASE_URL: tdb.url,
  JWT_PUBLIC_KEY: keys.publicKey,
  INTERNAL_SECRET: 'main-test-internal-secret',
});

async function start() {
  const port = await freePort();
  const s = spawnService(MAIN, { ...baseEnv(), AUTH_URL: 'http://127.0.0.1:9', PORT: String(port), LOG_LEVEL: 'info' });
  await waitUntilUp(`http://127.0.0.1:${port}/readyz`, s);
  return { ...s, port };
}

test('the service starts ready to sell: carrier services synced and priced, answers /readyz, stops cleanly', async () => {
  const first = await start();
  const ready = await fetch(`http://127.0.0.1:${first.port}/readyz`);
  expect(await ready.json()).toEqual({ status: 'ready', service: 'services-pricing' });
  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  expect(first.logs()).toContain('"msg":"default services created"');

  const db = createDb(tdb.url, 'pricing');
  try {
    const defaults = await db('default_services').orderBy('uid').select('uid', 'enabled', 'prices');
    expect(defaults).toEqual([
      { uid: 'usps_ground_advantage', enabled: true, prices: [{ fromWeight: 1, toWeight: 70, priceCents: 650 }] },
      { uid: 'usps_priority_mail', enabled: true, prices: [{ fromWeight: 1, toWeight: 70, priceCents: 895 }] },
      {
        uid: 'usps_priority_mail_express',
        enabled: true,
        prices: [{ fromWeight: 1, toWeight: 70, priceCents: 2995 }],
      },
    ]);
  } finally {
    await db.destroy();
  }

  // A second start finds everything in place and creates nothing.
  const second = await start();
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  expect(second.logs()).not.toContain('default services created');
}, 90_000);

test('a missing AUTH_URL stops the start with a message naming it', async () => {
  const s = spawnService(MAIN, baseEnv());
  expect(await s.exited).toBe(78);
  expect(s.logs()).toContain('AUTH_URL is required but not set');
}, 30_000);

test('a CARRIERS naming an unknown carrier stops the start with a message naming it', async () => {
  const s = spawnService(MAIN, {
    ...baseEnv(),
    AUTH_URL: 'http://127.0.0.1:9',
    CARRIERS: 'sandbox-usps,ups',
  });
  expect(await s.exited).toBe(78);
  expect(s.logs()).toContain(
    'CARRIERS="sandbox-usps,ups" is invalid: unknown carrier "ups"; known carriers: sandbox-usps, test-parcel, usps, easypost',
  );
}, 30_000);
