import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { freePort } from '../src/net';
import { runLauncher, waitForReadyBlock } from '../src/testing/start-stack';
import { alivePids, allPids, buildFixtureStack, eventually, FIXTURE_ROOT, readRunFile } from './helpers';

let dataDir: string;

beforeAll(buildFixtureStack);
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
  // The services are spawned once PostgreSQL is up, which a busy machine can take well over ten seconds to reach;
  // the ready timeout counts from the spawn, so the run file names every pid for four seconds after it.
  const run = await eventually(
    async () => {
      const r = await readRunFile(dataDir).catch(() => undefined);
      return r && Object.values(r.services).every((s) => s.pid) ? r : undefined;
    },
    120_000,
    'every service to be spawned',
  );
  const { code } = await launcher.exited;
  expect(code).toBe(1);
  const out = launcher.output();
  // One line that says the launcher gave up, who was not ready and where to look.
  const gaveUp = out.split('\n').filter((line) => line.includes('gave up'));
  expect(gaveUp).toHaveLength(1);
  // Auth is named with where it stood (answering 503 or, on a busy machine, not listening yet) and its log; a
  // service beside it that a busy machine did not make ready within the four seconds is named too.
  expect(gaveUp[0]).toMatch(/^flatship: gave up after 4 s, stopping everything: (.*; )?auth (answers 503|is not )/);
  expect(gaveUp[0]).toContain(`(its log: ${join(dataDir, 'logs', 'auth.log')})`);
  expect(out).not.toContain('Flatship is running');
  await expect.poll(() => alivePids(allPids(run)), { timeout: 30_000 }).toEqual([]);
  expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
});

test('a service whose configuration is invalid stops the launcher at once instead of being restarted', async () => {
  const launcher = await launch({ FIXTURE_AUTH_MODE: 'bad-config' });
  const { code } = await launcher.exited;
  expect(code).toBe(1);
  const out = launcher.output();
  expect(out).toContain('auth: auth: Invalid configuration:');
  expect(out).toContain('auth stopped: its configuration is invalid');
  expect(out).not.toContain('restarting in');
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
    // The blocker is this test process, and the message says so.
    expect(launcher.output()).toContain(`PORT ${port} is already in use by pid ${process.pid} (`);
    expect(launcher.output()).toContain('choose another port, e.g. make start PORT=');
    expect(launcher.output().trim().split('\n')).toHaveLength(1);
  } finally {
    blocker.close();
  }
});

const oneLine = (out: string) => {
  const lines = out.trim().split('\n');
  expect(lines, out).toHaveLength(1);
  expect(out).not.toMatch(/^\s+at /m);
  return lines[0]!;
};

test('a bad variable is one line naming it and the fix, and nothing starts', async () => {
  const launcher = await launch({ PORT: 'eighty', READY_TIMEOUT_MS: 'soon' });
  const { code } = await launcher.exited;
  expect(code).toBe(78);
  const line = oneLine(launcher.output());
  expect(line).toContain('PORT="eighty" is invalid');
  expect(line).toContain('READY_TIMEOUT_MS="soon" is invalid');
  expect(line).toContain('unset it to use its default');
  expect(existsSync(join(dataDir, 'pg'))).toBe(false);
});

test('a service that is not built is named with the file it runs from and the build command, and nothing starts', async () => {
  const root = await mkdtemp(join(tmpdir(), 'flatship-unbuilt-'));
  try {
    await mkdir(join(root, 'gateway', 'src'), { recursive: true });
    await writeFile(join(root, 'gateway', 'src', 'main.ts'), 'export {};\n');
    const launcher = await launch({ FLATSHIP_SERVICES_ROOT: root });
    const { code } = await launcher.exited;
    expect(code).toBe(1);
    const line = oneLine(launcher.output());
    expect(line).toBe(
      `flatship: not built: gateway (${join(root, 'gateway', 'dist', 'main.js')}); run \`npm run build\` (make start builds whatever changed by itself)`,
    );
    expect(existsSync(join(dataDir, 'pg'))).toBe(false);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a DATA_DIR that cannot be used is one line naming the directory and the fix', async () => {
  const file = join(dataDir, 'a-file');
  await writeFile(file, 'not a directory');
  const launcher = await launch({ DATA_DIR: join(file, 'data') });
  const { code } = await launcher.exited;
  expect(code).toBe(1);
  const line = oneLine(launcher.output());
  expect(line).toContain(`DATA_DIR ${join(file, 'data')} cannot be used: a part of the path is a file`);
  expect(line).toContain('Choose a directory you can write to');
});

test('a stop signal that arrives twice at once (make passes on what its process group got) still stops gracefully', async () => {
  const launcher = await launch({});
  await waitForReadyBlock(launcher, 60_000);
  const run = await readRunFile(dataDir);
  launcher.child.kill('SIGTERM');
  launcher.child.kill('SIGTERM');
  const { code } = await launcher.exited;
  expect(code).toBe(0);
  expect(alivePids(allPids(run))).toEqual([]);
  // The graceful path ran to its end: nothing left locked, PostgreSQL shut down cleanly.
  expect(existsSync(join(dataDir, 'launcher.pid'))).toBe(false);
  expect(existsSync(join(dataDir, 'run.json'))).toBe(false);
  expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  expect(launcher.output()).toMatch(/Stopping Flatship \(SIGTERM\)/);
});
