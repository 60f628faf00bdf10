import { sign as cryptoSign } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createServiceApp } from '../src/app';
import { createLogger } from '../src/logger';
import { generateTokenKeys } from '../src/testing/keys';

const keys = generateTokenKeys();

/** A real EdDSA JWT, as auth issues them. */
function jwt(claims: object = { sub: 'u1', role: 'admin', ver: 1 }): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const data = `${b64({ alg: 'EdDSA', typ: 'JWT' })}.${b64(claims)}`;
  return `${data}.${cryptoSign(null, Buffer.from(data), keys.privateKey).toString('base64url')}`;
}

/** Every character percent-encoded, as no browser would but an attacker might. */
const encodeAll = (s: string) =>
  [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

function capture() {
  let text = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { logger: createLogger('test', 'debug', sink), text: () => text };
}

/** The signature part is what makes a token usable: it must never be written, whole or in part of 20+ characters. */
function expectNoSecret(written: string, secret: string) {
  expect(written).not.toContain(secret);
  const sig = secret.split('.').at(-1) ?? secret;
  expect(written).not.toContain(sig.slice(0, 20));
  expect(written).not.toContain(encodeAll(sig.slice(0, 20)));
  for (const line of written.split('\n').filter(Boolean)) JSON.parse(line);
}

const T = jwt();
const RESET = 'mJ3q8Yx0LxF9vQ2hKp7sT1uWz4nR6cB5dE8gA0iO2kM';

describe('request lines carry no token, however the URL spells it', () => {
  test.each([
    ['query token', `/api/things?token=${T}`],
    ['percent-encoded name', `/api/things?%74oken=${T}`],
    ['the name encoded twice', `/api/things?%2574oken=${T}`],
    ['repeated parameter', `/api/things?token=x&token=${T}`],
    ['upper case', `/api/things?TOKEN=${T}`],
    ['mixed case', `/api/things?ToKeN=${T}`],
    ['another name', `/api/things?access=${T}`],
    ['encoded value', `/api/things?token=${encodeAll(T)}`],
    ['in the path', `/api/things/${T}`],
    ['encoded in the path', `/api/things/${encodeAll(T)}`],
    ['after a semicolon', `/api/things;token=${T}`],
    ['an encoded question mark', `/api/things%3Ftoken=${T}`],
    ['a reset link', `/reset-password?token=${RESET}`],
  ])('%s', async (_name, url) => {
    const { logger, text } = capture();
    const app = createServiceApp({ name: 'test', logger });
    // A catch-all, as the gateway's: a long token in the path must still reach a route, and the log.
    app.get('/api/*', async () => ({ ok: true }));
    try {
      await app.inject({ url });
    } finally {
      await app.close();
    }
    const written = text();
    expect(written).toContain('"req":');
    expectNoSecret(written, url.includes(RESET) ? RESET : T);
  });

  test('the path is kept, the query is not', async () => {
    const { logger, text } = capture();
    const app = createServiceApp({ name: 'test', logger });
    app.get('/api/things', async () => ({ ok: true }));
    try {
      await app.inject({ url: '/api/things?limit=5&token=abc', headers: { 'x-request-id': 'r-1' } });
    } finally {
      await app.close();
    }
    const line = text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((l) => l.req);
    expect(line.req).toEqual({ method: 'GET', url: '/api/things?[redacted]', id: 'r-1' });
  });
});

describe('no token reaches a line through any other field', () => {
  test('headers logged by hand: token, authorization, cookie, internal secret', () => {
    const { logger, text } = capture();
    logger.info(
      {
        headers: {
          token: T,
          authorization: `Bearer ${T}`,
          cookie: `session=${T}`,
          'x-internal-secret': 'internal-secret-0123456789',
        },
      },
      'what came in',
    );
    logger.info({ req: { headers: { authorization: 'token btcpay-api-key-123456' } } }, 'raw request');
    const written = text();
    expectNoSecret(written, T);
    expect(written).not.toContain('internal-secret-0123456789');
    expect(written).not.toContain('btcpay-api-key-123456');
  });

  test('a carrier API key quoted in free text or a field named like nothing secret', () => {
    const { logger, text } = capture();
    const production = 'EZAK0123456789abcdef0123456789abcdef';
    const test = 'EZTKfedcba9876543210fedcba9876543210';
    logger.error({ err: new Error(`request failed for key ${production}`), note: test }, `retrying with ${test}`);
    const written = text();
    expect(written).not.toContain(production);
    expect(written).not.toContain(test);
    expect(written).not.toMatch(/EZ[AT]K[0-9a-f]{8}/);
    for (const line of written.split('\n').filter(Boolean)) JSON.parse(line);
  });

  test('fields named like secrets, at any depth', () => {
    const { logger, text } = capture();
    logger.warn(
      {
        token: RESET,
        mail: { link: `https://ship.example/reset-password?token=${RESET}` },
        btcpay: { apiKey: 'btcpay-api-key-abcdef', webhookSecret: 'whsec-abcdef-123456' },
        deep: { a: { b: { downloadToken: 'dl-secret-value-123456' } } },
      },
      'careless line',
    );
    const written = text();
    for (const secret of [RESET, 'btcpay-api-key-abcdef', 'whsec-abcdef-123456', 'dl-secret-value-123456']) {
      expect(written).not.toContain(secret);
    }
    expect(written).toContain('reset-password?token=[redacted]');
  });

  test('error messages and stacks that quote a token or a URL with one', () => {
    const { logger, text } = capture();
    logger.error({ err: new Error(`upstream refused GET /api/orders/download/v2/a.pdf?token=${T}`) }, 'proxy failed');
    logger.error({ err: new Error(`jwt malformed: ${T}`) }, 'verify failed');
    logger.error(`Route GET:/api/x?%74oken=${encodeAll(T)} not found`);
    logger.error({ err: new Error(`'/api/x/${encodeAll(T)}%zz' is not a valid url component`) }, 'bad url');
    expectNoSecret(text(), T);
  });

  test('ordinary lines are left as they are', () => {
    const { logger, text } = capture();
    logger.info({ orderId: '0b0e6c1e-4f7e-4d38-9d7e-0cbd1c1d0a11', tokenVersion: 3, hasSignature: true }, 'order 50%');
    const line = JSON.parse(text());
    expect(line).toMatchObject({
      orderId: '0b0e6c1e-4f7e-4d38-9d7e-0cbd1c1d0a11',
      tokenVersion: 3,
      hasSignature: true,
      msg: 'order 50%',
    });
  });
});
