import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import type { ServiceApp } from '@flatship/kit';
import { BODY_LIMITS, BULK_MAX_ROWS } from '@flatship/proto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { GATEWAY_MESSAGES } from '../src/messages';
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
const TOO_LARGE = { code: 'PAYLOAD_TOO_LARGE', message: GATEWAY_MESSAGES.payloadTooLarge };

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
}

interface Call {
  method?: string;
  path: string;
  headers?: Record<string, string | number>;
  /** Sent at once, or after 100 Continue when `expectContinue`; an array is sent chunked, piece by piece. */
  body?: string | Buffer | Buffer[];
  expectContinue?: boolean;
}

/** One request over a real socket, the way curl or a script would send it. */
function call(c: Call): Promise<Answer> {
  const url = new URL(c.path, gateway.url);
  const headers: Record<string, string | number> = { token, ...c.headers };
  if (Array.isArray(c.body)) headers['transfer-encoding'] = 'chunked';
  else if (c.body !== undefined) headers['content-length'] = Buffer.byteLength(c.body);
  if (c.expectContinue) headers.expect = '100-continue';
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = http.request(url, { method: c.method ?? 'POST', headers, agent: false });
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

  test('a body over the route limit is refused with 413 before the client sends it', async () => {
    const res = await call({
      path: '/api/orders/v2',
      headers: json,
      body: Buffer.alloc(2 * MiB, 'a'),
      expectContinue: true,
    });
    expect(res.continued).toBe(false);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual(TOO_LARGE);
    expect(orders.seen).toHaveLength(0);
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

/**
 * A raw connection to the gateway: the test decides exactly what is sent and
 * when, and reads the answers off the wire, so "the connection carries the
 * next request" is checked whatever a client library would do.
 */
async function openConnection() {
  const { port, hostname } = new URL(gateway.url);
  const socket = net.connect(Number(port), hostname);
  await once(socket, 'connect');
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  return {
    write: (data: string | Buffer) => socket.write(data),
    /** Waits (15 s at most) for `n` complete answers and returns them. */
    async answers(n: number): Promise<{ status: number; head: string; body: string }[]> {
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
        const answers = parseAnswers(received);
        if (answers.length >= n) return answers;
        if (closed) throw new Error(`the gateway closed the connection after: ${received.slice(0, 500)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no answer ${n} within 15 s: ${received.slice(0, 500)}`);
    },
    close: () => socket.destroy(),
  };
}

/** The complete answers in `raw` (every answer here has a Content-Length); 100 Continue is skipped. */
function parseAnswers(raw: string) {
  const answers: { status: number; head: string; body: string }[] = [];
  let rest = raw;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return answers;
    const head = rest.slice(0, end);
    const status = Number(head.split(' ')[1]);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (rest.length < end + 4 + length) return answers;
    if (status !== 100) answers.push({ status, head, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
}

/** The head of a request carrying a JSON body; without `length` the body is chunked. */
const head = (method: string, path: string, length?: number) =>
  `${method} ${path} HTTP/1.1\r\nHost: gateway\r\ntoken: ${token}\r\ncontent-type: application/json\r\n${
    length === undefined ? 'transfer-encoding: chunked' : `content-length: ${length}`
  }\r\n\r\n`;
const chunk = (data: Buffer) =>
  Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
const LAST_CHUNK = '0\r\n\r\n';
/** A plain call made on the same connection afterwards. */
const nextCall = () => `GET /api/orders/u1 HTTP/1.1\r\nHost: gateway\r\ntoken: ${token}\r\n\r\n`;

describe('oversized bodies', () => {
  test('a declared length over the route limit is a 413 before the body is sent, and the connection stays usable', async () => {
    const c = await openConnection();
    try {
      const size = BODY_LIMITS.default + 1;
      c.write(head('POST', '/api/orders/v2', size));
      const [refused] = await c.answers(1);
      expect(refused?.status).toBe(413);
      expect(JSON.parse(refused!.body)).toEqual(TOO_LARGE);
      expect(refused?.head.toLowerCase()).not.toContain('connection: close');
      // The client, not having read the answer yet, sends the body it announced, then its next call.
      c.write(Buffer.alloc(size, 'a'));
      c.write(nextCall());
      const answers = await c.answers(2);
      expect(answers[1]?.status).toBe(200);
      expect(orders.seen.map((s) => s.method)).toEqual(['GET']);
    } finally {
      c.close();
    }
  });

  test('a client announcing far more than it may send is answered and then disconnected, not read for ever', async () => {
    const c = await openConnection();
    try {
      c.write(head('POST', '/api/orders/v2', 1024 * MiB));
      const [refused] = await c.answers(1);
      expect(refused?.status).toBe(413);
      expect(refused?.head.toLowerCase()).toContain('connection: close');
    } finally {
      c.close();
    }
  });

  test('a chunked body is counted as it streams and cut with 413 past the limit; the connection stays usable', async () => {
    const c = await openConnection();
    try {
      c.write(head('POST', '/api/orders/v2'));
      for (let sent = 0; sent <= BODY_LIMITS.default; sent += 64 * 1024) c.write(chunk(Buffer.alloc(64 * 1024, 'a')));
      const [refused] = await c.answers(1);
      expect(refused?.status).toBe(413);
      expect(JSON.parse(refused!.body)).toEqual(TOO_LARGE);
      // The service never received a whole request.
      expect(orders.seen).toHaveLength(0);
      // The client finishes its body, then makes its next call.
      c.write(chunk(Buffer.alloc(64 * 1024, 'a')));
      c.write(LAST_CHUNK);
      c.write(nextCall());
      const answers = await c.answers(2);
      expect(answers[1]?.status).toBe(200);
      // The next call went the same way afterwards: had the cut body reached the service, it would be there first.
      expect(orders.seen.map((s) => s.method)).toEqual(['GET']);
    } finally {
      c.close();
    }
  });

  test('a chunked body within the limit is forwarded whole', async () => {
    const pieces = Array.from({ length: 4 }, (_, i) => Buffer.alloc(32 * 1024, String(i)));
    const res = await call({ path: '/api/orders/v2', headers: json, body: pieces });
    expect(res.status).toBe(200);
    expect(orders.seen[0]?.body).toBe(Buffer.concat(pieces).toString('utf8'));
  });

  // The SKU upload route allows 8 MiB at the edge; this stand-in auth keeps kit's 1 MiB everywhere.
  test("a body the gateway lets through but the service refuses gets the service's 413, not a 503", async () => {
    const c = await openConnection();
    try {
      const size = 2 * MiB;
      c.write(head('POST', '/api/auth/add-sku/u1', size));
      c.write(Buffer.alloc(size, 'a'));
      c.write(nextCall());
      const [refused, next] = await c.answers(2);
      expect(refused?.status).toBe(413);
      expect(JSON.parse(refused!.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect(next?.status).toBe(200);
    } finally {
      c.close();
    }
  });

  test("the service's 413 is relayed for a chunked body too", async () => {
    const c = await openConnection();
    try {
      c.write(head('POST', '/api/auth/add-sku/u1'));
      for (let i = 0; i < 32; i++) c.write(chunk(Buffer.alloc(64 * 1024, 'a')));
      c.write(LAST_CHUNK);
      c.write(nextCall());
      const [refused, next] = await c.answers(2);
      expect(refused?.status).toBe(413);
      expect(JSON.parse(refused!.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect(next?.status).toBe(200);
    } finally {
      c.close();
    }
  });

  test('a body sent to a service that is down gets its 503 at once, and the connection stays usable', async () => {
    const c = await openConnection();
    try {
      // Far more than the sockets in between can hold, so the gateway must read it through.
      const size = 12 * MiB;
      c.write(head('POST', '/api/orders/price/v2/bulk', size));
      c.write(Buffer.alloc(size, 'a'));
      c.write(nextCall());
      const [down, next] = await c.answers(2);
      expect(down?.status).toBe(503);
      expect(next?.status).toBe(200);
    } finally {
      c.close();
    }
  });

  test('a full bulk order (the most rows one may have) is within the limit of the bulk process route', async () => {
    const body = bulkOrder(BULK_MAX_ROWS);
    const res = await call({ path: '/api/orders/bulk/process/u1', headers: json, body, expectContinue: true });
    expect(res.status).toBe(200);
    expect(orders.seen[0]?.body.length).toBe(body.length);
  });
});

describe('calls without a body', () => {
  test('a GET that says Content-Length: 0 (as some clients do) is forwarded, not refused with 503', async () => {
    const res = await call({ method: 'GET', path: '/api/orders/u1', headers: { 'content-length': 0 } });
    expect(res.status).toBe(200);
    expect(orders.seen.map((s) => s.method)).toEqual(['GET']);
  });

  test('a DELETE with an empty body is forwarded too', async () => {
    const res = await call({ method: 'DELETE', path: '/api/orders/u1', headers: { 'content-length': 0 } });
    expect(res.status).not.toBe(503);
    expect(orders.seen.map((s) => s.method)).toEqual(['DELETE']);
  });
});
