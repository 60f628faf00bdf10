import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  type CarrierCallObservation,
  CarrierHttpError,
  createCarrierHttp,
  retryAfterMs,
} from '../src/http/carrier-http';

/** A carrier on loopback that answers each request with the next scripted answer. */
type Answer = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let baseUrl: string;
let script: Answer[] = [];
const seen: { method: string; url: string; body: string; headers: IncomingMessage['headers'] }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, headers: req.headers });
      const next = script.shift() ?? ((_q, r) => r.writeHead(200).end('{}'));
      next(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  script = [];
  seen.length = 0;
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => {
  return (_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};
const silent: Answer = () => {};

function client(more: Partial<Parameters<typeof createCarrierHttp>[0]> = {}) {
  const waits: number[] = [];
  const observed: CarrierCallObservation[] = [];
  const http = createCarrierHttp({
    carrier: 'demo',
    baseUrl,
    timeoutMs: 2000,
    sleep: async (ms) => void waits.push(ms),
    random: () => 1,
    observe: (o) => observed.push(o),
    ...more,
  });
  return { http, waits, observed };
}

describe('the carrier HTTP client', () => {
  test('sends JSON to the path under the base URL with the query, and reads the JSON answer', async () => {
    script = [json(201, { id: 'x1' })];
    const { http, observed } = client();
    const res = await http.request({
      operation: 'create',
      method: 'POST',
      path: '/things',
      query: { a: '1', skip: undefined },
      headers: { authorization: 'Bearer t' },
      body: { name: 'n' },
      retry: 'never',
    });
    expect(res.status).toBe(201);
    expect(res.json()).toEqual({ id: 'x1' });
    expect(seen).toMatchObject([{ method: 'POST', url: '/api/things?a=1', body: '{"name":"n"}' }]);
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(seen[0]?.headers.authorization).toBe('Bearer t');
    expect(observed).toMatchObject([{ carrier: 'demo', operation: 'create', status: 201, outcome: 'ok' }]);
  });

  test('a 429 is tried again after the Retry-After it names, then the answer comes back', async () => {
    script = [json(429, {}, { 'retry-after': '2' }), json(200, { ok: 1 })];
    const { http, waits, observed } = client();
    const res = await http.request({ operation: 'label', method: 'POST', path: '/l', body: {}, retry: 'safe' });
    expect(res.json()).toEqual({ ok: 1 });
    expect(waits).toEqual([2000]);
    expect(seen).toHaveLength(2);
    expect(observed).toMatchObject([{ status: 200, outcome: 'ok', rateLimited: 1 }]);
  });

  test('a write sent once (retry never) is not sent again after a 500', async () => {
    script = [json(500, { error: 'boom' })];
    const { http } = client();
    const failure = await http
      .request({ operation: 'buy', method: 'POST', path: '/buy', body: {}, retry: 'never' })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CarrierHttpError);
    expect(failure).toMatchObject({ kind: 'server_error', status: 500 });
    expect(seen).toHaveLength(1);
  });

  test('rate-limit-only goes again after a 429 (the call was not taken) but not after a 503', async () => {
    script = [json(429, {}), json(503, {})];
    const { http, waits } = client();
    const failure = await http
      .request({ operation: 'buy', method: 'POST', path: '/buy', body: {}, retry: 'rate-limit-only' })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: 'server_error', status: 503 });
    expect(seen).toHaveLength(2);
    // Without Retry-After: the back-off's first step (jitter at its top).
    expect(waits).toEqual([250]);
  });

  test('5xx answers are tried again with a doubling back-off, and give up after the retries allowed', async () => {
    script = [json(502, {}), json(503, {}), json(500, {})];
    const { http, waits, observed } = client({ maxRetries: 2 });
    const failure = await http
      .request({ operation: 'track', method: 'GET', path: '/t', retry: 'safe' })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: 'server_error', status: 500 });
    expect(waits).toEqual([250, 500]);
    expect(seen).toHaveLength(3);
    expect(observed).toMatchObject([{ status: 500, outcome: 'server_error' }]);
  });

  test('a Retry-After longer than the longest wait ends the retries at once, as rate limited', async () => {
    script = [json(429, {}, { 'retry-after': '120' })];
    const { http, waits, observed } = client();
    const failure = await http
      .request({ operation: 'label', method: 'POST', path: '/l', body: {}, retry: 'safe' })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: 'rate_limited', status: 429 });
    expect(waits).toEqual([]);
    expect(observed).toMatchObject([{ outcome: 'rate_limited', rateLimited: 1 }]);
  });

  test('no answer within the time-out: a safe call goes again, a call sent once reports a time-out', async () => {
    script = [silent, json(200, { late: false })];
    const safe = client({ timeoutMs: 200 });
    expect((await safe.http.request({ operation: 'track', method: 'GET', path: '/t', retry: 'safe' })).json()).toEqual({
      late: false,
    });

    script = [silent];
    const once = client({ timeoutMs: 200 });
    const failure = await once.http
      .request({ operation: 'buy', method: 'POST', path: '/buy', body: {}, retry: 'never' })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: 'timeout', message: 'demo buy: no answer within 200 ms' });
    expect(once.observed).toMatchObject([{ status: 0, outcome: 'timeout' }]);
  });

  test('a 4xx comes back to the adapter to read; a body that is not JSON is malformed', async () => {
    script = [(_q, res) => res.writeHead(400, { 'content-type': 'text/html' }).end('<html>bad</html>')];
    const { http, observed } = client();
    const res = await http.request({ operation: 'label', method: 'POST', path: '/l', body: {}, retry: 'safe' });
    expect(res.status).toBe(400);
    expect(res.text()).toBe('<html>bad</html>');
    expect(() => res.json()).toThrow(CarrierHttpError);
    expect(observed).toMatchObject([{ status: 400, outcome: 'client_error' }]);
  });

  test('Retry-After reads seconds and HTTP dates', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('0.5')).toBe(500);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:05 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(5000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});
