import knex, { type Knex } from 'knex';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServiceApp, startManagementListener } from '../src/app';
import { createOutbox, createPostgresBus, migrateBus, migrateOutbox } from '../src/bus/index';
import { createInternalClient } from '../src/internal';
import { createMetricsRegistry, flatshipMetrics } from '../src/metrics';
import { createTestDatabase } from '../src/testing/database';

let database: { url: string; drop(): Promise<void> };
let db: Knex;
beforeAll(async () => {
  database = await createTestDatabase('obs');
  db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 4 } });
  await migrateBus(db, 'bus');
  await migrateOutbox(db, 'svc');
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

/** The value of one series (`name{a="1",b="2"}`, labels in any order) in a Prometheus text page; undefined when absent. */
function sample(page: string, series: string): number | undefined {
  const parse = (s: string) => {
    const m = /^([^{ ]+)(?:\{(.*)\})?$/.exec(s);
    return `${m?.[1]}|${(m?.[2] ?? '').split(',').sort().join(',')}`;
  };
  const wanted = parse(series);
  for (const line of page.split('\n')) {
    const space = line.lastIndexOf(' ');
    if (space > 0 && !line.startsWith('#') && parse(line.slice(0, space)) === wanted)
      return Number(line.slice(space + 1));
  }
  return undefined;
}

describe('HTTP request durations', () => {
  test('are labelled by the route pattern, never the raw URL, and by status class', async () => {
    const app = createServiceApp({ name: 'demo', logger: false });
    app.get('/items/:id', { schema: { params: Type.Object({ id: Type.String({ maxLength: 3 }) }) } }, async () => ({}));
    await app.ready();
    await app.inject('/items/123');
    await app.inject('/items/456');
    await app.inject('/items/toolong');
    await app.inject('/no/such/path/42');

    const page = (await app.inject('/metrics')).body;
    const ok =
      'flatship_http_request_duration_seconds_count{service="demo",method="GET",route="/items/:id",status_class="2xx"}';
    const bad =
      'flatship_http_request_duration_seconds_count{service="demo",method="GET",route="/items/:id",status_class="4xx"}';
    expect(sample(page, ok)).toBe(2);
    expect(sample(page, bad)).toBe(1);
    expect(page).toContain('route="unmatched",status_class="4xx"');
    expect(page).not.toContain('/items/123');
    expect(page).not.toContain('/no/such/path');
    await app.close();
  });
});

describe('the registry', () => {
  test('may be made before the app, for what is built first, and is then the one the app serves', async () => {
    const registry = createMetricsRegistry('early');
    flatshipMetrics(registry).bulkOrderFinished({ status: 'completed', submittedAt: new Date(Date.now() - 4000) });
    const app = createServiceApp({ name: 'early', logger: false, metrics: registry });
    expect(app.metrics).toBe(registry);
    const page = (await app.inject('/metrics')).body;
    expect(sample(page, 'flatship_bulk_order_duration_seconds_count{service="early",status="completed"}')).toBe(1);
    expect(sample(page, 'flatship_bulk_order_duration_seconds_bucket{service="early",status="completed",le="2"}')).toBe(
      0,
    );
    expect(sample(page, 'flatship_bulk_order_duration_seconds_bucket{service="early",status="completed",le="5"}')).toBe(
      1,
    );
    await app.close();
  });
});

describe('management routes', () => {
  test('an app with a separate management listener serves /metrics and /routez there, and 404 on its own port', async () => {
    const app = createServiceApp({ name: 'edge', logger: false, management: 'separate' });
    app.get('/api/things', async () => []);
    await app.ready();
    expect((await app.inject('/metrics')).statusCode).toBe(404);
    expect((await app.inject('/routez')).statusCode).toBe(404);

    const management = await startManagementListener(app, { port: 0 });
    try {
      await app.inject('/api/things');
      const res = await fetch(`http://127.0.0.1:${management.port}/metrics`);
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).toContain('service="edge",method="GET",route="/api/things",status_class="2xx"');
      const routes = await (await fetch(`http://127.0.0.1:${management.port}/routez`)).json();
      expect(routes).toEqual({ service: 'edge', routes: [{ method: 'GET', url: '/api/things' }] });
    } finally {
      await management.close();
      await app.close();
    }
  });
});

describe('request ids', () => {
  test('events recorded while handling a request carry its id as a header, and internal calls pass it on', async () => {
    const bus = createPostgresBus({ db, schema: 'bus' });
    // A bus that only records, so the rows stay in the outbox until relayed by hand.
    const outbox = createOutbox({ db, schema: 'svc', bus });
    const callee = createServiceApp({ name: 'callee', logger: false });
    callee.get('/internal/echo-id', async (request) => ({ seen: request.headers['x-request-id'] }));
    await callee.listen({ port: 0, host: '127.0.0.1' });
    const address = callee.server.address();
    const client = createInternalClient({
      baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
      secret: 'x'.repeat(16),
    });

    const app = createServiceApp({ name: 'caller', logger: false });
    app.post('/things', { schema: { body: Type.Object({ name: Type.String() }) } }, async (request) => {
      await db.transaction((trx) => outbox.add(trx, 'thing.created', [{ key: request.body.name, value: {} }]));
      return client.request('GET', '/internal/echo-id');
    });
    await app.ready();
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/things',
        headers: { 'x-request-id': 'req-abc-123' },
        payload: { name: 'one' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ seen: 'req-abc-123' });
      expect(res.headers['x-request-id']).toBe('req-abc-123');

      const rows = await db.withSchema('svc').from('outbox').where({ topic: 'thing.created' });
      expect(rows.map((r) => r.headers)).toEqual([{ 'x-request-id': 'req-abc-123' }]);

      // Recorded outside any request: no header is invented.
      await db.transaction((trx) => outbox.add(trx, 'thing.created', [{ key: 'two', value: {} }]));
      const later = await db.withSchema('svc').from('outbox').where({ key: 'two' }).first();
      expect(later.headers).toEqual({});

      // Relayed, the header reaches the bus message.
      await outbox.flush();
      const [message] = await db.withSchema('bus').from('messages').where({ topic: 'thing.created', key: 'one' });
      expect(message.headers).toEqual({ 'x-request-id': 'req-abc-123' });
    } finally {
      await app.close();
      await callee.close();
      await bus.close();
    }
  });
});

describe('outbox depth', () => {
  test('is counted per schema at each scrape', async () => {
    await migrateOutbox(db, 'svc_depth');
    const bus = createPostgresBus({ db, schema: 'bus' });
    const outbox = createOutbox({ db, schema: 'svc_depth', bus });
    const app = createServiceApp({ name: 'depth', logger: false });
    flatshipMetrics(app.metrics).trackOutboxDepth(outbox.schema, () => outbox.depth());
    const series = 'flatship_outbox_depth{service="depth",schema="svc_depth"}';
    try {
      expect(sample((await app.inject('/metrics')).body, series)).toBe(0);
      await db.transaction((trx) =>
        outbox.add(trx, 'depth.topic', [
          { key: 'a', value: 1 },
          { key: 'b', value: 2 },
          { key: 'c', value: 3 },
        ]),
      );
      expect(sample((await app.inject('/metrics')).body, series)).toBe(3);
      await outbox.flush();
      expect(sample((await app.inject('/metrics')).body, series)).toBe(0);
    } finally {
      await app.close();
      await bus.close();
    }
  });
});
