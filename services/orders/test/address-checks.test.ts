import { type Carrier, createSandboxCarrier, type LabelAddress } from '@flatship/carriers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAddressVerifier } from '../src/adapters/address-verifier';
import { createCheckLimiter, isMaterialCorrection } from '../src/domain/check-address';
import { type Stack, startStack } from './stack';
import { INTERNAL_SECRET, orderBody, postOrder, type TestUser, user } from './support';

// Address checks before paying, through the orders app with the sandbox carrier (which checks ZIPs against the USPS
// ZIP codes) and the real pricing and payments services: one address, a file's chunk, auth's internal check, and a
// purchase to an undeliverable address, which needs the buyer's acknowledgement.

const sandbox = createSandboxCarrier();
/** While set, the carrier's address checks fail as an outage would. */
let outage = false;
let checks = 0;
const carrier: Pick<Carrier, 'purchaseLabel' | 'verifyAddress'> = {
  purchaseLabel: (req) => sandbox.purchaseLabel(req),
  async verifyAddress(address) {
    checks++;
    if (outage) throw new Error('connect ECONNREFUSED');
    return sandbox.verifyAddress!(address);
  },
};

let s: Stack;
let ann: TestUser;
beforeAll(async () => {
  s = await startStack({ carrier });
  ann = user(s);
  await s.setBalance(ann.id, 100_00);
});
afterAll(() => s.close());

const EMPIRE = { name: 'Ann Buyer', street1: '350 Fifth Avenue', city: 'New York', state: 'NY', zip: '11201' };

const verify = (address: object, token = ann.token) =>
  s.app.inject({ method: 'POST', url: '/api/orders/verify-address', headers: { token }, payload: { address } });
const verifyMany = (addresses: object[], token = ann.token) =>
  s.app.inject({
    method: 'POST',
    url: '/api/orders/verify-addresses',
    headers: { token },
    payload: { addresses },
  });

describe('POST /api/orders/verify-address', () => {
  test('a ZIP of another city is corrected to the city’s, with the fields that changed', async () => {
    const res = await verify(EMPIRE);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      verdict: 'corrected',
      address: {
        street1: '350 FIFTH AVE',
        street2: '',
        city: 'NEW YORK',
        state: 'NY',
        zip: expect.stringMatching(/^10001-\d{4}$/),
      },
      corrected: ['street1', 'city', 'zip'],
    });
  });

  test('capitals, abbreviations and a ZIP+4 alone are no correction: the address is deliverable', async () => {
    const res = await verify({ ...EMPIRE, zip: '10118' });
    expect(res.json()).toMatchObject({ verdict: 'deliverable', address: { zip: expect.stringMatching(/^10118-/) } });
  });

  test('a ZIP that does not exist is undeliverable, with the carrier’s reason', async () => {
    expect((await verify({ ...EMPIRE, zip: '00000' })).json()).toEqual({
      verdict: 'undeliverable',
      message: 'The ZIP code 00000 does not exist.',
    });
  });

  test('bad input is refused naming the field; no token, no check', async () => {
    const before = checks;
    for (const [address, message] of [
      [{ ...EMPIRE, city: ' ' }, 'City is required'],
      [{ ...EMPIRE, zip: '1234' }, 'ZIP code must be a 5-digit ZIP code or ZIP+4'],
      [{ ...EMPIRE, state: 'XX' }, 'State must be a US state'],
      [{ ...EMPIRE, street1: undefined }, 'Street is required'],
    ] as const) {
      const res = await verify(address);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await verify(EMPIRE, 'not-a-token')).statusCode).toBe(401);
    expect(checks).toBe(before);
  });

  test('an outage at the carrier answers “Could not check this address”, not an error', async () => {
    outage = true;
    try {
      const res = await verify(EMPIRE);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ verdict: 'unavailable', message: 'Could not check this address' });
    } finally {
      outage = false;
    }
  });
});

describe('POST /api/orders/verify-addresses', () => {
  test('answers each address in order, charges nothing, and refuses a chunk with a bad address naming it', async () => {
    const before = await s.balanceCents(ann.id);
    const res = await verifyMany([EMPIRE, { ...EMPIRE, zip: '10118' }, { ...EMPIRE, zip: '00000' }]);
    expect(await s.balanceCents(ann.id)).toBe(before);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((r: { verdict: string }) => r.verdict)).toEqual([
      'corrected',
      'deliverable',
      'undeliverable',
    ]);
    const bad = await verifyMany([EMPIRE, { ...EMPIRE, state: '' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Address 2: State is required');
  });

  test('takes at most 100 addresses a call', async () => {
    const res = await verifyMany(Array.from({ length: 101 }, () => EMPIRE));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('At most 100 addresses can be checked at once');
  });

  test('a refused request uses up none of the checks a user may ask for', async () => {
    const cy = user(s);
    // Refused requests naming 5,000 addresses in all: the most one user may have checked in a minute.
    for (let i = 0; i < 49; i++) {
      const tooMany = await verifyMany(
        Array.from({ length: 101 }, () => EMPIRE),
        cy.token,
      );
      expect(tooMany.json().message).toBe('At most 100 addresses can be checked at once');
    }
    const bad = await verifyMany([...Array.from({ length: 50 }, () => EMPIRE), { ...EMPIRE, state: '' }], cy.token);
    expect(bad.json().message).toBe('Address 51: State is required');
    const lone = await verify({ ...EMPIRE, zip: '' }, cy.token);
    expect(lone.statusCode).toBe(400);
    const res = await verifyMany([EMPIRE], cy.token);
    expect(res.statusCode, res.body).toBe(200);
  });
});

test('POST /internal/verify-address answers auth with the secret only', async () => {
  const ask = (headers: Record<string, string>) =>
    s.app.inject({ method: 'POST', url: '/internal/verify-address', headers, payload: { address: EMPIRE } });
  expect((await ask({})).statusCode).toBe(403);
  expect((await ask({ 'x-internal-secret': 'wrong' })).statusCode).toBe(403);
  const res = await ask({ 'x-internal-secret': INTERNAL_SECRET });
  expect(res.statusCode).toBe(200);
  expect(res.json().verdict).toBe('corrected');
});

describe('buying a label to an undeliverable address', () => {
  const nowhere = { receiver_zip_postal: '00000' };

  test('is refused with the reason, nothing charged, unless the buyer acknowledges it', async () => {
    const before = await s.balanceCents(ann.id);
    const refused = await postOrder(s, ann, orderBody(ann.id, { receiver: nowhere as never }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'ORDERS_ADDRESS_UNDELIVERABLE',
      message:
        'USPS cannot deliver to this To address. The ZIP code 00000 does not exist. Tick "Ship to this address anyway" to buy the label anyway.',
    });
    expect(await s.balanceCents(ann.id)).toBe(before);
    expect(await s.db('labels').where({ user_id: ann.id })).toHaveLength(0);

    const bought = await postOrder(s, ann, {
      ...orderBody(ann.id, { receiver: nowhere as never }),
      address_acknowledged: true,
    });
    expect(bought.statusCode, bought.body).toBe(201);
    expect(await s.balanceCents(ann.id)).toBe(before - Math.round(bought.json().data.price * 100));
  });

  test('a deliverable or corrected address needs no acknowledgement, and an outage does not stop the purchase', async () => {
    expect((await postOrder(s, ann, orderBody(ann.id))).statusCode).toBe(201);
    outage = true;
    try {
      const res = await postOrder(s, ann, orderBody(ann.id, { receiver: nowhere as never }));
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      outage = false;
    }
  });
});

describe('the checks, without a server', () => {
  const given: LabelAddress = { ...EMPIRE, zip: '10118', country: 'US' };

  test('a correction matters when the street, city, state or the 5-digit ZIP changes', () => {
    expect(
      isMaterialCorrection(given, { ...given, street1: '350 FIFTH AVE', city: 'NEW YORK', zip: '10118-0110' }),
    ).toBe(false);
    expect(isMaterialCorrection(given, { ...given, zip: '10001-0110' })).toBe(true);
    expect(isMaterialCorrection(given, { ...given, street1: '352 FIFTH AVE' })).toBe(true);
    expect(isMaterialCorrection(given, { ...given, city: 'BROOKLYN' })).toBe(true);
  });

  test('a carrier that does not answer in time is taken as unavailable', async () => {
    const verifier = createAddressVerifier({ verifyAddress: () => new Promise(() => {}) }, 20);
    expect(await verifier?.verify(given)).toMatchObject({ ok: false, retryable: true });
    expect(createAddressVerifier({ purchaseLabel: sandbox.purchaseLabel })).toBeNull();
  });

  test('the limiter lets a user check so many addresses a window, then refuses until the next', () => {
    let t = 0;
    const limiter = createCheckLimiter({ max: 100, windowMs: 60_000, now: () => t });
    limiter.take('ann', 60);
    limiter.take('bob', 100);
    expect(() => limiter.take('ann', 41)).toThrow('Too many address checks. Please wait a minute and try again.');
    limiter.take('ann', 40);
    t = 60_000;
    limiter.take('ann', 100);
  });
});
