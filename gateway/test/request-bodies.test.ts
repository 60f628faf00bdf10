import http from 'node:http';
import type { Socket } from 'node:net';
import type { ServiceApp } from '@flatship/kit';
import { BODY_LIMITS } from '@flatship/proto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  createUserDirectory,
  deadAddress,
  gatewayDeps,
  type StandInService,
  startGateway,
  startStandInService,
} from './helpers';

// Socket behaviour (100 Continue, early answers, keep-alive reuse) only shows
// over a real connection, so these tests talk HTTP to a listening gateway.

const MiB = 1024 * 1024;

let auth: StandInService;
let orders: StandInService;
let gateway: { app: ServiceApp; url: string };
const users = createUserDirectory();
let token: string;

beforeAll(async () => {
  [auth, orders] = await Promise.all([
    // kit's default limit, like the real auth service outside the SKU upload route.
    startStandInService('auth'),
    startStandInService('orders', { bodyLimit: BODY_LIMITS.bulkProcess }),
  ]);
  gateway = await startGateway(
    gatewayDeps({
      upstreams: { auth: auth.url, orders: orders.url, 'services-pricing': await deadAddress() },
      tokenState: users.tokenState,
    }),
  );
  token = users.add({ id: 'u1' });
});
afterAll(async () => {
  await gateway.app.close();
  await Promise.all([auth.close(), orders.close()]);
});
beforeEach(() => {
  auth.seen.length = 0;
  orders.seen.length = 0;
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Whether the gateway said 100 Continue before answering. */
  continued: boolean;
  socket: Socket;
  reusedSocket: boolean;
  ms: number;
}

interface Call {
  method?: string;
  path: string;
  headers?: Record<string, string | number>;
  /** Sent at once, or after 100 Continue when `expectContinue`; an array is sent chunked, piece by piece. */
  body?: string | Buffer | Buffer[];
  expectContinue?: boolean;
  agent?: http.Agent;
}

/** One request over a real socket, the way curl or a script would send it. */
function call(c: Call): Promise<Answer> {
  const started = Date.now();
  const url = new URL(c.path, gateway.url);
  const headers: Record<string, string | number> = { token, ...c.headers };
  if (Array.isArray(c.body)) headers['transfer-encoding'] = 'chunked';
  else if (c.body !== undefined) headers['content-length'] = Buffer.byteLength(c.body);
  if (c.expectContinue) headers.expect = '100-continue';
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = http.request(url, { method: c.method ?? 'POST', headers, agent: c.agent ?? false });
    const sendBody = () => {
      if (Array.isArray(c.body)) {
        // Not awaiting 'drain': the gateway may stop reading and answer early, which is the point.
        for (const piece of c.body) req.write(piece);
        req.end();
      } else {
        req.end(c.body);
      }
    };
    req.on('continue', () => {
      continued = true;
      sendBody();
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          continued,
          socket: req.socket as Socket,
          reusedSocket: req.reusedSocket,
          ms: Date.now() - started,
        });
        // A refused Expect request never sent its body; nothing more will go on this request.
        if (c.expectContinue && !continued) req.destroy();
      });
    });
    req.on('error', reject);
    if (c.expectContinue) req.flushHeaders();
    else sendBody();
  });
}

/** A bulk order of `rows` shipments as the web app sends it to POST /api/orders/bulk/process/{userId}. */
function bulkOrder(rows: number): string {
  const orderData = Array.from({ length: rows }, (_, i) => ({
    courier: 'usps',
    service_name: 'USPS Ground Advantage',
    manifested: false,
    sender: {
      order_id: `112-${String(1_000_000 + i)}-7654321`,
      sender_name: 'Flatship Warehouse West',
      sender_phone: '555-010-2000',
      sender_company: 'Flatship Fulfilment LLC',
      sender_address1: '1200 Industrial Parkway, Building C',
      sender_address2: 'Dock 14',
      sender_city: 'Sacramento',
      sender_state_province: 'CA',
      sender_zip_postal: '95814',
      sender_country: 'US',
    },
    receiver: {
      receiver_name: `Customer Number ${i}`,
      receiver_phone: '555-010-3000',
      receiver_company: 'Residential',
      receiver_address1: `${100 + i} Long Meadow Road`,
      receiver_address2: 'Apartment 4B',
      receiver_city: 'Springfield',
      receiver_state_province: 'IL',
      receiver_zip_postal: '62704',
      receiver_country: 'US',
    },
    package: {
      order_item_id: `${String(40_000_000_000 + i)}`,
      quantity: 1,
      sku_number: `SKU-${i % 50}`,
      package_length: 10,
      package_width: 8,
      package_height: 4,
      package_weight: 2,
      package_weight_unit: 'LB',
      package_description: 'Stainless steel insulated water bottle, 32 oz, with straw lid',
      package_reference1: 'Amazon order',
      package_reference2: 'Gift',
    },
  }));
  return JSON.stringify({ orderId: '6f1c2f8e-1d2b-4c3a-9e8f-0a1b2c3d4e5f', orderData, source: 'amazon' });
}

const json = { 'content-type': 'application/json' };

describe('Expect: 100-continue', () => {
  test('a 1,100-row bulk order sent the way curl sends it (over 1 MiB, with Expect) reaches orders whole', async () => {
    const body = bulkOrder(1100);
    expect(Buffer.byteLength(body)).toBeGreaterThan(MiB);
    const res = await call({ path: '/api/orders/bulk/process/u1', headers: json, body, expectContinue: true });
    expect(res.continued).toBe(true);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ service: 'orders', url: '/api/orders/bulk/process/u1' });
    expect(orders.seen).toHaveLength(1);
    expect(orders.seen[0]?.body).toBe(body);
    // The gateway has answered the expectation itself; the service gets a plain request.
    expect(orders.seen[0]?.headers.expect).toBeUndefined();
  });

  test('a call refused for another reason is not asked for its body either', async () => {
    const res = await call({
      path: '/api/orders/v2',
      headers: { ...json, token: 'not-a-jwt' },
      body: '{}',
      expectContinue: true,
    });
    expect(res.continued).toBe(false);
    expect(res.status).toBe(401);
  });
});
