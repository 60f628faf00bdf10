import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, freePort, generateTokenKeys, spawnService, waitUntilUp } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

// Runs the real entry point the way the launcher does, against a real database.
// The built entry production runs (the test setup rebuilds it when its sources changed).
const MAIN = new URL('../dist/main.js', import.meta.url);
const keys = generateTokenKeys();
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
let filesDir: string;
beforeAll(async () => {
  tdb = await createTestDatabase('orders_main');
  filesDir = await mkdtemp(join(tmpdir(), 'orders-main-'));
});
afterAll(async () => {
  await tdb.drop();
  await rm(filesDir, { recursive: true, force: true });
});

const baseEnv = () => ({
  DATABASE_URL: tdb.url,
  JWT_PUBLIC_KEY: keys.publicKey,
  INTERNAL_SECRET: 'main-test-internal-secret',
  // Peers are not needed to start: they are called per request.
  AUTH_URL: 'http://127.0.0.1:9',
  PRICING_URL: 'http://127.0.0.1:9',
  PAYMENTS_URL: 'http://127.0.0.1:9',
  FILES_DIR: filesDir,
  LOG_LEVEL: 'info',
});

test('the service migrates, becomes ready, refuses calls without a token and stops cleanly on SIGTERM', async () => {
  const port = await freePort();
  const p = spawnService(MAIN, { ...baseEnv(), PORT: String(port) });
  await waitUntilUp(`http://127.0.0.1:${port}/readyz`, p);
  const res = await fetch(`http://127.0.0.1:${port}/api/orders/total/00000000-0000-4000-8000-000000000000`);
  expect(res.status).toBe(401);
  p.child.kill('SIGTERM');
  expect(await p.exited).toBe(0);
  expect(p.logs()).toContain(
    '"applied":["0001_labels","0002_outbox","0003_bulk_orders","0004_label_idempotency","0005_bulk_submit_hash","0006_label_refund_started","0007_label_courier_any_carrier","0008_label_void","0009_bulk_refunded_count","0010_free_labels","0011_carrier_purchases","0012_label_tracking","0013_carrier_routes","0014_label_refunds","0015_print_settings","0016_scan_forms","0017_label_tracking_checks","0018_marketplace_sources","0019_carrier_memory_forms","0020_carrier_rate_slots"]',
  );
}, 60_000);

test('a bad configuration stops the process with a message naming each variable', async () => {
  const p = spawnService(MAIN, { ...baseEnv(), CARRIER_FAILURE_RATE: '1.5', FILES_DIR: '', PRICING_URL: 'pricing' });
  expect(await p.exited).toBe(78);
  expect(p.logs()).toContain('CARRIER_FAILURE_RATE="1.5" is invalid');
  expect(p.logs()).toContain('FILES_DIR is required but not set');
  expect(p.logs()).toContain('PRICING_URL="pricing" is invalid');
}, 30_000);
