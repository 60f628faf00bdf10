import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { freePort } from '../src/net';
import { REPO_ROOT } from '../src/paths';
import { runLauncher } from '../src/testing/start-stack';
import { alivePids, allPids, eventually, readRunFile } from './helpers';

const FIXTURE_ROOT = join(REPO_ROOT, 'infra', 'test', 'fixtures', 'stack');
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'flatship-launcher-fail-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const launch = async (env: Record<string, string>) =>
  runLauncher({
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    FLATSHIP_SERVICES_ROOT: FIXTURE_ROOT,
    INTERNAL_PORTS: 'random',
    BUILD_WEB: 'never',
    ...env,
  });

test('a service that never becomes ready is named with its log, and everything is stopped', async () => {
  const launcher = await launch({ FIXTURE_AUTH_MODE: 'never-ready', READY_TIMEOUT_MS: '4000' });
  const run = await eventually(
    async () => {
      const r = await readRunFile(dataDir).catch(() => undefined);
      return r && Object.values(r.services).every((s) => s.pid) ? r : undefined;
    },
    10_000,
    'every service to be spawned',
  );
  const { code } = await launcher.exited;
  expect(code).toBe(1);
  const out = launcher.output();
  expect(out).toContain(`auth is not ready after 4 s: it answers 503`);
  expect(out).toContain(`Its log: ${join(dataDir, 'logs', 'auth.log')}`);
  expect(out).not.toContain('Flatship is running');
  expect(alivePids(allPids(run))).toEqual([]);
  expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
});

test('a service whose configuration is invalid stops the launcher at once instead of being restarted', async () => {
  const started = Date.now();
  const launcher = await launch({ FIXTURE_AUTH_MODE: 'bad-config' });
  const { code } = await launcher.exited;
  expect(code).toBe(1);
  const out = launcher.output();
  expect(out).toContain('auth: auth: Invalid configuration:');
  expect(out).toContain('auth stopped: its configuration is invalid');
  expect(out).not.toContain('restarting in');
  expect(Date.now() - started).toBeLessThan(30_000);
});

test('a port already in use is reported before anything starts', async () => {
  const blocker = createServer();
  const port = await new Promise<number>((r) =>
    blocker.listen(0, '127.0.0.1', () => r((blocker.address() as { port: number }).port)),
  );
  try {
    const launcher = await launch({ PORT: String(port) });
    const { code } = await launcher.exited;
    expect(code).toBe(1);
    expect(launcher.output()).toContain(`PORT ${port} is already in use on 127.0.0.1`);
  } finally {
    blocker.close();
  }
});
