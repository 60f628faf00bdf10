import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  carrierAccountProblems,
  createCarrierSet,
  EASYPOST_SIGNATURE_HEADER,
  easyPostSettings,
  easyPostSignature,
  type LabelRequest,
} from '@flatship/carriers';
import { type FakeEasyPost, startFakeEasyPost } from '@flatship/carriers/testing';
import { ConfigError, createDb, createMetricsRegistry, flatshipMetrics, type Knex, loadConfig } from '@flatship/kit';
import { metricSample } from '@flatship/kit/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OrdersConfigSchema } from '../src/config';
import { createCarrierMemory } from '../src/db/carrier-memory';
import { ORDERS_SCHEMA } from '../src/db/migrations';
import { checkRefunds } from '../src/domain/refunds';
import { type Stack, startStack } from './stack';
import { CONFIG_ENV_REQUIRED, orderBody, outboxRows, postOrder, user } from './support';

// Real postage through a live carrier, as orders runs it: EasyPost (its fake, on loopback) with a production key,
// which the adapter accepts only with a durable memory of its shipments: the orders database's carrier_memory.

const WEBHOOK_SECRET = 'whsec-tracker-test';
let fake: FakeEasyPost;
let s: Stack;
let db: Knex;
const settings = () =>
  easyPostSettings({
    EASYPOST_API_KEY: fake.productionKey,
    EASYPOST_API_BASE_URL: fake.url,
    EASYPOST_TIMEOUT_MS: 1000,
    EASYPOST_MAX_RETRIES: 0,
  });

beforeAll(async () => {
  fake = await startFakeEasyPost();
  s = await startStack({
    carriers: 'easypost',
    carrierSettings: { easypost: settings() },
    easyPostWebhookSecret: WEBHOOK_SECRET,
  });
  db = s.db;
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

const dollarsToCents = (v: unknown) => Math.round(Number(v) * 100);

test('a label bought through EasyPost keeps its carrier, shipment and cost, and label.purchased carries the cost', async () => {
  const u = user(s);
  await s.setBalance(u.id, 10_000);
  const res = await postOrder(s, u, orderBody(u.id));
  expect(res.statusCode, res.body).toBe(201);
  const { orderId, pdfName, tracking_number } = res.json().data;
  expect(fake.buys).toBe(1);

  const row = await db('labels').where({ id: orderId }).first();
  const shipment = fake.shipment(row.carrier_ref) as { tracking_code: string; selected_rate: { rate: string } };
  expect(shipment.tracking_code).toBe(tracking_number);
  expect(row).toMatchObject({
    status: 'completed',
    carrier_id: 'easypost',
    carrier_cost_cents: dollarsToCents(shipment.selected_rate.rate),
  });
  expect(row.carrier_cost_cents).toBeGreaterThan(0);
  // The shipment was kept before it was bought, in the table every buyer shares.
  expect(
    await db('carrier_memory')
      .where({ key: `easypost:shipment:${orderId}` })
      .first('value'),
  ).toEqual({
    value: row.carrier_ref,
  });
  const pdf = await readFile(join(s.filesDir, 'labels', u.id, pdfName));
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

  const event = (await outboxRows(s)).find((e) => e.topic === 'label.purchased' && e.key === u.id);
  expect(event?.value).toMatchObject({
    labelId: orderId,
    priceCents: row.price_cents,
    carrierId: 'easypost',
    carrierCostCents: row.carrier_cost_cents,
  });
});

test('a customer refund of an EasyPost label waits for EasyPost to refund the shipment, then is credited once', async () => {
  const u = user(s);
  await s.setBalance(u.id, 10_000);
  const bought = await postOrder(s, u, orderBody(u.id));
  expect(bought.statusCode, bought.body).toBe(201);
  const { orderId } = bought.json().data;
  const row = await db('labels').where({ id: orderId }).first();
  const before = await s.balanceCents(u.id);

  const res = await s.app.inject({
    method: 'POST',
    url: `/api/orders/labels/${orderId}/refund`,
    headers: { token: u.token },
  });
  expect(res.statusCode, res.body).toBe(200);
  // EasyPost takes a refund as submitted: nothing is credited until it says refunded.
  expect(res.json()).toMatchObject({ refundStatus: 'requested', credited: 0 });
  expect((fake.shipment(row.carrier_ref) as { refund_status: string }).refund_status).toBe('submitted');
  expect(await s.balanceCents(u.id)).toBe(before);

  // The status job asks EasyPost about the shipment (not for a second refund) and credits it.
  const report = await checkRefunds(s.domain, { recheckMs: 0 });
  expect(report).toMatchObject({ refunded: 1 });
  expect((fake.shipment(row.carrier_ref) as { refund_status: string }).refund_status).toBe('refunded');
  expect(await s.balanceCents(u.id)).toBe(before + row.price_cents);
  expect(await db('labels').where({ id: orderId }).first()).toMatchObject({
    status: 'void',
    refund_status: 'refunded',
  });
  expect((await checkRefunds(s.domain, { recheckMs: 0 })).checked).toBe(0);
  expect(await s.balanceCents(u.id)).toBe(before + row.price_cents);
  const refundCalls = fake.requests.filter((r) => r.method === 'POST' && r.path.includes(`${row.carrier_ref}/refund`));
  expect(refundCalls).toHaveLength(1);
});

describe('a purchase cut off after EasyPost bought the label', () => {
  const request = (key: string): LabelRequest => ({
    idempotencyKey: key,
    serviceUid: 'usps_priority_mail',
    from: { name: 'Ada Sender', street1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
    to: { name: 'Bob Receiver', street1: '2 Elm St', city: 'Denver', state: 'CO', zip: '80202', country: 'US' },
    parcel: { length: 10, width: 8, height: 4, weightLb: 2 },
  });

  test('is finished by another process from the shared memory, never bought a second time', async () => {
    const key = crypto.randomUUID();
    // Two processes' carriers (orders and a label worker, or one before and after a crash), each with its own pool.
    const poolA = createDb(s.url, ORDERS_SCHEMA, { max: 2 });
    const poolB = createDb(s.url, ORDERS_SCHEMA, { max: 2 });
    const first = createCarrierSet('easypost', { easypost: settings(), memory: createCarrierMemory(poolA) });
    const second = createCarrierSet('easypost', { easypost: settings(), memory: createCarrierMemory(poolB) });
    try {
      const buysBefore = fake.buys;
      fake.fail({ method: 'POST', path: /\/buy$/ }, { stall: 'after' });
      // EasyPost bought it, the answer never came, and a look-up found nothing readable either.
      fake.fail({ method: 'GET', path: /^\/v2\/shipments\/shp_[0-9a-f]+$/ }, { reset: true }, 1);
      const cut = await first.purchaseLabel(request(key));
      expect(cut).toMatchObject({ ok: false, retryable: true });
      expect(fake.buys).toBe(buysBefore + 1);

      const replay = await second.purchaseLabel(request(key));
      expect(replay.ok).toBe(true);
      expect(fake.buys).toBe(buysBefore + 1);
      const kept = await poolB('carrier_memory')
        .where({ key: `easypost:shipment:${key}` })
        .first('value');
      expect(replay.ok && replay.carrierRef).toBe(kept?.value);
      expect(fake.buysOf(kept?.value as string)).toBe(1);
    } finally {
      await first.close();
      await second.close();
      await poolA.destroy();
      await poolB.destroy();
    }
  });
});

describe('EasyPost tracker webhooks', () => {
  const post = (body: string, headers: Record<string, string>) =>
    s.app.inject({ method: 'POST', url: '/api/orders/webhook/easypost', payload: body, headers });

  test('a signed tracker event moves the label along; an older one arriving late, or an unsigned one, changes nothing', async () => {
    const u = user(s);
    await s.setBalance(u.id, 10_000);
    const bought = await postOrder(s, u, orderBody(u.id));
    expect(bought.statusCode, bought.body).toBe(201);
    const { orderId, tracking_number } = bought.json().data;

    fake.setTracking(
      tracking_number,
      [
        { status: 'pre_transit', message: 'Shipping Label Created', datetime: '2026-12-01T10:00:00Z' },
        { status: 'in_transit', message: 'Arrived at USPS Facility', datetime: '2026-12-02T08:30:00Z' },
      ],
      '2026-12-04',
    );
    const inTransit = fake.trackerEvent(tracking_number, WEBHOOK_SECRET);
    const res = await post(inTransit.body, inTransit.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, updated: 1 });
    const row = await db('labels').where({ id: orderId }).first();
    expect(row.tracking_status).toBe('in_transit');
    expect(row.tracking_events[0]).toMatchObject({ status: 'in_transit', description: 'Arrived at USPS Facility' });
    expect(row.tracking_events).toHaveLength(2);

    // The same event delivered again keeps the row as it is; an older one never steps it back.
    expect((await post(inTransit.body, inTransit.headers)).statusCode).toBe(200);
    fake.setTracking(tracking_number, [
      { status: 'pre_transit', message: 'Shipping Label Created', datetime: '2026-12-01T10:00:00Z' },
    ]);
    const stale = fake.trackerEvent(tracking_number, WEBHOOK_SECRET);
    expect((await post(stale.body, stale.headers)).json()).toEqual({ ok: true, updated: 0 });
    expect((await db('labels').where({ id: orderId }).first()).tracking_status).toBe('in_transit');

    // Not signed with our secret: refused, nothing read.
    const forged = fake.trackerEvent(tracking_number, 'not-our-secret');
    const refused = await post(forged.body, forged.headers);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('ORDERS_WEBHOOK_SIGNATURE');
    expect((await post(inTransit.body, {})).statusCode).toBe(401);
    // A parcel that is not ours is acknowledged, so EasyPost stops sending it.
    fake.setTracking('9400100000000000000000', [
      { status: 'delivered', message: 'Delivered', datetime: '2026-12-03T12:00:00Z' },
    ]);
    const other = fake.trackerEvent('9400100000000000000000', WEBHOOK_SECRET);
    expect((await post(other.body, other.headers)).json()).toEqual({ ok: true, updated: 0 });
  });
});

describe('EasyPost tracker webhooks with values that cannot be used', () => {
  test('are acknowledged, so EasyPost stops sending them, and change nothing', async () => {
    const u = user(s);
    await s.setBalance(u.id, 10_000);
    const bought = await postOrder(s, u, orderBody(u.id));
    const { orderId, tracking_number } = bought.json().data;
    fake.setTracking(tracking_number, [
      { status: 'in_transit', message: 'Arrived at USPS Facility', datetime: '2026-12-02T08:30:00Z' },
    ]);
    const sent = fake.trackerEvent(tracking_number, WEBHOOK_SECRET);
    const odd = (edit: (tracker: Record<string, unknown>) => void) => {
      const event = JSON.parse(sent.body) as { result: Record<string, unknown> };
      edit(event.result);
      const body = JSON.stringify(event);
      return s.app.inject({
        method: 'POST',
        url: '/api/orders/webhook/easypost',
        payload: body,
        headers: {
          'content-type': 'application/json',
          [EASYPOST_SIGNATURE_HEADER]: easyPostSignature(body, WEBHOOK_SECRET),
        },
      });
    };
    for (const res of [
      await odd((t) => {
        t.est_delivery_date = '+275760-09-13T00:00:00.000Z';
      }),
      await odd((t) => {
        t.tracking_details = { status: 'delivered' };
      }),
    ]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ok: true, updated: 0 });
    }
    expect((await db('labels').where({ id: orderId }).first()).tracking_status).toBeNull();
  });

  test('a signed body that is not an EasyPost event at all is acknowledged too', async () => {
    for (const body of ['<html>', '[]', '{"description":"tracker.updated","result":"none"}']) {
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/orders/webhook/easypost',
        payload: body,
        headers: {
          'content-type': 'application/json',
          [EASYPOST_SIGNATURE_HEADER]: easyPostSignature(body, WEBHOOK_SECRET),
        },
      });
      expect(res.statusCode, body).toBe(200);
      expect(res.json()).toEqual({ ok: true, updated: 0 });
    }
  });
});

describe('carrier calls on /metrics', () => {
  test('each HTTP call is timed by carrier and operation, a 429 counted, a failed call counted by status', async () => {
    const registry = createMetricsRegistry('orders');
    const metrics = flatshipMetrics(registry);
    const pool = createDb(s.url, ORDERS_SCHEMA, { max: 2 });
    const carrier = createCarrierSet('easypost', {
      easypost: easyPostSettings({
        EASYPOST_API_KEY: fake.productionKey,
        EASYPOST_API_BASE_URL: fake.url,
        EASYPOST_TIMEOUT_MS: 1000,
        EASYPOST_MAX_RETRIES: 1,
      }),
      memory: createCarrierMemory(pool),
      observeCarrierCalls: (o) => metrics.carrierHttpCall(o),
    });
    try {
      fake.fail({ method: 'POST', path: '/v2/shipments' }, { status: 429, headers: { 'retry-after': '0' } });
      const label = await carrier.purchaseLabel({
        idempotencyKey: crypto.randomUUID(),
        serviceUid: 'usps_ground_advantage',
        from: { name: 'Ada Sender', street1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
        to: { name: 'Bob Receiver', street1: '2 Elm St', city: 'Denver', state: 'CO', zip: '80202', country: 'US' },
        parcel: { length: 10, width: 8, height: 4, weightLb: 1 },
      });
      expect(label.ok).toBe(true);
      fake.fail({ method: 'GET', path: '/v2/users' }, { status: 500 }, 2);
      await expect(carrier.balance()).rejects.toThrow();

      const page = await registry.metrics();
      const sample = (name: string, labels: Record<string, string>) => metricSample(page, name, labels);
      const create = { carrier: 'easypost', operation: 'shipment_create' };
      expect(sample('flatship_carrier_rate_limited_total', create)).toBe(1);
      expect(sample('flatship_carrier_http_duration_seconds_count', { ...create, outcome: 'ok' })).toBe(1);
      expect(
        sample('flatship_carrier_http_duration_seconds_count', {
          carrier: 'easypost',
          operation: 'buy',
          outcome: 'ok',
        }),
      ).toBe(1);
      expect(
        sample('flatship_carrier_http_errors_total', { carrier: 'easypost', operation: 'balance', status: '500' }),
      ).toBe(1);
      expect(page).not.toContain(fake.productionKey);
    } finally {
      await carrier.close();
      await pool.destroy();
    }
  });
});

test('each answer of the carrier is counted by operation and result: labels, refusals by their code, voids by status', async () => {
  const registry = createMetricsRegistry('orders');
  const metrics = flatshipMetrics(registry);
  const pool = createDb(s.url, ORDERS_SCHEMA, { max: 2 });
  const carrier = createCarrierSet('easypost', {
    easypost: easyPostSettings({
      EASYPOST_API_KEY: fake.productionKey,
      EASYPOST_API_BASE_URL: fake.url,
      EASYPOST_TIMEOUT_MS: 1000,
      EASYPOST_MAX_RETRIES: 0,
    }),
    memory: createCarrierMemory(pool),
    observeCarrierResults: (o) => metrics.carrierResult(o),
  });
  const request = () => ({
    idempotencyKey: crypto.randomUUID(),
    serviceUid: 'usps_ground_advantage',
    from: {
      name: 'Ada Sender',
      street1: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      country: 'US' as const,
    },
    to: {
      name: 'Bob Receiver',
      street1: '2 Elm St',
      city: 'Denver',
      state: 'CO',
      zip: '80202',
      country: 'US' as const,
    },
    parcel: { length: 10, width: 8, height: 4, weightLb: 1 },
  });
  try {
    const bought = await carrier.purchaseLabel(request());
    if (!bought.ok) throw new Error(bought.message);
    fake.fail({ method: 'POST', path: '/v2/shipments' }, { status: 429, headers: { 'retry-after': '0' } });
    expect(await carrier.purchaseLabel(request())).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    const voided = {
      idempotencyKey: 'void-metrics',
      trackingNumber: bought.trackingNumber,
      carrierId: 'easypost',
      ...(bought.carrierRef ? { carrierRef: bought.carrierRef } : {}),
    };
    expect(await carrier.voidLabel?.(voided)).toMatchObject({ ok: true, status: 'pending' });
    expect(await carrier.refundStatus?.(voided)).toMatchObject({ ok: true, status: 'refunded' });

    const page = await registry.metrics();
    const count = (operation: string, result: string) =>
      metricSample(page, 'flatship_carrier_results_total', { carrier: 'easypost', operation, result });
    expect(count('purchase', 'ok')).toBe(1);
    expect(count('purchase', 'RATE_LIMITED')).toBe(1);
    expect(count('void', 'pending')).toBe(1);
    expect(count('refund_status', 'refunded')).toBe(1);
  } finally {
    await carrier.close();
    await pool.destroy();
  }
});

describe('the carrier memory table', () => {
  test('keeps the first value for a key when processes race, and put replaces', async () => {
    const pools = [0, 1, 2].map(() => createDb(s.url, ORDERS_SCHEMA, { max: 3 }));
    try {
      const memories = pools.map(createCarrierMemory);
      const key = `race:${crypto.randomUUID()}`;
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (memories[i % 3] as (typeof memories)[number]).keep?.(key, `v${i}`)),
      );
      const held = await memories[0]?.get(key);
      expect(held).toMatch(/^v\d+$/);
      expect(new Set(answers)).toEqual(new Set([held]));

      await memories[1]?.put(key, 'replaced');
      expect(await memories[2]?.get(key)).toBe('replaced');
      expect(await memories[2]?.get(`missing:${key}`)).toBeNull();
    } finally {
      await Promise.all(pools.map((p) => p.destroy()));
    }
  });
});

describe('start-up configuration of a service that buys labels', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(OrdersConfigSchema, { ...CONFIG_ENV_REQUIRED, ...env }, carrierAccountProblems);
      return [];
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as ConfigError).problems;
    }
  };

  test('the sandbox needs no carrier account', () => {
    expect(problemsOf({})).toEqual([]);
    expect(problemsOf({ CARRIERS: 'sandbox-usps' })).toEqual([]);
  });

  test('each enabled live carrier names every variable it misses', () => {
    const problems = problemsOf({ CARRIERS: 'usps,easypost' });
    for (const name of [
      'USPS_CLIENT_ID',
      'USPS_CLIENT_SECRET',
      'USPS_CRID',
      'USPS_MID',
      'USPS_MANIFEST_MID',
      'USPS_EPS_ACCOUNT',
      'EASYPOST_API_KEY',
    ]) {
      expect(problems.some((p) => p.startsWith(name))).toBe(true);
    }
  });

  test('a wrong secret is named without its value', () => {
    const problems = problemsOf({ CARRIERS: 'easypost', EASYPOST_API_KEY: 'sk_live_leaked_value_123' });
    expect(problems.join('\n')).toContain('EASYPOST_API_KEY');
    expect(problems.join('\n')).not.toContain('leaked_value');
  });
});

test('addresses are checked through the EasyPost plugin, its answer in our words', async () => {
  const u = user(s);
  const ask = (address: object) =>
    s.app.inject({
      method: 'POST',
      url: '/api/orders/verify-address',
      headers: { token: u.token },
      payload: { address },
    });
  const before = fake.requests.length;
  const found = await ask({
    name: 'Flatship Returns',
    street1: '417 Montgomery St',
    street2: '5th Floor',
    city: 'San Francisco',
    state: 'CA',
    zip: '94104',
  });
  expect(found.statusCode, found.body).toBe(200);
  expect(found.json()).toMatchObject({
    verdict: 'deliverable',
    address: { street1: '417 MONTGOMERY ST', zip: expect.stringMatching(/^94104-\d{4}$/) },
  });
  const missing = await ask({ street1: '000 unknown street', city: 'Not A City', state: 'CA', zip: '00001' });
  expect(missing.json()).toEqual({ verdict: 'undeliverable', message: 'The address was not found.' });
  const sent = fake.requests.slice(before).filter((r) => r.path === '/v2/addresses');
  expect(sent).toHaveLength(2);
  expect(sent[0]).toMatchObject({ method: 'POST', body: { verify: true } });
});

test("a customer who prints ZPL gets EasyPost's own ZPL, kept with the label and downloaded in its place", async () => {
  const u = user(s);
  await s.setBalance(u.id, 10_000);
  const setting = await s.app.inject({
    method: 'PUT',
    url: `/api/orders/print-settings/${u.id}`,
    headers: { token: u.token },
    payload: { labelFormat: 'zpl-203' },
  });
  expect(setting.statusCode, setting.body).toBe(200);
  const res = await postOrder(s, u, orderBody(u.id));
  expect(res.statusCode, res.body).toBe(201);
  const { pdfName, tracking_number } = res.json().data;

  // Asked of EasyPost at purchase, not rasterised from the PDF: the carrier's fields and barcode, no ^GF image.
  const kept = (await readFile(join(s.filesDir, 'labels', u.id, pdfName.replace(/\.pdf$/, '.zpl')))).toString();
  expect(kept.startsWith('^XA')).toBe(true);
  expect(kept).toContain(`^FD${tracking_number}^FS`);
  expect(kept).not.toContain('^GFA');

  const link = await s.app.inject({
    method: 'POST',
    url: '/api/orders/download-token',
    headers: { token: u.token },
    payload: { path: `/api/orders/download/v2/${pdfName}` },
  });
  expect(link.statusCode, link.body).toBe(200);
  const file = await s.app.inject({ url: link.json().url });
  expect(file.statusCode).toBe(200);
  expect(file.headers['content-disposition']).toContain('.zpl');
  expect(file.body).toBe(kept);
});
