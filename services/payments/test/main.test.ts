import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, freePort, generateTokenKeys } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

// Runs the real entry point the way the launcher does, against a real database.
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const SECRET = 'main-test-internal-secret';
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  tdb = await createTestDatabase('payments_main');
});
afterAll(() => tdb.drop());

async function start(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; logs: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
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

test('the service migrates, answers /readyz and internal calls, and stops cleanly on SIGTERM', async () => {
  const port = await freePort();
  const s = await start({
    DATABASE_URL: tdb.url,
    JWT_PUBLIC_KEY: generateTokenKeys().publicKey,
    INTERNAL_SECRET: SECRET,
    AUTH_URL: 'http://127.0.0.1:9',
    PORT: String(port),
    LOG_LEVEL: 'info',
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (s.child.exitCode !== null) throw new Error(`payments exited early:\n${s.logs()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`payments did not become ready:\n${s.logs()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const userId = randomUUID();
  const res = await fetch(`http://127.0.0.1:${port}/internal/accounts/summaries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-secret': SECRET },
    body: JSON.stringify({ userIds: [userId] }),
  });
  expect(await res.json()).toEqual({ summaries: [{ userId, balance: 0, totalDeposit: 0, totalSpent: 0 }] });
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
  expect(s.logs()).toContain('migrations applied');
}, 60_000);

test('a missing variable stops the start with a message naming it', async () => {
  const s = await start({ DATABASE_URL: tdb.url, INTERNAL_SECRET: SECRET, PORT: '0' });
  expect(await s.exited).toBe(78);
  expect(s.logs()).toContain('JWT_PUBLIC_KEY is required but not set');
  expect(s.logs()).toContain('AUTH_URL is required but not set');
}, 30_000);
