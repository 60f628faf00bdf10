import { type ServiceApp, startManagementListener } from '@flatship/kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createUserDirectory, gatewayDeps, type StandInService, startGateway, startStandInService } from './helpers';

// The gateway's port is the one the internet reaches: metrics and the route listing live on a listener of their own.
let auth: StandInService;
let orders: StandInService;
let gateway: { app: ServiceApp; url: string };
let management: { port: number; close(): Promise<void> };
const users = createUserDirectory();

beforeAll(async () => {
  [auth, orders] = await Promise.all([startStandInService('auth'), startStandInService('orders')]);
  gateway = await startGateway(
    gatewayDeps({ upstreams: { auth: auth.url, orders: orders.url }, tokenState: users.tokenState }),
  );
  management = await startManagementListener(gateway.app, { port: 0 });
});
afterAll(async () => {
  await management.close();
  await gateway.app.close();
  await Promise.all([auth.close(), orders.close()]);
});

describe('the public port', () => {
  test.each(['/metrics', '/routez'])('answers GET %s with 404', async (path) => {
    const res = await fetch(`${gateway.url}${path}`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { code: string };
    expect(body.code).toBe('NOT_FOUND');
    expect(JSON.stringify(body)).not.toContain('flatship_');
  });
});

describe('the management listener', () => {
  test('serves the Prometheus page, with the durations of requests the gateway proxied by route pattern', async () => {
    const token = users.add({ id: '11111111-1111-4111-8111-111111111111' });
    const proxied = await fetch(`${gateway.url}/api/orders/bulk?page=2`, { headers: { token } });
    expect(proxied.status).toBe(200);

    const res = await fetch(`http://127.0.0.1:${management.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const page = await res.text();
    expect(page).toMatch(
      /flatship_http_request_duration_seconds_count\{service="gateway",method="GET",route="\/api\/orders\/\*",status_class="2xx"\} 1/,
    );
    expect(page).not.toContain('/api/orders/bulk');
    // The public answers to /metrics above are counted too, under no route.
    expect(page).toContain('route="unmatched",status_class="4xx"');
  });
});
