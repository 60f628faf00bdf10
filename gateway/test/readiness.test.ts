import type { ServiceApp } from '@flatship/kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildGateway } from '../src/app';
import { createUserDirectory, deadAddress, gatewayDeps, type StandInService, startStandInService } from './helpers';

let auth: StandInService;
let orders: StandInService;
let app: ServiceApp;

beforeAll(async () => {
  [auth, orders] = await Promise.all([startStandInService('auth'), startStandInService('orders')]);
  app = await buildGateway(
    gatewayDeps({ upstreams: { auth: auth.url, orders: orders.url }, tokenState: createUserDirectory().tokenState }),
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await Promise.all([auth.close(), orders.close()]);
});

describe('health and readiness', () => {
  test('healthz answers while the process is up, whatever the services say', async () => {
    auth.ready = false;
    try {
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      auth.ready = true;
    }
  });

  test('readyz is 200 when every configured service is ready (unconfigured ones do not count)', async () => {
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
  });

  test('readyz is 503 naming exactly the services that are not ready, then 200 once they are', async () => {
    orders.ready = false;
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
      expect(res.json().message).toContain('orders');
      expect(res.json().message).not.toContain('auth');
    } finally {
      orders.ready = true;
    }
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  test('a service that is down or hangs makes readyz 503 within the timeout', async () => {
    const hung = await import('node:net').then(
      (net) =>
        new Promise<{ url: string; close(): void }>((resolve) => {
          // Accepts connections and never answers.
          const server = net.createServer(() => {});
          server.listen(0, '127.0.0.1', () => {
            const { port } = server.address() as { port: number };
            resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
          });
        }),
    );
    const gw = await buildGateway(
      gatewayDeps({
        upstreams: { auth: auth.url, payments: await deadAddress(), admin: hung.url },
        tokenState: createUserDirectory().tokenState,
        // The one timeout covers the healthy service's answer too: seconds, so auth answers within it however busy
        // the machine is.
        upstreamReadyTimeoutMs: 5_000,
      }),
    );
    try {
      // The hung service never answers: an answer at all (rather than this test's own time-out) is the proof
      // that the check gave up on it, whatever the machine's speed.
      const res = await gw.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(/admin/);
      expect(res.json().message).toMatch(/payments/);
      expect(res.json().message).not.toMatch(/auth/);
    } finally {
      await gw.close();
      hung.close();
    }
  });

  test('processes listed in READY_ALSO hold readiness back too, named like services', async () => {
    const worker = await startStandInService('label-worker');
    const gw = await buildGateway(
      gatewayDeps({
        upstreams: { auth: auth.url },
        readyAlso: { 'label-worker': worker.url, btcpay: await deadAddress() },
        tokenState: createUserDirectory().tokenState,
      }),
    );
    try {
      worker.ready = false;
      const res = await gw.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(/label-worker/);
      expect(res.json().message).toMatch(/btcpay/);
    } finally {
      await gw.close();
      await worker.close();
    }
  });
});
