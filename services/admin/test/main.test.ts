import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, freePort, generateTokenKeys } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

// Runs the real entry point the way the launcher does, against a real database.
// The built entry production runs (the test setup rebuilds it when its sources changed).
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  tdb = await createTestDatabase('admin_main');
});
afterAll(() => tdb.drop());

function start(env: Record<string, string>): {
  child: ChildProcess;
  logs: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, ...env },
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

test('the service starts, answers /readyz, refuses admin calls without a token and stops cleanly', async () => {
  const port = await freePort();
  const s = start({
    DATABASE_URL: tdb.url,
    JWT_PUBLIC_KEY: generateTokenKeys().publicKey,
    INTERNAL_SECRET: 'main-test-internal-secret',
    AUTH_URL: 'http://127.0.0.1:9',
    PAYMENTS_URL: 'http://127.0.0.1:9',
    ORDERS_URL: 'http://127.0.0.1:9',
    PORT: String(port),
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (s.child.exitCode !== null) throw new Error(`admin exited early:\n${s.logs()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`admin did not become ready:\n${s.logs()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/users/details/x`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ balance: 1 }),
  });
  expect(res.status).toBe(401);
  await new Promise((r) => setTimeout(r, 1500));
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
  // Auth and payments were not listening: at start-up that is waited out quietly, not reported as an error.
  expect(s.logs()).not.toContain('filling the user table from auth and payments failed');
}, 60_000);

test('a missing peer address stops the start with a message naming it', async () => {
  const s = start({
    DATABASE_URL: tdb.url,
    JWT_PUBLIC_KEY: generateTokenKeys().publicKey,
    INTERNAL_SECRET: 'main-test-internal-secret',
    AUTH_URL: 'http://127.0.0.1:9',
    PORT: '0',
  });
  expect(await s.exited).toBe(78);
  expect(s.logs()).toContain('PAYMENTS_URL is required but not set');
}, 30_000);
