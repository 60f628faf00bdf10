import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type FakeUsps, startFakeUsps } from '../src/testing/fake-usps';

let fake: FakeUsps;
beforeEach(async () => {
  fake = await startFakeUsps();
});
afterEach(async () => {
  await fake.close();
});

async function token(): Promise<string> {
  const res = await fetch(`${fake.url}/oauth2/v3/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // USPS's Postman example sends the client-credentials grant as JSON; the fake takes that as well as a form.
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: fake.credentials.clientId,
      client_secret: fake.credentials.clientSecret,
    }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
  expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
  return body.access_token;
}

const post = async (path: string, bearer: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** The ErrorMessage every spec declares. */
const specError = (status: number, parameter?: string) => ({
  apiVersion: expect.any(String),
  error: {
    code: String(status),
    message: expect.any(String),
    errors: [
      expect.objectContaining({
        status: String(status),
        detail: expect.any(String),
        ...(parameter ? { source: { parameter } } : {}),
      }),
    ],
  },
});

describe('the fake USPS token endpoint answers as OAuth does (RFC 6749 §5.2)', () => {
  const ask = (fields: Record<string, string>) =>
    fetch(`${fake.url}/oauth2/v3/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  test('client credentials it does not know: 401 invalid_client, in the words the real one uses', async () => {
    const res = await ask({ grant_type: 'client_credentials', client_id: 'who', client_secret: 'what' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed.' });
  });

  test('a refusal set up by a test comes in the same shape, never in the v3 ErrorMessage', async () => {
    fake.fail('oauth', { kind: 'status', status: 401 }, { kind: 'status', status: 400, detail: 'Bad grant' });
    const refused = await ask({ grant_type: 'client_credentials' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'invalid_client', error_description: 'Injected HTTP 401' });
    const bad = await ask({ grant_type: 'client_credentials' });
    expect(await bad.json()).toEqual({ error: 'invalid_request', error_description: 'Bad grant' });
  });
});

describe('the fake USPS checks requests against the specs', () => {
  test('no token, or a token it no longer takes: 401 with WWW-Authenticate', async () => {
    const res = await fetch(`${fake.url}/tracking/v3/tracking/9400100000000000000000`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const bearer = await token();
    fake.expireTokens();
    expect(
      (
        await fetch(`${fake.url}/addresses/v3/address?streetAddress=1+Main&state=DC&city=Washington`, {
          headers: { authorization: `Bearer ${bearer}` },
        })
      ).status,
    ).toBe(401);
  });

  test('a label without the payment token, or without its required fields, is a 400 in the spec’s shape', async () => {
    const bearer = await token();
    const noPayment = await post('/labels/v3/label', bearer, {});
    expect(noPayment.status).toBe(400);
    expect(await noPayment.json()).toEqual(specError(400, 'X-Payment-Authorization-Token'));

    const pay = await post('/payments/v3/payment-authorization', bearer, {
      roles: [
        {
          roleName: 'PAYER',
          CRID: fake.credentials.crid,
          MID: fake.credentials.mid,
          manifestMID: fake.credentials.manifestMid,
          accountType: 'EPS',
          accountNumber: fake.credentials.epsAccount,
        },
        {
          roleName: 'LABEL_OWNER',
          CRID: fake.credentials.crid,
          MID: fake.credentials.mid,
          manifestMID: fake.credentials.manifestMid,
        },
      ],
    });
    const { paymentAuthorizationToken } = (await pay.json()) as { paymentAuthorizationToken: string };
    const headers = {
      'x-payment-authorization-token': paymentAuthorizationToken,
      'x-idempotency-key': '8be4df61-93ca-11d2-aa0d-00e098032b8c',
    };
    const address = {
      firstName: 'Nick',
      lastName: 'Fury',
      streetAddress: '2700 S Jefferson Ave',
      city: 'St. Louis',
      state: 'MO',
      ZIPCode: '63104',
    };
    const pkg = {
      mailClass: 'USPS_GROUND_ADVANTAGE',
      rateIndicator: 'SP',
      weightUOM: 'lb',
      weight: 0.5,
      dimensionsUOM: 'in',
      length: 9,
      height: 6,
      width: 0.25,
      processingCategory: 'NONSTANDARD',
      mailingDate: new Date().toISOString().slice(0, 10),
      extraServices: [],
      destinationEntryFacilityType: 'NONE',
    };

    const missingZip = await post(
      '/labels/v3/label',
      bearer,
      { toAddress: { ...address, ZIPCode: undefined }, fromAddress: address, packageDescription: pkg },
      headers,
    );
    expect(await missingZip.json()).toEqual(specError(400, 'toAddress.ZIPCode'));
    const noWeight = await post(
      '/labels/v3/label',
      bearer,
      { toAddress: address, fromAddress: address, packageDescription: { ...pkg, weight: undefined } },
      headers,
    );
    expect(await noWeight.json()).toEqual(specError(400, 'packageDescription.weight'));
    const extra = await post(
      '/labels/v3/label',
      bearer,
      { toAddress: address, fromAddress: address, packageDescription: pkg, carrier: 'x' },
      headers,
    );
    expect(await extra.json()).toEqual(specError(400, 'carrier'));
    const badKey = await post(
      '/labels/v3/label',
      bearer,
      { toAddress: address, fromAddress: address, packageDescription: pkg },
      { ...headers, 'x-idempotency-key': 'label-1' },
    );
    expect(await badKey.json()).toEqual(specError(400, 'X-Idempotency-Key'));

    // The spec's own GroundAdvantageRequest example is a label.
    const ok = await post(
      '/labels/v3/label',
      bearer,
      { toAddress: address, fromAddress: address, packageDescription: pkg },
      headers,
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(fake.purchases).toBe(1);
  });

  test('payment roles must name the account and the label owner it knows', async () => {
    const bearer = await token();
    const res = await post('/payments/v3/payment-authorization', bearer, {
      roles: [
        {
          roleName: 'PAYER',
          CRID: fake.credentials.crid,
          accountType: 'EPS',
          accountNumber: fake.credentials.epsAccount,
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(specError(400, 'roles'));
  });

  test('prices refuse a property BaseRatesQuery does not have; addresses need a street and a state', async () => {
    const bearer = await token();
    const price = await post('/prices/v3/base-rates/search', bearer, { originZIPCode: '20024', foo: 1 });
    expect(await price.json()).toEqual(specError(400, 'foo'));
    const address = await fetch(`${fake.url}/addresses/v3/address?state=DC`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(address.status).toBe(400);
    // The Addresses examples: a 404 whose message says what is wrong, with no errors list.
    const nowhere = await fetch(
      `${fake.url}/addresses/v3/address?streetAddress=1+Nowhere+Rd&state=DC&city=Washington`,
      { headers: { authorization: `Bearer ${bearer}` } },
    );
    expect(nowhere.status).toBe(404);
    expect(await nowhere.json()).toEqual({
      apiVersion: 'v3',
      error: { code: '404', message: 'There is no match for the address requested.', errors: [] },
    });
  });
});

test('a test in another process reads what was sold from GET /__fake/state', async () => {
  const bearer = await token();
  await fetch(`${fake.url}/tracking/v3/tracking/9400100000000000000000`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  const state = (await (await fetch(`${fake.url}/__fake/state`)).json()) as Record<string, unknown>;
  expect(state).toMatchObject({ purchases: 0, labels: [], requests: { oauth: 1, tracking: 1 } });
});
