import { describe, expect, test } from 'vitest';
import { CARRIER_ERRORS } from '../src/carrier-messages';
import { labelRequest, uspsRig } from './fixtures/usps';

const HOUR = 3600_000;

describe('USPS tokens', () => {
  test('one access token and one payment token serve many calls', async () => {
    const { carrier, fake } = await uspsRig();
    for (const key of ['a', 'b', 'c'])
      expect((await carrier.purchaseLabel(labelRequest({ idempotencyKey: key }))).ok).toBe(true);
    expect(fake.count('oauth')).toBe(1);
    expect(fake.count('payment')).toBe(1);
  });

  test('the access token is replaced shortly before it expires, so no call meets a 401', async () => {
    const { carrier, fake, clock } = await uspsRig({ fake: { tokenLifetimeS: 3600 } });
    expect((await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'a' }))).ok).toBe(true);
    clock.advance(HOUR - 10 * 60_000);
    expect((await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'b' }))).ok).toBe(true);
    expect(fake.count('oauth')).toBe(1);
    clock.advance(8 * 60_000); // two minutes left: inside the renewal margin
    expect((await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'c' }))).ok).toBe(true);
    expect(fake.count('oauth')).toBe(2);
    expect(fake.requests.filter((r) => r.status === 401)).toEqual([]);
  });

  test('the payment authorization is replaced before its eight hours are up', async () => {
    const { carrier, fake, clock } = await uspsRig({ fake: { tokenLifetimeS: 24 * 3600 } });
    expect((await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'a' }))).ok).toBe(true);
    clock.advance(8 * HOUR - 2 * 60_000);
    expect((await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'b' }))).ok).toBe(true);
    expect(fake.count('payment')).toBe(2);
    expect(fake.requests.filter((r) => r.status === 401)).toEqual([]);
  });

  test('a token USPS stopped taking early: one 401, one refresh, the call once more, one label', async () => {
    const { carrier, fake } = await uspsRig();
    expect((await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'a' }))).ok).toBe(true);
    fake.expireTokens();
    const label = await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'b' }));
    expect(label.ok).toBe(true);
    expect(fake.count('oauth')).toBe(2);
    expect(fake.requests.filter((r) => r.route === 'label').map((r) => r.status)).toEqual([200, 401, 200]);
    expect(fake.purchases).toBe(2);
  });

  test('an expired payment authorization is renewed the same way', async () => {
    const { carrier, fake } = await uspsRig();
    expect((await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'a' }))).ok).toBe(true);
    fake.expirePaymentTokens();
    expect((await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'b' }))).ok).toBe(true);
    expect(fake.count('payment')).toBe(2);
    expect(fake.requests.filter((r) => r.route === 'label').map((r) => r.status)).toEqual([200, 401, 200]);
  });

  test('a second 401 is the answer: exactly one refresh and one retry, then an account problem', async () => {
    const { carrier, fake } = await uspsRig();
    fake.fail('label', { kind: 'unauthorized' }, { kind: 'unauthorized' }, { kind: 'unauthorized' });
    const result = await carrier.purchaseLabel(labelRequest());
    expect(result).toEqual({
      ok: false,
      code: 'ACCOUNT_PROBLEM',
      message: CARRIER_ERRORS.ACCOUNT_PROBLEM.message(),
      retryable: true,
      nothingBought: true,
    });
    expect(fake.count('label')).toBe(2);
    expect(fake.count('oauth')).toBe(2);
    expect(fake.count('payment')).toBe(2);
  });

  test('callers refused together share one refresh', async () => {
    const { carrier, fake } = await uspsRig();
    expect((await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'first' }))).ok).toBe(true);
    fake.expireTokens();
    fake.expirePaymentTokens();
    const results = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((k) => carrier.purchaseLabel(labelRequest({ idempotencyKey: k }))),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(fake.count('oauth')).toBe(2);
    expect(fake.count('payment')).toBe(2);
    expect(fake.purchases).toBe(6);
  });

  test('callers arriving while the first token is being fetched wait for that one', async () => {
    const { carrier, fake } = await uspsRig();
    const results = await Promise.all(
      ['a', 'b', 'c'].map((k) => carrier.purchaseLabel(labelRequest({ idempotencyKey: k }))),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(fake.count('oauth')).toBe(1);
    expect(fake.count('payment')).toBe(1);
  });

  test('client credentials USPS refuses: an account problem for the customer, the cause in the log', async () => {
    const { carrier, fake, logs } = await uspsRig({ carrier: { clientSecret: 'not-the-secret' } });
    const result = await carrier.purchaseLabel(labelRequest());
    expect(result).toMatchObject({ ok: false, code: 'ACCOUNT_PROBLEM', retryable: true, nothingBought: true });
    expect(fake.count('label')).toBe(0);
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'error', msg: 'USPS refused the client credentials' }),
    );
    // USPS's own words, from its OAuth answer (RFC 6749), are kept.
    expect(JSON.stringify(logs)).toContain('invalid_client: Client authentication failed.');
  });

  test('payment roles USPS refuses (an EPS account it does not know): an account problem', async () => {
    const { carrier, fake, logs } = await uspsRig({ carrier: { epsAccount: '999' } });
    expect(await carrier.purchaseLabel(labelRequest())).toMatchObject({ ok: false, code: 'ACCOUNT_PROBLEM' });
    expect(fake.count('label')).toBe(0);
    expect(JSON.stringify(logs)).toContain('not active in the Enterprise Payment System');
  });

  test('a token endpoint that fails: USPS is unavailable, retryable', async () => {
    const { carrier, fake } = await uspsRig({ carrier: { http: { maxRetries: 1 } } });
    fake.fail('oauth', { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    // No token, so no label request went out: certainly nothing bought.
    expect(await carrier.purchaseLabel(labelRequest())).toMatchObject({
      ok: false,
      code: 'UNAVAILABLE',
      retryable: true,
      nothingBought: true,
    });
  });

  test('an unreadable token answer: unavailable, and the log holds no part of it', async () => {
    const { carrier, fake, logs } = await uspsRig();
    fake.fail('oauth', { kind: 'malformed' });
    expect(await carrier.purchaseLabel(labelRequest())).toMatchObject({ ok: false, code: 'UNAVAILABLE' });
    expect(JSON.stringify(logs)).not.toContain('truncated');
  });
});

describe('secrets stay out of the log', () => {
  test('through refusals, failures and renewals, no line holds the client secret or a token', async () => {
    const { carrier, fake, logs, clock } = await uspsRig({ carrier: { timeoutMs: 300, http: { maxRetries: 1 } } });
    expect((await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'a' }))).ok).toBe(true);
    fake.expireTokens();
    fake.fail('label', { kind: 'unauthorized' }, { kind: 'unauthorized' });
    await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'b' }));
    fake.fail('label', { kind: 'malformed' });
    await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'c' }));
    fake.fail('label', { kind: 'stall' }, { kind: 'stall' });
    await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'd' }));
    fake.fail('payment', { kind: 'status', status: 400 });
    fake.expirePaymentTokens();
    await carrier.purchaseLabel(labelRequest({ idempotencyKey: 'e' }));
    clock.advance(2 * HOUR);
    await carrier.verifyAddress?.({ ...labelRequest().to, street1: '1 Nowhere Rd' });
    await carrier.checkConnection?.();

    const tokens = new Set<string>();
    for (const r of fake.requests) {
      const bearer = /^Bearer (.+)$/.exec(r.headers.authorization ?? '')?.[1];
      if (bearer) tokens.add(bearer);
      const pay = r.headers['x-payment-authorization-token'];
      if (typeof pay === 'string') tokens.add(pay);
    }
    expect(tokens.size).toBeGreaterThan(2);
    const written = JSON.stringify(logs);
    expect(logs.length).toBeGreaterThan(5);
    expect(written).not.toContain(fake.credentials.clientSecret);
    for (const token of tokens) {
      expect(written).not.toContain(token);
      expect(written).not.toContain(token.split('.')[2]);
    }
  });
});
