import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { freePort } from '../src/testing';

// A real process built like every service (createServiceApp + runService), signalled as Kubernetes would.
const FIXTURE = fileURLToPath(new URL('./fixtures/slow-service.ts', import.meta.url));

interface Proc {
  child: ChildProcess;
  base: string;
  logs: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

async function start(env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: { PATH: process.env.PATH, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited early:\n${out}`);
    const ok = await fetch(`${base}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { child, base, logs: () => out, exited };
    if (Date.now() > deadline) throw new Error(`the service did not become ready:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('SIGTERM', () => {
  test('readiness turns 503 at once, the request in flight finishes, and the process exits 0 within the grace period', async () => {
    const p = await start({ SLOW_MS: '1500', SHUTDOWN_TIMEOUT_MS: '5000', SHUTDOWN_DRAIN_MS: '600' });
    const slow = fetch(`${p.base}/slow`).then(async (r) => ({ status: r.status, body: await r.json() }));
    await new Promise((r) => setTimeout(r, 200));
    const signalledAt = Date.now();
    p.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 150));

    const ready = await fetch(`${p.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'slow-service is shutting down',
    });
    // Still serving while load balancers catch up.
    expect((await fetch(`${p.base}/healthz`)).status).toBe(200);

    expect(await slow).toEqual({ status: 200, body: { done: true } });
    const { code, at } = await p.exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(5000);
    expect(p.logs()).toContain('resources closed');
    expect(p.logs()).toContain('shut down cleanly');
  }, 30_000);

  test('a request still running at the end of the grace period does not hold the process: it exits 1 on time', async () => {
    const p = await start({ SLOW_MS: '20000', SHUTDOWN_TIMEOUT_MS: '800', SHUTDOWN_DRAIN_MS: '0' });
    const slow = fetch(`${p.base}/slow`).catch(() => 'cut off');
    await new Promise((r) => setTimeout(r, 200));
    const signalledAt = Date.now();
    p.child.kill('SIGTERM');
    const { code, at } = await p.exited;
    expect(code).toBe(1);
    expect(at - signalledAt).toBeGreaterThanOrEqual(700);
    expect(at - signalledAt).toBeLessThan(3000);
    expect(p.logs()).toContain('shutdown timed out; exiting');
    expect(await slow).toBe('cut off');
  }, 30_000);
});
