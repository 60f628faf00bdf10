import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../src/paths';
import {
  describeMemory,
  FOOTPRINT_LIMIT_MB,
  FOOTPRINT_TARGET_MB,
  type StackMemory,
  stackMemory,
} from '../src/testing/footprint';
import { type RunningStack, startStack, stopLauncher } from '../src/testing/start-stack';
import { alivePids, allPids, eventually, readRunFile, readyzStatus } from './helpers';

// The product's own services, started exactly as `make start` starts them.
const hasStack = ['services/auth/src/main.ts', 'gateway/src/main.ts'].every((p) => existsSync(join(REPO_ROOT, p)));
// Rebuilding the SPA is not what this file tests; reuse the current build when there is one.
const buildWeb = existsSync(join(REPO_ROOT, 'web', 'dist', 'index.html')) ? 'never' : 'auto';

const customer = { name: 'Dana Seller', email: 'dana@example.com', password: 'Parcel-Post-2024' };

async function post(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe.skipIf(!hasStack)('launcher (product services)', () => {
  let dataDir: string;
  let stack: RunningStack | undefined;
  let firstToken = '';
  const start = async () => {
    stack = await startStack({ dataDir, env: { ADMIN_PASSWORD: '', BUILD_WEB: buildWeb } });
    return stack;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'flatship-stack-test-'));
  });
  afterAll(async () => {
    await stack?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('starts, is ready and shows the generated admin password once', async () => {
    const { url, adminPassword, launcher } = await start();
    expect(url).toMatch(/^http:\/\/localhost:\d+$/);
    expect(adminPassword).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(launcher.output().match(/Flatship is running at/g)).toHaveLength(1);
    expect(await readyzStatus(url)).toBe(200);
  });

  // Before anything is asked of it. Memory does not depend on the machine's pace, but a stack just ready still
  // holds what starting used (database connections kept DB_POOL_IDLE_MS, garbage not yet collected): the check
  // passes on the first reading at or under the limit, read every second until the poll's timeout.
  test(`idle, the whole stack takes at most ${FOOTPRINT_LIMIT_MB} MB (PSS of every process; target ${FOOTPRINT_TARGET_MB} MB)`, async () => {
    let last: StackMemory | undefined;
    await expect
      .poll(
        async () => {
          last = await stackMemory(dataDir);
          return last.pssKb / 1024;
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toBeLessThanOrEqual(FOOTPRINT_LIMIT_MB)
      .catch((err: Error) => {
        throw new Error(`${err.message}\n${last ? describeMemory(last) : ''}`);
      });
    console.log(`idle stack:\n${describeMemory(last!)}`);
  });

  test('lets a customer register', async () => {
    const { url } = stack!;
    const registered = await post(`${url}/api/auth/register`, { ...customer, confirmPassword: customer.password });
    expect(registered.status).toBe(201);
    expect(registered.body.ok).toBe(true);
    firstToken = String(registered.body.token);
  });

  // The other end-to-end files share a stack whose limit is raised (infra/e2e/global-setup.ts): this one keeps the
  // default, as `make start` runs it.
  test('the gateway refuses sign-in attempts beyond the default limit of 20 a minute from one client', async () => {
    const attempt = () =>
      post(`${stack!.url}/api/auth/login`, { email: `guess-${randomUUID()}@example.com`, password: 'not-it' });
    for (let i = 0; i < 20; i++) expect((await attempt()).status).toBe(401);
    expect(await attempt()).toEqual({
      status: 429,
      body: { code: 'RATE_LIMITED', message: 'Too many attempts. Please wait a minute and try again.' },
    });
  });

  test('auth killed with SIGKILL is restarted and the gateway becomes ready again', async () => {
    const before = (await readRunFile(dataDir)).services.auth!.pid!;
    process.kill(before, 'SIGKILL');
    await stack!.launcher.waitFor(/auth was killed by SIGKILL; restarting in 1s/, 5000);
    await eventually(
      async () => {
        const pid = (await readRunFile(dataDir)).services.auth!.pid;
        return pid && pid !== before && (await readyzStatus(stack!.url)) === 200 ? true : undefined;
      },
      30_000,
      'auth to come back',
    );
  });

  test('SIGTERM stops every service and PostgreSQL with exit code 0', async () => {
    const run = await readRunFile(dataDir);
    const { code } = await stopLauncher(stack!.launcher);
    // The launcher's own lines say which process did not stop cleanly.
    expect(code, stack!.launcher.output().split('\n').slice(-40).join('\n')).toBe(0);
    expect(alivePids(allPids(run))).toEqual([]);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });

  test('a second start keeps accounts and tokens valid and never shows the admin password again', async () => {
    const first = stack!;
    const { url, launcher } = await start();
    expect(launcher.output()).not.toContain('Admin sign-in');
    const login = await post(`${url}/api/auth/login`, { email: customer.email, password: customer.password });
    expect(login.status).toBe(200);
    expect(typeof login.body.token).toBe('string');
    // Same signing keys after a restart: a token issued before it is still accepted.
    const verify = await fetch(`${url}/api/auth/verify`, { headers: { token: firstToken } });
    expect(verify.status).toBe(200);
    const admin = await post(`${url}/api/auth/login`, { email: first.adminEmail, password: first.adminPassword });
    expect(admin.status).toBe(200);
  });
});
