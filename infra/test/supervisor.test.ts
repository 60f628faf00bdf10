import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../src/paths';
import { createSupervisor, summarise } from '../src/supervisor';
import { eventually } from './helpers';

test('only warnings and worse reach the console, as one line with the service name', () => {
  expect(summarise('auth', JSON.stringify({ level: 30, msg: 'request completed' }))).toBeNull();
  expect(summarise('auth', JSON.stringify({ level: 40, msg: 'PAYMENTS_URL is not set' }))).toBe(
    'auth WARN PAYMENTS_URL is not set',
  );
  expect(summarise('orders', JSON.stringify({ level: 50, msg: 'request failed', err: { message: 'boom' } }))).toBe(
    'orders ERROR request failed: boom',
  );
  expect(summarise('gateway', JSON.stringify({ level: 60, msg: 'cannot listen' }))).toBe('gateway FATAL cannot listen');
  expect(summarise('auth', 'not json at all')).toBeNull();
});

test('a crashing service is restarted with a doubling backoff up to the cap', async () => {
  const logsDir = await mkdtemp(join(tmpdir(), 'flatship-supervisor-'));
  const printed: string[] = [];
  const supervisor = createSupervisor({
    logsDir,
    print: (line) => printed.push(line),
    onFatal: () => {},
    initialBackoffMs: 50,
    maxBackoffMs: 200,
  });
  try {
    supervisor.start({
      name: 'crashy',
      cwd: REPO_ROOT,
      entry: join(REPO_ROOT, 'infra', 'test', 'fixtures', 'crash', 'main.js'),
      env: { ...process.env, FIXTURE_EXIT_CODE: '3' } as Record<string, string>,
      port: 0,
    });
    await eventually(async () => (printed.length >= 5 ? true : undefined), 30_000, 'five restarts');
  } finally {
    await supervisor.stopAll(1000);
    await rm(logsDir, { recursive: true, force: true });
  }
  expect(printed.slice(0, 5)).toEqual([
    'crashy exited with code 3; restarting in 0.05s',
    'crashy exited with code 3; restarting in 0.1s',
    'crashy exited with code 3; restarting in 0.2s',
    'crashy exited with code 3; restarting in 0.2s',
    'crashy exited with code 3; restarting in 0.2s',
  ]);
});

test('a service that stayed up long enough starts again from the shortest delay', async () => {
  const logsDir = await mkdtemp(join(tmpdir(), 'flatship-supervisor-'));
  const printed: string[] = [];
  const supervisor = createSupervisor({
    logsDir,
    print: (line) => printed.push(line),
    onFatal: () => {},
    initialBackoffMs: 50,
    maxBackoffMs: 400,
    // Every run of the fixture takes longer than this to start and exit, so each counts as stable.
    stableAfterMs: 1,
  });
  try {
    supervisor.start({
      name: 'steady',
      cwd: REPO_ROOT,
      entry: join(REPO_ROOT, 'infra', 'test', 'fixtures', 'crash', 'main.js'),
      env: { ...process.env } as Record<string, string>,
      port: 0,
    });
    await eventually(async () => (printed.length >= 3 ? true : undefined), 30_000, 'three restarts');
  } finally {
    await supervisor.stopAll(1000);
    await rm(logsDir, { recursive: true, force: true });
  }
  expect(new Set(printed.slice(0, 3))).toEqual(new Set(['steady exited with code 1; restarting in 0.05s']));
});
