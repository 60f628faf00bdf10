import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isAppError } from '../src/errors';
import { createInternalClient } from '../src/internal';

let server: Server;
let baseUrl: string;
const seen: { method?: string; url?: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url === '/internal/silent') return; // never answers
      if (req.url === '/internal/refused') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'USER_NOT_FOUND', message: 'No such user' }));
        return;
      }
      if (req.url === '/internal/empty') {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echoed: body ? JSON.parse(body) : null }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

test('sends JSON with the secret and the request id, and reads JSON back, on kept-alive connections', async () => {
  const client = createInternalClient({ baseUrl, secret: 's'.repeat(16) });
  const sockets = new Set<unknown>();
  server.on('connection', (s) => sockets.add(s));
  for (let i = 0; i < 3; i++) {
    const answer = await client.request('POST', '/internal/echo', { body: { n: i, text: 'é' }, requestId: `r-${i}` });
    expect(answer).toEqual({ echoed: { n: i, text: 'é' } });
  }
  expect(await client.request('GET', '/internal/empty')).toBeUndefined();
  const last = seen.at(-2)!;
  expect(last.method).toBe('POST');
  expect(last.headers['x-internal-secret']).toBe('s'.repeat(16));
  expect(last.headers['x-request-id']).toBe('r-2');
  expect(last.headers['content-type']).toBe('application/json');
  // One connection carried all four calls.
  expect(sockets.size).toBeLessThanOrEqual(1);

  // The service dropped its idle connections (a restart, its keep-alive timeout): the next call still goes through.
  server.closeIdleConnections();
  expect(await client.request('POST', '/internal/echo', { body: { n: 9 } })).toEqual({ echoed: { n: 9 } });
});

test("turns the callee's { code, message } into an AppError", async () => {
  const client = createInternalClient({ baseUrl, secret: 's'.repeat(16) });
  const e = await client.request('GET', '/internal/refused').catch((x: unknown) => x);
  expect(isAppError(e) && { code: e.code, message: e.message }).toEqual({
    code: 'USER_NOT_FOUND',
    message: 'No such user',
  });
});

test('a service that does not answer in time, or is not there, is SERVICE_UNAVAILABLE', async () => {
  const client = createInternalClient({ baseUrl, secret: 's'.repeat(16) });
  const slow = await client.request('GET', '/internal/silent', { timeoutMs: 200 }).catch((x: unknown) => x);
  expect(isAppError(slow) && slow.code).toBe('SERVICE_UNAVAILABLE');
  const gone = createInternalClient({ baseUrl: 'http://127.0.0.1:9', secret: 's'.repeat(16) });
  const refused = await gone.request('GET', '/internal/anything').catch((x: unknown) => x);
  expect(isAppError(refused) && refused.code).toBe('SERVICE_UNAVAILABLE');
});
