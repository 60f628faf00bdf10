import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, freePort, generateTokenKeys } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

// Runs the real entry point the way the launcher does, against a real database.
// The built entry production runs (the test setup rebuilds it when its sources changed).
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const keys = generateTokenKeys();
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  tdb = await createTestDatabase('auth_main');
});
afterAll(() => tdb.drop());

interface Started {
  child: ChildProcess;
  port: number;
  logs: () => string;
  exited: Promise<number | null>;
}

async function start(): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: tdb.url,
      JWT_PUBLIC_KEY: keys.publicKey,
      JWT_PRIVATE_KEY: keys.privateKey,
      INTERNAL_SECRET: 'main-test-internal-secret',
      PORT: String(port),
      LOG_LEVEL: 'info',
      ADMIN_EMAIL: 'Boss@Example.com',
      ADMIN_PASSWORD: 'bootstrap-password',
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
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`auth exited early:\n${out}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`auth did not become ready:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, port, logs: () => out, exited };
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
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: tdb.url,
      JWT_PUBLIC_KEY: keys.publicKey,
      JWT_PRIVATE_KEY: keys.privateKey,
      INTERNAL_SECRET: 'main-test-internal-secret',
      SHUTDOWN_TIMEOUT_MS: '5',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d) => {
    err += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  expect(code).toBe(78);
  expect(err).toContain('SHUTDOWN_TIMEOUT_MS="5" is invalid');
}, 30_000);
