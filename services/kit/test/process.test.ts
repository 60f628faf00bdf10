import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { freePort, spawnService, waitFor, waitUntilUp } from '../src/testing';

const TALKER = fileURLToPath(new URL('./fixtures/talker.mjs', import.meta.url));

describe('spawnService', () => {
  test('runs an entry given as a file URL, collects stdout and stderr and resolves with the exit code', async () => {
    const p = spawnService(new URL('./fixtures/talker.mjs', import.meta.url), {
      OUT_LINE: 'parcel one',
      ERR_LINE: 'parcel two',
      EXIT_CODE: '3',
    });
    expect(await p.exited).toBe(3);
    expect(p.logs()).toContain('out: parcel one');
    expect(p.logs()).toContain('err: parcel two');
    expect(p.stderr()).toBe('err: parcel two\n');
    expect(p.name).toBe('talker');
  });

  test('passes only the given environment, and stop() signals and resolves with the end', async () => {
    process.env.LEAKED = 'from the test runner';
    try {
      const port = await freePort();
      const p = spawnService(TALKER, { LISTEN_PORT: String(port) });
      const res = await waitUntilUp(`http://127.0.0.1:${port}/healthz`, p);
      expect(await res.json()).toEqual({ status: 'ok', leaked: null });
      expect(await p.stop()).toBeNull();
      expect((await p.exit).signal).toBe('SIGTERM');
    } finally {
      delete process.env.LEAKED;
    }
  });
});

describe('waitUntilUp', () => {
  test('fails with the output when the process exits before answering', async () => {
    const p = spawnService(TALKER, { ERR_LINE: 'DATABASE_URL is required but not set', EXIT_CODE: '78' });
    await expect(waitUntilUp(`http://127.0.0.1:${await freePort()}/readyz`, p)).rejects.toThrow(
      /talker exited \(code 78\) before .*\/readyz answered:\n[\s\S]*err: DATABASE_URL is required but not set/,
    );
  });

  test('keeps polling while the answer does not count as up, then gives up, kills the process and shows its output', async () => {
    const port = await freePort();
    const p = spawnService(TALKER, { LISTEN_PORT: String(port), HEALTH_STATUS: '503', OUT_LINE: 'still starting' });
    // Started (its line written) and answering 503 before the wait starts, however long this machine takes to
    // start a process: the wait then sees nothing but answers that do not count as up.
    await waitFor(
      'the talker to start and answer',
      async () =>
        p.logs().includes('out: still starting') &&
        (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 503,
    );
    const startedAt = Date.now();
    await expect(waitUntilUp(`http://127.0.0.1:${port}/readyz`, p, { timeoutMs: 600 })).rejects.toThrow(
      /talker did not answer .*\/readyz within 600 ms:\n[\s\S]*out: still starting/,
    );
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(600);
    expect((await p.exit).signal).toBe('SIGKILL');
  });

  test('waits for its own condition on top of the answer', async () => {
    const port = await freePort();
    const p = spawnService(TALKER, { LISTEN_PORT: String(port) });
    let polls = 0;
    const res = await waitUntilUp(`http://127.0.0.1:${port}/readyz`, p, {
      intervalMs: 20,
      isUp: (r) => r.ok && ++polls >= 3,
    });
    expect(res.status).toBe(200);
    expect(polls).toBe(3);
    await p.stop();
  });

  test('a name given at spawn is the one failures use; a dist/main.js is named after its workspace', async () => {
    const named = spawnService(TALKER, { STAY: '1' }, { name: 'the label worker' });
    const built = spawnService('/repo/services/orders/dist/main.js', {});
    try {
      expect(named.name).toBe('the label worker');
      expect(built.name).toBe('orders');
    } finally {
      await Promise.all([named.stop('SIGKILL'), built.stop('SIGKILL')]);
    }
  });
});
