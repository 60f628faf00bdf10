import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../src/net';
import { BUSY_HEAP, LEAN_HEAP } from '../src/services';
import {
  type LauncherProcess,
  logTails,
  runLauncher,
  stopLauncher,
  waitForReadyBlock,
} from '../src/testing/start-stack';
import { alivePids, allPids, buildFixtureStack, eventually, FIXTURE_ROOT, readRunFile, readyzStatus } from './helpers';

// Launcher mechanics against a two-service stand-in, so they are tested
// whatever state the product's own services are in.

describe('launcher (fixture services)', () => {
  let dataDir: string;
  let port: number;
  let running: LauncherProcess | undefined;
  const env = () => ({
    DATA_DIR: dataDir,
    PORT: String(port),
    FLATSHIP_SERVICES_ROOT: FIXTURE_ROOT,
    INTERNAL_PORTS: 'random',
    BUILD_WEB: 'never',
    ADMIN_PASSWORD: '',
  });
  const url = () => `http://127.0.0.1:${port}`;

  async function start(): Promise<LauncherProcess> {
    const launcher = runLauncher(env());
    running = launcher;
    try {
      await waitForReadyBlock(launcher, 60_000);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${launcher.output()}\n${await logTails(dataDir)}`);
    }
    return launcher;
  }

  beforeAll(async () => {
    await buildFixtureStack();
    dataDir = await mkdtemp(join(tmpdir(), 'flatship-launcher-test-'));
    port = await freePort();
  });
  afterAll(async () => {
    if (running) await stopLauncher(running);
    await rm(dataDir, { recursive: true, force: true });
  });

  test('a bad PORT stops the launcher with a message naming PORT', async () => {
    const launcher = runLauncher({ ...env(), PORT: 'eighty' });
    const { code } = await launcher.exited;
    expect(code).not.toBe(0);
    expect(launcher.output()).toMatch(/PORT="eighty" is invalid/);
  });

  test('starts every service, prints the URL once and shows a generated admin password once', async () => {
    const launcher = await start();
    const out = launcher.output();
    expect(out.match(/Flatship is running at (\S+)/)?.[1]).toBe(`http://localhost:${port}`);
    expect(out.match(/Flatship is running at/g)).toHaveLength(1);
    expect(out).toMatch(/Admin sign-in: admin@flatship\.local \/ [A-Za-z0-9]{20} \(shown once;/);
    // Warnings reach the console as one line prefixed with the service; info lines stay in the log files.
    expect(out).toContain('auth WARN fixture auth started with a deliberate warning');
    expect(out).not.toMatch(/"level":30/);
    expect(await readyzStatus(url())).toBe(200);
    expect(await readFile(join(dataDir, 'logs', 'auth.log'), 'utf8')).toMatch(/"level":30/);
    expect((await stat(join(dataDir, 'secrets.json'))).mode & 0o777).toBe(0o600);
    const res = await fetch(`${url()}/api/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'kept across restarts' }),
    });
    expect(res.status).toBe(200);
  });

  test("each service's process starts with its V8 heap settings", async () => {
    const run = await readRunFile(dataDir);
    const argsOf = async (pid: number) => (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    const auth = await argsOf(run.services.auth!.pid!);
    const gateway = await argsOf(run.services.gateway!.pid!);
    // The options come before the entry, where node reads them as its own.
    expect(auth.slice(1, -2)).toEqual([...LEAN_HEAP]);
    expect(gateway.slice(1, -2)).toEqual([...BUSY_HEAP]);
    expect(auth.at(-2)).toMatch(/auth\/dist\/main\.js$/);
  });

  test('a service killed with SIGKILL is restarted and the stack becomes ready again', async () => {
    const before = await readRunFile(dataDir);
    const authPid = before.services.auth!.pid!;
    process.kill(authPid, 'SIGKILL');
    await running!.waitFor(/auth was killed by SIGKILL; restarting in 1s/, 5000);
    const newPid = await eventually(
      async () => {
        const pid = (await readRunFile(dataDir)).services.auth!.pid;
        return pid && pid !== authPid ? pid : undefined;
      },
      10_000,
      'a new auth process',
    );
    expect(newPid).not.toBe(authPid);
    await eventually(async () => ((await readyzStatus(url())) === 200 ? true : undefined), 20_000, 'readiness');
  });

  test('PostgreSQL killed with SIGKILL is restarted on its port with its data, and the services carry on', async () => {
    const before = await readRunFile(dataDir);
    process.kill(before.postgres.pid, 'SIGKILL');
    await running!.waitFor(/postgres was killed by SIGKILL; restarting in 1s/, 5000);
    await running!.waitFor(/postgres restarted \(pid \d+\)/, 30_000);
    const after = await eventually(
      async () => {
        const run = await readRunFile(dataDir);
        return run.postgres.pid !== before.postgres.pid ? run : undefined;
      },
      10_000,
      'a new PostgreSQL pid in run.json',
    );
    expect(after.postgres.port).toBe(before.postgres.port);
    // The same service process, no restart: it reconnects by itself.
    expect(after.services.auth!.pid).toBe(before.services.auth!.pid);
    const notes = await eventually(
      async () => {
        const res = await fetch(`${url()}/api/notes`).catch(() => undefined);
        return res?.ok ? ((await res.json()) as { text: string }[]) : undefined;
      },
      20_000,
      'the notes to be readable again',
    );
    expect(notes).toEqual([{ text: 'kept across restarts' }]);
    expect(await readyzStatus(url())).toBe(200);
  });

  test('SIGTERM stops every service and PostgreSQL, leaving no process behind', async () => {
    const pids = allPids(await readRunFile(dataDir));
    const { code } = await stopLauncher(running!);
    expect(code).toBe(0);
    expect(alivePids(pids)).toEqual([]);
  });

  test('a second start keeps the data and does not show the admin password again', async () => {
    const launcher = await start();
    expect(launcher.output()).not.toContain('Admin sign-in');
    const notes = (await (await fetch(`${url()}/api/notes`)).json()) as { text: string }[];
    expect(notes).toEqual([{ text: 'kept across restarts' }]);
  });

  test('a second launcher on the same data directory refuses to start', async () => {
    const second = runLauncher({ ...env(), PORT: String(await freePort()) });
    const { code } = await second.exited;
    expect(code).toBe(1);
    expect(second.output()).toContain(`Flatship is already running from ${dataDir}`);
    expect(await readyzStatus(url())).toBe(200);
  });

  test('when the launcher itself is killed outright, its services and PostgreSQL still exit', async () => {
    const pids = allPids(await readRunFile(dataDir));
    running!.child.kill('SIGKILL');
    await running!.exited;
    await eventually(async () => (alivePids(pids).length === 0 ? true : undefined), 15_000, 'every process to exit');
  });
});
