import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { freePort, type ServiceProcess, spawnService, waitUntilUp } from '../src/testing';

// A real process built like every service (createServiceApp + runService), signalled as Kubernetes would.
const FIXTURE = fileURLToPath(new URL('./fixtures/slow-service.ts', import.meta.url));

async function start(env: Record<string, string>): Promise<ServiceProcess & { base: string }> {
  const port = await freePort();
  const p = spawnService(FIXTURE, { PORT: String(port), ...env }, { nodeArgs: ['--import', 'tsx'] });
  const base = `http://127.0.0.1:${port}`;
  await waitUntilUp(`${base}/readyz`, p, { timeoutMs: 20_000, intervalMs: 50 });
  return { ...p, base };
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
    const { code, at } = await p.exit;
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
    const { code, at } = await p.exit;
    expect(code).toBe(1);
    expect(at - signalledAt).toBeGreaterThanOrEqual(700);
    expect(at - signalledAt).toBeLessThan(3000);
    expect(p.logs()).toContain('shutdown timed out; exiting');
    expect(await slow).toBe('cut off');
  }, 30_000);
});
