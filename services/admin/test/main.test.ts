import {
  createTestDatabase,
  freePort,
  generateTokenKeys,
  spawnService,
  waitFor,
  waitUntilUp,
} from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

// Runs the real entry point the way the launcher does, against a real database.
// The built entry production runs (the test setup rebuilds it when its sources changed).
const MAIN = new URL('../dist/main.js', import.meta.url);
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  tdb = await createTestDatabase('admin_main');
});
afterAll(() => tdb.drop());

test('the service starts, answers /readyz, refuses admin calls without a token and stops cleanly', async () => {
  const port = await freePort();
  const s = spawnService(MAIN, {
    DATABASE_URL: tdb.url,
    JWT_PUBLIC_KEY: generateTokenKeys().publicKey,
    INTERNAL_SECRET: 'main-test-internal-secret',
    AUTH_URL: 'http://127.0.0.1:9',
    PAYMENTS_URL: 'http://127.0.0.1:9',
    ORDERS_URL: 'http://127.0.0.1:9',
    PORT: String(port),
    // The tries to fill the user table while auth and payments are away are logged at debug level.
    LOG_LEVEL: 'debug',
  });
  await waitUntilUp(`http://127.0.0.1:${port}/readyz`, s);
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/users/details/x`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ balance: 1 }),
  });
  expect(res.status).toBe(401);
  // Two tries refused (the first at start, the next a second later), then the signal while it waits to try again.
  const failed = 'filling the user table from auth and payments failed';
  const refusedTries = () => s.logs().split('auth or payments is not answering yet').length - 1;
  await waitFor('two refused tries to fill the user table', () => refusedTries() >= 2 || s.logs().includes(failed));
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
  // Auth and payments were not listening: at start-up that is waited out quietly, not reported as an error.
  expect(s.logs()).not.toContain(failed);
}, 60_000);

test('a missing peer address stops the start with a message naming it', async () => {
  const s = spawnService(MAIN, {
    DATABASE_URL: tdb.url,
    JWT_PUBLIC_KEY: generateTokenKeys().publicKey,
    INTERNAL_SECRET: 'main-test-internal-secret',
    AUTH_URL: 'http://127.0.0.1:9',
    PORT: '0',
  });
  expect(await s.exited).toBe(78);
  expect(s.logs()).toContain('PAYMENTS_URL is required but not set');
}, 30_000);
