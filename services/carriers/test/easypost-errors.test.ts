import { afterEach, describe, expect, test } from 'vitest';
import { CARRIER_ERRORS } from '../src/carrier-messages';
import { easyPostErrorBody, type FakeFault } from '../src/testing';
import { type EasyPostRig, easyPostRig, labelRequest, SENDER } from './fixtures/easypost';

let rig: EasyPostRig;
afterEach(async () => {
  await rig?.close();
});

const M = {
  account: CARRIER_ERRORS.ACCOUNT_PROBLEM.message(),
  declined: CARRIER_ERRORS.DECLINED.message('USPS'),
  unavailable: CARRIER_ERRORS.UNAVAILABLE.message('USPS'),
  busy: CARRIER_ERRORS.RATE_LIMITED.message('USPS'),
};

const CREATE = { method: 'POST', path: '/v2/shipments' };
const BUY = { method: 'POST', path: /\/buy$/ };
const ep = (
  status: number,
  code: string,
  errors: unknown[] = [],
  message: unknown = 'EasyPost says no',
): FakeFault => ({
  status,
  body: { error: { code, message, errors } },
});

describe('EasyPost refusals map onto the catalogue, never in EasyPost’s words', () => {
  const cases: [string, { method: string; path: string | RegExp }, FakeFault, object][] = [
    [
      '401 on create',
      CREATE,
      ep(401, 'UNAUTHORIZED'),
      { code: 'ACCOUNT_PROBLEM', retryable: true, message: M.account },
    ],
    ['402 on buy (wallet empty)', BUY, ep(402, 'PAYMENT_REQUIRED'), { code: 'ACCOUNT_PROBLEM', message: M.account }],
    ['403 on buy', BUY, ep(403, 'FORBIDDEN'), { code: 'ACCOUNT_PROBLEM' }],
    ['a billing code on 422', BUY, ep(422, 'CREDIT_CARD.CHARGE.FAILURE'), { code: 'ACCOUNT_PROBLEM' }],
    [
      'the carrier account refused',
      BUY,
      ep(422, 'SHIPMENT.RATE.CARRIER_ACCOUNT_INVALID'),
      { code: 'ACCOUNT_PROBLEM', retryable: true },
    ],
    [
      'postage failure',
      BUY,
      ep(422, 'SHIPMENT.POSTAGE.FAILURE'),
      { code: 'DECLINED', retryable: false, message: M.declined },
    ],
    [
      'an undeliverable recipient',
      CREATE,
      ep(422, 'ADDRESS.VERIFY.FAILURE', [{ field: 'to_address', message: 'Address not found' }]),
      {
        code: 'ADDRESS_UNDELIVERABLE',
        retryable: false,
        message: 'Address validation failed: the recipient address could not be verified.',
      },
    ],
    [
      'an undeliverable sender',
      CREATE,
      ep(422, 'ADDRESS.VERIFY.FAILURE', [{ field: 'from_address.street1', message: 'x' }]),
      {
        code: 'ADDRESS_UNDELIVERABLE',
        message: 'Address validation failed: the sender address could not be verified.',
      },
    ],
    [
      'an incomplete address',
      CREATE,
      ep(422, 'ADDRESS.VERIFY.MISSING_STREET', [{ field: 'to_address', message: 'x' }]),
      { code: 'ADDRESS_INCOMPLETE', message: 'Address validation failed: the recipient address is incomplete.' },
    ],
    [
      'a parcel refused',
      CREATE,
      ep(422, 'PARCEL.PARAMETERS.INVALID'),
      { code: 'WEIGHT_INVALID', message: 'Invalid weight: 2.5 is not a parcel weight.' },
    ],
    [
      'errors given as strings (the Errors page allows it)',
      BUY,
      ep(422, 'SHIPMENT.INVALID_PARAMS', ['parcel is too big', 'bad']),
      { code: 'DECLINED' },
    ],
    [
      'a message given as an object (the Node client allows it)',
      BUY,
      ep(422, 'SHIPMENT.POSTAGE.FAILURE', [], { carrier: ['USPS said no'] }),
      { code: 'DECLINED', message: M.declined },
    ],
    ['an unknown code', BUY, ep(422, 'SOMETHING.NEW'), { code: 'DECLINED' }],
    [
      'a 4xx that is not JSON',
      BUY,
      { status: 400, body: '<html>Bad Request</html>', headers: { 'content-type': 'text/html' } },
      { code: 'DECLINED' },
    ],
    ['500s on create, past the retries', CREATE, { status: 500, body: '' }, { code: 'UNAVAILABLE', retryable: true }],
    ['503 on buy', BUY, ep(503, 'SERVICE_UNAVAILABLE'), { code: 'UNAVAILABLE', message: M.unavailable }],
    ['429 on create, past the retries', CREATE, { status: 429, body: '' }, { code: 'RATE_LIMITED', message: M.busy }],
    ['a malformed answer to create', CREATE, { malformed: true }, { code: 'UNAVAILABLE', retryable: true }],
    ['a dropped connection on create', CREATE, { reset: true }, { code: 'UNAVAILABLE', retryable: true }],
    ['a stalled create', CREATE, { stall: 'before' }, { code: 'UNAVAILABLE', retryable: true }],
  ];

  test.each(cases)('%s', async (_name, match, fault, expected) => {
    rig = await easyPostRig({ settings: { timeoutMs: 1000, maxRetries: 1 } });
    rig.fake.fail(match, fault, 5);
    const result = await rig.carrier.purchaseLabel(labelRequest());
    expect(result).toMatchObject({ ok: false, ...expected });
    if (!result.ok) {
      expect(result.message).not.toMatch(/EasyPost says no|USPS said no|parcel is too big|<html>|HTTP/);
      expect(Object.values(CARRIER_ERRORS).some((e) => e.retryable === result.retryable)).toBe(true);
    }
    expect(rig.fake.buys).toBe(0);
  });

  test('a refusal says when nothing was certainly bought, so a carrier set may ask another carrier', async () => {
    const certain: [string, { method: string; path: string | RegExp }, FakeFault][] = [
      ['credentials refused on create', CREATE, ep(401, 'UNAUTHORIZED')],
      ['wallet empty on buy', BUY, ep(402, 'PAYMENT_REQUIRED')],
      ['throttled buy', BUY, { status: 429, body: '' }],
      ['no answer to create', CREATE, { stall: 'before' }],
      ['create failing', CREATE, { status: 500, body: '' }],
    ];
    const uncertain: [string, { method: string; path: string | RegExp }, FakeFault][] = [
      ['a buy answered 503', BUY, ep(503, 'SERVICE_UNAVAILABLE')],
      ['a buy never answered', BUY, { stall: 'before' }],
    ];
    for (const [name, match, fault] of [...certain, ...uncertain]) {
      rig = await easyPostRig({ settings: { timeoutMs: 1000, maxRetries: 0 } });
      rig.fake.fail(match, fault);
      const result = await rig.carrier.purchaseLabel(labelRequest());
      const expected = certain.some(([n]) => n === name);
      expect(result.ok, name).toBe(false);
      expect(!result.ok && result.nothingBought === true, name).toBe(expected);
      await rig.close();
    }
    // A decline is final, not a reason to try elsewhere.
    rig = await easyPostRig();
    rig.fake.fail(BUY, ep(422, 'SHIPMENT.POSTAGE.FAILURE'));
    expect(await rig.carrier.purchaseLabel(labelRequest())).not.toHaveProperty('nothingBought');
  });

  test('EasyPost’s own words go to the log', async () => {
    rig = await easyPostRig();
    rig.fake.fail(BUY, ep(422, 'SHIPMENT.POSTAGE.FAILURE', [{ field: 'rate', message: 'Account not allowed' }]));
    await rig.carrier.purchaseLabel(labelRequest());
    expect(rig.logs).toContainEqual({
      level: 'warn',
      message: 'EasyPost refused a call',
      details: expect.objectContaining({
        operation: 'buy',
        status: 422,
        code: 'SHIPMENT.POSTAGE.FAILURE',
        easypostMessage: 'EasyPost says no',
        easypostErrors: ['rate: Account not allowed'],
      }),
    });
  });

  test('a call that may be sent again is retried through 503s, each after its Retry-After', async () => {
    rig = await easyPostRig({ settings: { maxRetries: 2 } });
    rig.fake.fail(CREATE, { status: 503, body: '', headers: { 'retry-after': '2' } }, 2);
    const before = rig.clock.now;
    const result = await rig.carrier.purchaseLabel(labelRequest());
    expect(result.ok).toBe(true);
    expect(rig.fake.requests.filter((q) => q.method === 'POST' && q.path === '/v2/shipments')).toHaveLength(3);
    expect(rig.clock.now - before).toBe(4000);
    expect(rig.observed.find((o) => o.operation === 'shipment_create')).toMatchObject({ outcome: 'ok', status: 201 });
  });

  test('a key EasyPost does not know: ACCOUNT_PROBLEM, and the connection check says to look at the key', async () => {
    rig = await easyPostRig({ settings: { apiKey: 'EZTKnotaknownkey000000' } });
    expect(await rig.carrier.purchaseLabel(labelRequest())).toMatchObject({ ok: false, code: 'ACCOUNT_PROBLEM' });
    expect(await rig.carrier.checkConnection?.()).toEqual({
      ok: false,
      message: 'EasyPost refused a test key (EZTK…) (HTTP 401): check EASYPOST_API_KEY.',
    });
  });

  test('a stored shipment EasyPost does not know (the key was swapped): ACCOUNT_PROBLEM, nothing created', async () => {
    rig = await easyPostRig();
    const req = labelRequest();
    await rig.memory.put(`easypost:shipment:${req.idempotencyKey}`, 'shp_00000000000000000000000000000000');
    expect(await rig.carrier.purchaseLabel(req)).toMatchObject({ ok: false, code: 'ACCOUNT_PROBLEM' });
    expect(rig.fake.shipmentsCreated).toBe(0);
    expect(rig.logs.some((l) => l.level === 'error')).toBe(true);
  });

  test('a label file that is missing or not a PDF: retryable, and the retry gets the file without buying again', async () => {
    rig = await easyPostRig();
    rig.fake.fail({ method: 'GET', path: /^\/files\// }, { status: 200, body: 'not a pdf' });
    const req = labelRequest();
    expect(await rig.carrier.purchaseLabel(req)).toMatchObject({ ok: false, code: 'UNAVAILABLE', retryable: true });
    expect(rig.fake.buys).toBe(1);
    expect((await rig.carrier.purchaseLabel(req)).ok).toBe(true);
    expect(rig.fake.buys).toBe(1);
  });
});

describe('requests refused before anything is sent', () => {
  const cases: [string, Parameters<typeof labelRequest>[0], object][] = [
    [
      'an unknown service',
      { serviceUid: 'usps_first_class' },
      { code: 'SERVICE_UNKNOWN', message: 'Unknown service usps_first_class for carrier usps' },
    ],
    [
      'a negative weight',
      { parcel: { length: 1, width: 1, height: 1, weightLb: -1 } },
      { code: 'WEIGHT_INVALID', message: 'Invalid weight: -1 is not a parcel weight.' },
    ],
    ['no weight', { parcel: { length: 1, width: 1, height: 1, weightLb: Number.NaN } }, { code: 'WEIGHT_INVALID' }],
    [
      'an overweight parcel',
      { serviceUid: 'usps_priority_mail', parcel: { length: 1, width: 1, height: 1, weightLb: 70.5 } },
      {
        code: 'WEIGHT_LIMIT',
        message: 'Weight limit exceeded: USPS Priority Mail accepts parcels up to 70 lb; this one weighs 70.5 lb.',
      },
    ],
    [
      'a sender without a street',
      { from: { ...SENDER, street1: '' } },
      { code: 'ADDRESS_INCOMPLETE', message: 'Address validation failed: the sender address is incomplete.' },
    ],
    [
      'a recipient ZIP that is not one',
      { to: { ...SENDER, zip: '9410' } },
      {
        code: 'ADDRESS_ZIP_INVALID',
        message: 'Address validation failed: the recipient ZIP code 9410 is not a valid US ZIP code.',
      },
    ],
  ];
  test.each(cases)('%s', async (_name, over, expected) => {
    rig = await easyPostRig();
    expect(await rig.carrier.purchaseLabel(labelRequest(over))).toMatchObject({
      ok: false,
      retryable: false,
      ...expected,
    });
    expect(rig.fake.requests).toHaveLength(0);
  });

  test('a weight of 0 is sent as the 1 lb minimum, 16 oz', async () => {
    rig = await easyPostRig();
    const result = await rig.carrier.purchaseLabel(
      labelRequest({ parcel: { length: 0, width: 0, height: 0, weightLb: 0 } }),
    );
    expect(result.ok).toBe(true);
    expect(rig.fake.requests[0]?.body).toMatchObject({ shipment: { parcel: { weight: 16 } } });
    const sent = rig.fake.requests[0]?.body as { shipment: { parcel: object } };
    expect(sent.shipment.parcel).not.toHaveProperty('length');
  });
});

test('the error shape EasyPost documents is what the fake answers', async () => {
  rig = await easyPostRig();
  const res = await fetch(`${rig.fake.url}/v2/shipments/shp_missing`, {
    headers: { authorization: `Basic ${Buffer.from(`${rig.fake.testKey}:`).toString('base64')}` },
  });
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual(easyPostErrorBody('NOT_FOUND', 'The requested resource could not be found.'));
});
