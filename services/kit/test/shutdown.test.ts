import { fileURLToPath } from 'node:url';
import { describe, expect, onTestFinished, test } from 'vitest';
import { freePort, type ServiceProcess, spawnService, waitFor, waitUntilUp } from '../src/testing';

// A real process built like every service (createServiceApp + runService), signalled as Kubernetes would.
const FIXTURE = fileURLToPath(new URL('./fixtures/slow-service.ts', import.meta.url));

async function start(env: Record<string, string>): Promise<ServiceProcess & { base: string }> {
  const port = await freePort();
  const p = spawnService(FIXTURE, { PORT: String(port), ...env }, { nodeArgs: ['--import', 'tsx'] });
  // A test that fails part-way leaves no process behind (one holding a request never ends by itself).
  onTestFinished(() => void p.stop('SIGKILL'));
  const base = `http://127.0.0.1:${port}`;
  await waitUntilUp(`${base}/readyz`, p, { timeoutMs: 20_000, intervalMs: 50 });
  return { ...p, base };
}

/** Sends a request to /slow (held by the fixture until SIGUSR2) and waits until the service has it in hand. */
async function slowRequest<T>(
  p: ServiceProcess & { base: string },
  settle: (r: Promise<Response>) => Promise<T>,
): Promise<{ answer: Promise<T> }> {
  const answer = settle(fetch(`${p.base}/slow`));
  await waitFor('the slow request to start', () => p.logs().includes('slow request started'));
  return { answer };
}

describe('SIGTERM', () => {
  test('readiness turns 503 at once, the request in flight finishes, and the process exits 0 within the grace period', async () => {
    // The drain is long enough for the test to look at /readyz and /healthz in it however busy the machine is.
    const p = await start({ SHUTDOWN_TIMEOUT_MS: '30000', SHUTDOWN_DRAIN_MS: '3000' });
    const { answer: slow } = await slowRequest(p, async (r) => {
      const res = await r;
      return { status: res.status, body: await res.json() };
    });
    p.child.kill('SIGTERM');

    let ready = await fetch(`${p.base}/readyz`);
    // 200 only until the process has taken the signal in.
    for (const deadline = Date.now() + 15_000; ready.status === 200 && Date.now() < deadline; ) {
      await ready.body?.cancel();
      ready = await fetch(`${p.base}/readyz`);
    }
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'slow-service is shutting down',
    });
    // Still serving while load balancers catch up.
    expect((await fetch(`${p.base}/healthz`)).status).toBe(200);

    // After the drain the server stops taking requests, and waits for the one in flight.
    await waitFor('the server to close', async () => {
      const res = await fetch(`${p.base}/healthz`).catch(() => null);
      await res?.body?.cancel();
      return res === null || res.status === 503;
    });
    expect(p.child.exitCode).toBeNull();
    p.child.kill('SIGUSR2');
    expect(await slow).toEqual({ status: 200, body: { done: true } });
    // Exit 0 is the clean end: past the grace period the process exits 1.
    expect((await p.exit).code).toBe(0);
    expect(p.logs()).toContain('resources closed');
    expect(p.logs()).toContain('shut down cleanly');
  }, 60_000);

  test('a request still running at the end of the grace period does not hold the process: it exits 1 on time', async () => {
    const p = await start({ SHUTDOWN_TIMEOUT_MS: '800', SHUTDOWN_DRAIN_MS: '0' });
    // Never released: only the grace period ends the process.
    const { answer: slow } = await slowRequest(p, (r) => r.catch(() => 'cut off'));
    const signalledAt = Date.now();
    p.child.kill('SIGTERM');
    const { code, at } = await p.exit;
    expect(code).toBe(1);
    expect(at - signalledAt).toBeGreaterThanOrEqual(700);
    expect(p.logs()).toContain('shutdown timed out; exiting');
    expect(p.logs()).not.toContain('shut down cleanly');
    expect(await slow).toBe('cut off');
  }, 30_000);
});
