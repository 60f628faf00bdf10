import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CARRIER_ERRORS, CARRIER_REASONS } from '../src/carrier-messages';
import {
  CARRIER_CAPABILITIES,
  createProcessMemory,
  type LabelAddress,
  type PurchasedLabel,
  supports,
} from '../src/port';
import { labelRequest, RECIPIENT, SENDER, uspsRig } from './fixtures/usps';

const OUT = join(import.meta.dirname, '..', 'test-results', 'usps');

function hasZbarimg(): boolean {
  try {
    execFileSync('zbarimg', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function buy(
  carrier: Awaited<ReturnType<typeof uspsRig>>['carrier'],
  idempotencyKey = 'k-1',
): Promise<PurchasedLabel> {
  const result = await carrier.purchaseLabel(labelRequest({ idempotencyKey }));
  if (!result.ok) throw new Error(result.message);
  return result;
}

test('the adapter declares every capability it has, and has a method for each', async () => {
  const { carrier } = await uspsRig();
  expect([...carrier.capabilities].sort()).toEqual([...CARRIER_CAPABILITIES].sort());
  for (const c of CARRIER_CAPABILITIES) expect(supports(carrier, c)).toBe(true);
  expect(typeof carrier.voidLabel).toBe('function');
  expect(typeof carrier.refundStatus).toBe('function');
  expect(typeof carrier.verifyAddress).toBe('function');
  expect(typeof carrier.rate).toBe('function');
  expect(typeof carrier.createScanForm).toBe('function');
  expect(typeof carrier.track).toBe('function');
  expect(typeof carrier.checkConnection).toBe('function');
});

describe('voids and refunds', () => {
  test('a label not yet manifested is CANCELED at once: refunded', async () => {
    const { carrier, fake } = await uspsRig();
    const label = await buy(carrier);
    const request = { idempotencyKey: 'k-1', trackingNumber: label.trackingNumber, carrierRef: label.carrierRef };
    expect(await carrier.voidLabel?.(request)).toEqual({ ok: true, status: 'refunded' });
    expect(fake.labels.get(label.trackingNumber)?.state).toBe('canceled');
    expect(await carrier.refundStatus?.(request)).toEqual({ ok: true, status: 'refunded' });
    const call = fake.requests.find((r) => r.route === 'refund');
    expect(call).toMatchObject({ method: 'DELETE', path: `/labels/v3/label/${label.trackingNumber}` });
    expect(call?.headers['x-payment-authorization-token']).toBeTruthy();
    // Asking again answers where it stands.
    expect(await carrier.voidLabel?.(request)).toEqual({ ok: true, status: 'refunded' });
  });

  test('a manifested label becomes a refund request: DISPUTED is pending with its dispute id', async () => {
    const { carrier, fake } = await uspsRig();
    const label = await buy(carrier);
    fake.manifest(label.trackingNumber);
    const request = { idempotencyKey: 'k-1', trackingNumber: label.trackingNumber };
    const answer = await carrier.voidLabel?.(request);
    expect(answer).toEqual({
      ok: true,
      status: 'pending',
      reference: fake.labels.get(label.trackingNumber)?.disputeId,
    });
    expect(answer).toMatchObject({ reference: expect.stringMatching(/^\d+$/) });
    // The same day, USPS refuses a second request as a duplicate: the refund stands where it was.
    expect(await carrier.voidLabel?.(request)).toEqual(answer);
    expect(await carrier.refundStatus?.(request)).toEqual(answer);
  });

  test('without a tracking number, the label is voided by the key it was bought with', async () => {
    const { carrier, fake } = await uspsRig();
    const label = await buy(carrier);
    expect(
      await carrier.voidLabel?.({ idempotencyKey: 'k-1', trackingNumber: '', carrierRef: label.carrierRef }),
    ).toEqual({
      ok: true,
      status: 'refunded',
    });
    const call = fake.requests.find((r) => r.route === 'refund');
    expect(call).toMatchObject({ method: 'DELETE', path: '/labels/v3/label' });
    expect(call?.headers['x-idempotency-key']).toBe(label.carrierRef);
  });

  test('a used label is rejected with a reason for the customer; USPS’s words go to the log', async () => {
    const { carrier, fake, logs } = await uspsRig();
    const label = await buy(carrier);
    fake.markUsed(label.trackingNumber);
    fake.manifest(label.trackingNumber);
    expect(await carrier.voidLabel?.({ idempotencyKey: 'k-1', trackingNumber: label.trackingNumber })).toEqual({
      ok: true,
      status: 'rejected',
      reason: CARRIER_REASONS.REFUND_NOT_ELIGIBLE,
    });
    expect(JSON.stringify(logs)).toContain('A refund request for this order cannot be submitted');
  });

  test('a label USPS does not know is rejected as unknown', async () => {
    const { carrier } = await uspsRig();
    expect(await carrier.voidLabel?.({ idempotencyKey: 'x', trackingNumber: '9300189900100000009999' })).toEqual({
      ok: true,
      status: 'rejected',
      reason: CARRIER_REASONS.REFUND_LABEL_UNKNOWN,
    });
  });

  test('USPS not answering a void: a retryable refusal, nothing decided', async () => {
    const { carrier, fake } = await uspsRig({ carrier: { http: { maxRetries: 0 } } });
    const label = await buy(carrier);
    fake.fail('refund', { kind: 'status', status: 503 });
    expect(await carrier.voidLabel?.({ idempotencyKey: 'k-1', trackingNumber: label.trackingNumber })).toMatchObject({
      ok: false,
      code: 'UNAVAILABLE',
      retryable: true,
    });
    expect(fake.labels.get(label.trackingNumber)?.state).toBe('active');
  });
});

describe('address verification', () => {
  const address = (more: Partial<LabelAddress>): LabelAddress => ({ ...RECIPIENT, ...more });

  test('an address USPS standardises comes back corrected, with ZIP+4 and the fields that changed', async () => {
    const { carrier, fake } = await uspsRig();
    const verdict = await carrier.verifyAddress?.(
      address({ street1: '2700 South Jefferson Avenue', street2: 'Suite 150', city: 'St. Louis', zip: '63104' }),
    );
    expect(verdict).toMatchObject({
      ok: true,
      verdict: 'corrected',
      address: {
        name: 'Nick Fury',
        street1: '2700 S JEFFERSON AVE',
        street2: 'STE 150',
        city: 'SAINT LOUIS',
        state: 'MO',
        zip: expect.stringMatching(/^63104-\d{4}$/),
      },
      corrected: ['street1', 'street2', 'city'],
    });
    const query = new URLSearchParams(fake.requests.find((r) => r.route === 'address')?.path.split('?')[1]);
    expect(query).toBeDefined();
  });

  test('an address that is already standard is deliverable; the ZIP+4 USPS adds is not a correction', async () => {
    const { carrier } = await uspsRig();
    const verdict = await carrier.verifyAddress?.(
      address({ street1: '2700 S JEFFERSON AVE', street2: 'STE 150', city: 'SAINT LOUIS', zip: '63104' }),
    );
    expect(verdict).toMatchObject({
      ok: true,
      verdict: 'deliverable',
      address: { zip: expect.stringMatching(/^63104-\d{4}$/) },
    });
  });

  test.each([
    ['unknown to USPS', { street1: '12 Nowhere Ln' }, CARRIER_REASONS.ADDRESS_NOT_FOUND],
    ['matching several addresses', { street1: '1 One Many Way' }, CARRIER_REASONS.ADDRESS_AMBIGUOUS],
    ['whose house number fails DPV', { street1: '0 Main St', street2: undefined }, CARRIER_REASONS.ADDRESS_NOT_FOUND],
    ['missing its unit', { street1: '5 Tower Rd', street2: undefined }, CARRIER_REASONS.ADDRESS_SECONDARY_MISSING],
    [
      'with a unit USPS cannot confirm',
      { street1: '5 Main St', street2: 'Unit X' },
      CARRIER_REASONS.ADDRESS_SECONDARY_UNCONFIRMED,
    ],
    ['in a state its ZIP is not in', { state: 'CA', zip: '63104' }, CARRIER_REASONS.ADDRESS_CITY_STATE],
    ['without a street', { street1: '' }, CARRIER_REASONS.ADDRESS_INSUFFICIENT],
  ])('an address %s is undeliverable, with a reason', async (_what, more, reason) => {
    const { carrier } = await uspsRig();
    expect(await carrier.verifyAddress?.(address(more))).toEqual({ ok: true, verdict: 'undeliverable', reason });
  });

  test('USPS unavailable: a retryable refusal, not a verdict', async () => {
    const { carrier, fake } = await uspsRig({ carrier: { http: { maxRetries: 0 } } });
    fake.fail('address', { kind: 'status', status: 500 });
    expect(await carrier.verifyAddress?.(RECIPIENT)).toMatchObject({ ok: false, code: 'UNAVAILABLE', retryable: true });
  });
});

describe('prices', () => {
  test('the rate is what the label then costs, asked with the EPS account for its contract price', async () => {
    const { carrier, fake } = await uspsRig();
    const request = labelRequest({
      parcel: { length: 24, width: 10, height: 8, weightLb: 3.2 },
      serviceUid: 'usps_priority_mail',
    });
    const rate = await carrier.rate?.(request);
    const label = await carrier.purchaseLabel(request);
    expect(rate).toEqual({ ok: true, serviceUid: 'usps_priority_mail', costCents: label.ok ? label.costCents : -1 });
    const sent = fake.requests.find((r) => r.route === 'price');
    expect(sent?.path).toBe('/prices/v3/base-rates/search');
  });

  test('a price for an impossible parcel is refused from the catalogue', async () => {
    const { carrier, fake } = await uspsRig();
    expect(await carrier.rate?.(labelRequest({ parcel: { length: 5, width: 5, height: 5, weightLb: 90 } }))).toEqual({
      ok: false,
      code: 'WEIGHT_LIMIT',
      message: CARRIER_ERRORS.WEIGHT_LIMIT.message('USPS Ground Advantage', 70, '90 lb'),
      retryable: false,
    });
    expect(fake.count('price')).toBe(0);
  });

  test('a malformed price answer: unavailable', async () => {
    const { carrier, fake } = await uspsRig();
    fake.fail('price', { kind: 'malformed' });
    expect(await carrier.rate?.(labelRequest())).toMatchObject({ ok: false, code: 'UNAVAILABLE' });
  });
});

describe('SCAN forms', () => {
  test('a PS Form 5630 for the day’s labels: a PDF listing them, and their voids become refund requests', async () => {
    const { carrier, fake, clock } = await uspsRig();
    const a = await buy(carrier, 'k-1');
    const b = await buy(carrier, 'k-2');
    const request = {
      idempotencyKey: 'form-1',
      from: SENDER,
      shipDate: new Date(clock.now()),
      labels: [{ trackingNumber: a.trackingNumber }, { trackingNumber: b.trackingNumber }],
    };
    const form = await carrier.createScanForm?.(request);
    if (!form?.ok) throw new Error(`no SCAN form: ${form?.message}`);
    expect(form.formId).toMatch(/^9475\d{18}$/);
    expect(form.trackingNumbers).toEqual([a.trackingNumber, b.trackingNumber]);
    expect(form.pdf.subarray(0, 5).toString()).toBe('%PDF-');

    mkdirSync(OUT, { recursive: true });
    const file = join(OUT, 'scan-form.pdf');
    writeFileSync(file, form.pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('PS Form 5630');
    expect(text).toContain(form.formId);
    expect(text).toMatch(/Pieces\s+2/);
    expect(text).toContain('Issued by USPS');
    execFileSync('pdftoppm', ['-png', '-r', '150', '-singlefile', file, join(OUT, 'scan-form')]);
    if (hasZbarimg()) {
      const scanned = execFileSync('zbarimg', ['-q', '--raw', join(OUT, 'scan-form.png')], { encoding: 'utf8' });
      expect(scanned.trim()).toBe(form.formId);
    }

    // The same key gives the same form, without asking USPS again.
    expect(await carrier.createScanForm?.(request)).toEqual(form);
    expect(fake.count('scan_form')).toBe(1);
    expect(await carrier.voidLabel?.({ idempotencyKey: 'k-1', trackingNumber: a.trackingNumber })).toMatchObject({
      status: 'pending',
    });
  });

  test('a form USPS made is kept in the durable memory: after a restart the same key gives the same form, USPS asked once', async () => {
    const memory = createProcessMemory();
    const first = await uspsRig({ carrier: { memory } });
    const a = await buy(first.carrier, 'k-1');
    const request = {
      idempotencyKey: 'form-restart',
      from: SENDER,
      shipDate: new Date(first.clock.now()),
      labels: [{ trackingNumber: a.trackingNumber }],
    };
    const form = await first.carrier.createScanForm?.(request);
    if (!form?.ok) throw new Error(`no SCAN form: ${form?.message}`);
    // Another process (a restart) with the same memory, against the same USPS.
    const second = await uspsRig({ carrier: { memory, baseUrl: first.fake.url } });
    expect(await second.carrier.createScanForm?.(request)).toEqual(form);
    expect(first.fake.count('scan_form')).toBe(1);
  });

  test('labels already on a form are refused with a reason; USPS’s words go to the log', async () => {
    const { carrier, clock, logs } = await uspsRig();
    const a = await buy(carrier);
    const labels = [{ trackingNumber: a.trackingNumber }];
    const first = await carrier.createScanForm?.({
      idempotencyKey: 'f-1',
      from: SENDER,
      shipDate: new Date(clock.now()),
      labels,
    });
    expect(first?.ok).toBe(true);
    const second = await carrier.createScanForm?.({
      idempotencyKey: 'f-2',
      from: SENDER,
      shipDate: new Date(clock.now()),
      labels,
    });
    expect(second).toEqual({
      ok: false,
      code: 'SCAN_FORM_REFUSED',
      message: CARRIER_ERRORS.SCAN_FORM_REFUSED.message(CARRIER_REASONS.SCAN_FORM_LABELS_INELIGIBLE),
      retryable: false,
    });
    expect(JSON.stringify(logs)).toContain('has already been added to a SCAN Form');
  });

  test('no labels: refused without a call', async () => {
    const { carrier, fake, clock } = await uspsRig();
    expect(
      await carrier.createScanForm?.({
        idempotencyKey: 'f',
        from: SENDER,
        shipDate: new Date(clock.now()),
        labels: [],
      }),
    ).toMatchObject({
      ok: false,
      code: 'SCAN_FORM_REFUSED',
    });
    expect(fake.count('scan_form')).toBe(0);
  });
});

describe('tracking', () => {
  test('a label just bought is pre-transit', async () => {
    const { carrier } = await uspsRig();
    const label = await buy(carrier);
    expect(await carrier.track?.(label.trackingNumber)).toMatchObject({
      ok: true,
      trackingNumber: label.trackingNumber,
      status: 'pre_transit',
      events: [
        {
          status: 'pre_transit',
          description: 'Shipping Label Created, USPS Awaiting Item',
          city: 'WASHINGTON',
          state: 'DC',
        },
      ],
    });
  });

  test('USPS’s history maps onto our statuses, newest first, in UTC', async () => {
    const { carrier, fake } = await uspsRig();
    const number = '9400100000000000000000';
    // The spec's own summary example, as detail events (given out of order, and one without GMTTimestamp).
    fake.setTracking(number, {
      statusCategory: 'Delivered',
      status: 'Delivered, Front Door/Porch',
      expectedDeliveryTimeStamp: '2022-06-17T20:00:00Z',
      trackingEvents: [
        {
          eventType: 'Arrived at Post Office',
          eventTimestamp: '2022-06-16T14:15:00',
          GMTOffset: '-4:00',
          eventCity: 'FAIRFAX',
          eventState: 'VA',
          eventZIP: '22031',
        },
        {
          eventType: 'Delivered, Front Door/Porch',
          GMTTimestamp: '2022-06-17T16:01:00Z',
          eventCity: 'FAIRFAX',
          eventState: 'VA',
          eventZIP: '22032',
        },
        { eventType: 'Out for Delivery', GMTTimestamp: '2022-06-17T10:10:00Z', eventCity: 'FAIRFAX', eventState: 'VA' },
        {
          eventType: 'Accepted at USPS Destination Facility',
          GMTTimestamp: '2022-06-16T17:00:00Z',
          eventCity: 'FAIRFAX',
          eventState: 'VA',
        },
        {
          eventType: 'Departed Shipping Partner Facility, USPS Awaiting Item',
          GMTTimestamp: '2022-06-16T06:18:00Z',
          eventCity: 'CHANTILLY',
          eventState: 'VA',
        },
      ],
    });
    const result = await carrier.track?.(number);
    expect(result).toMatchObject({ ok: true, status: 'delivered', estimatedDelivery: '2022-06-17' });
    if (!result?.ok) throw new Error('no tracking');
    expect(result.events.map((e) => [e.at, e.status])).toEqual([
      ['2022-06-17T16:01:00.000Z', 'delivered'],
      ['2022-06-17T10:10:00.000Z', 'out_for_delivery'],
      ['2022-06-16T18:15:00.000Z', 'in_transit'],
      ['2022-06-16T17:00:00.000Z', 'in_transit'],
      ['2022-06-16T06:18:00.000Z', 'pre_transit'],
    ]);
  });

  test.each([
    ['Alert', 'Delivery Attempted - No Access to Delivery Location', 'failure'],
    ['Available for Pickup', 'Available for Pickup', 'available_for_pickup'],
    ['Return to Sender', 'Return to Sender Processed', 'return_to_sender'],
    ['In Transit', 'In Transit to Next Facility', 'in_transit'],
    ['Accepted', 'USPS in possession of item', 'in_transit'],
    ['Something New', 'A scan nobody has seen', 'unknown'],
  ])('status category %s is %s', async (statusCategory, eventType, status) => {
    const { carrier, fake } = await uspsRig();
    fake.setTracking('9400100000000000000001', {
      statusCategory,
      trackingEvents: [{ eventType, GMTTimestamp: '2024-04-04T14:03:12.041Z' }],
    });
    expect(await carrier.track?.('9400100000000000000001')).toMatchObject({ ok: true, status, events: [{ status }] });
  });

  test('a number USPS does not know is NOT_FOUND from the catalogue', async () => {
    const { carrier } = await uspsRig();
    expect(await carrier.track?.('9400 1000 0000 0000 0000 99')).toEqual({
      ok: false,
      code: 'NOT_FOUND',
      message: CARRIER_ERRORS.NOT_FOUND.message('Tracking number 9400100000000000000099'),
      retryable: false,
    });
  });
});

describe('the account', () => {
  test('balance: the probe amount while the EPS account covers it, 0 once it does not', async () => {
    const { carrier, fake } = await uspsRig({ carrier: { balanceProbeCents: 50_00 } });
    fake.setBalance(120_00);
    expect(await carrier.balance()).toBe(50_00);
    fake.setBalance(49_99);
    expect(await carrier.balance()).toBe(0);
    const call = fake.requests.filter((r) => r.route === 'account').at(-1);
    expect(call?.path).toBe(`/payments/v3/payment-account/${fake.credentials.epsAccount}`);
  });

  test('balance when USPS fails: an error the admin shows as unreachable, with no USPS words in it', async () => {
    const { carrier, fake } = await uspsRig({ carrier: { http: { maxRetries: 0 } } });
    fake.fail('account', { kind: 'status', status: 503 });
    await expect(carrier.balance()).rejects.toThrow(/USPS/);
  });

  test('checkConnection reports what it found, without secrets', async () => {
    const { carrier, fake } = await uspsRig();
    const check = await carrier.checkConnection?.();
    expect(check).toEqual({
      ok: true,
      detail: `USPS at ${new URL(fake.url).host}: access token issued; payment authorization accepted for CRID ${fake.credentials.crid} (MID ${fake.credentials.mid}, manifest MID ${fake.credentials.manifestMid}); EPS account …${fake.credentials.epsAccount.slice(-4)} found.`,
    });
    expect(JSON.stringify(check)).not.toContain(fake.credentials.clientSecret);
    expect(JSON.stringify(check)).not.toContain(fake.credentials.epsAccount);
  });

  test.each([
    [
      'credentials',
      { clientSecret: 'wrong' },
      /refused the app's credentials \(HTTP 401\): check USPS_CLIENT_ID and USPS_CLIENT_SECRET/,
    ],
    ['payment roles', { mid: '123456' }, /refused the payment authorization \(HTTP 400\): check USPS_CRID, USPS_MID/],
    ['EPS account', {}, /did not find the EPS account \(HTTP 404\)/],
  ])('checkConnection names what to fix when USPS refuses the %s', async (what, carrierOptions, message) => {
    const { carrier, fake } = await uspsRig({ carrier: carrierOptions });
    if (what === 'EPS account') fake.fail('account', { kind: 'status', status: 404 });
    const check = await carrier.checkConnection?.();
    expect(check).toMatchObject({ ok: false, message: expect.stringMatching(message) });
    expect(JSON.stringify(check)).not.toContain('wrong');
  });
});
