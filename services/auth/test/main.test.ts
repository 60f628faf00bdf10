import { createTestDatabase, freePort, generateTokenKeys, spawnService, waitUntilUp } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

// Runs the real entry point the way the launcher does, against a real database.
// The built entry production runs (the test setup rebuilds it when its sources changed).
const MAIN = new URL('../dist/main.js', import.meta.url);
const keys = generateTokenKeys();
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  tdb = await createTestDatabase('auth_main');
});
afterAll(() => tdb.drop());

const baseEnv = () => ({
  DATABASE_URL: tdb.url,
  JWT_PUBLIC_KEY: keys.publicKey,
  JWT_PRIVATE_KEY: keys.privateKey,
  INTERNAL_SECRET: 'main-test-internal-secret',
});

async function start() {
  const port = await freePort();
  const s = spawnService(MAIN, {
    ...baseEnv(),
    PORT: String(port),
    LOG_LEVEL: 'info',
    ADMIN_EMAIL: 'Boss@Example.com',
    ADMIN_PASSWORD: 'bootstrap-password',
  });
  await waitUntilUp(`http://127.0.0.1:${port}/readyz`, s);
  return { ...s, port };
}

test('the service starts, bootstraps the admin once, serves logins and stops cleanly on SIGTERM', async () => {
  const first = await start();
  const login = await fetch(`http://127.0.0.1:${first.port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'boss@example.com', password: 'bootstrap-password' }),
  });
  expect(login.status).toBe(200);
  expect(((await login.json()) as { user: { user_role: string } }).user.user_role).toBe('admin');
  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  expect(first.logs()).toContain('"msg":"admin account created"');
  expect(first.logs()).toContain('"email":"boss@example.com"');
  expect(first.logs()).not.toContain('bootstrap-password');

  const second = await start();
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  expect(second.logs()).not.toContain('admin account created');
}, 90_000);

test('a bad configuration still stops the process with a message naming the variable', async () => {
  const s = spawnService(MAIN, { ...baseEnv(), SHUTDOWN_TIMEOUT_MS: '5' });
  const code = await s.exited;
  expect(code).toBe(78);
  expect(s.stderr()).toContain('SHUTDOWN_TIMEOUT_MS="5" is invalid');
}, 30_000);
