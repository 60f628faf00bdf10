import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CARRIER_ERRORS } from '../src/carrier-messages';
import type { PurchasedLabel } from '../src/port';
import type { LabelAnswerStyle } from '../src/testing/fake-usps';
import { isValidImpb } from '../src/usps/impb';
import { uspsIdempotencyKey } from '../src/usps-api/idempotency';
import { labelRequest, RECIPIENT, uspsRig } from './fixtures/usps';

const OUT = join(import.meta.dirname, '..', 'test-results', 'usps');

function bought(result: Awaited<ReturnType<import('../src/port').Carrier['purchaseLabel']>>): PurchasedLabel {
  if (!result.ok) throw new Error(`expected a label, got: ${result.message}`);
  return result;
}

/** The text of a PDF as pdftotext reads it. */
function pdfText(pdf: Buffer, name: string): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('buying a USPS label', () => {
  test('sends the label request the spec describes and takes the number, cost and SKU from the metadata', async () => {
    const { carrier, fake } = await uspsRig();
    const label = bought(await carrier.purchaseLabel(labelRequest()));

    expect(fake.purchases).toBe(1);
    const sold = fake.labels.get(label.trackingNumber);
    expect(sold).toBeDefined();
    expect(isValidImpb(label.trackingNumber)).toBe(true);
    // What USPS charged: postage plus its extra services and fees, from the metadata, in cents.
    expect(label.costCents).toBe(Math.round((sold?.metadata.postage as number) * 100));
    expect(label.carrierSku).toBe(sold?.metadata.SKU);
    expect(label.carrierRef).toBe(labelRequest().idempotencyKey);
    expect(label.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(label.pdf.equals(sold?.pdf as Buffer)).toBe(true);
    expect(pdfText(label.pdf, 'label')).toContain('NICK FURY');

    const request = fake.requests.find((r) => r.route === 'label');
    expect(request?.headers['x-idempotency-key']).toBe(labelRequest().idempotencyKey);
    expect(request?.headers['x-payment-authorization-token']).toMatch(/^eyJ/);
    expect(sold?.request).toMatchObject({
      imageInfo: { imageType: 'PDF', labelType: '4X6LABEL', receiptOption: 'NONE' },
      toAddress: {
        firstName: 'Nick',
        lastName: 'Fury',
        streetAddress: '2700 S Jefferson Ave',
        secondaryAddress: 'STE 150',
        city: 'St. Louis',
        state: 'MO',
        ZIPCode: '63104',
        ZIPPlus4: '2351',
      },
      fromAddress: {
        firstName: 'Sam',
        lastName: 'Wilson',
        firm: 'Falcon Goods',
        ZIPCode: '20024',
        phone: '2025550142',
      },
      packageDescription: {
        mailClass: 'USPS_GROUND_ADVANTAGE',
        rateIndicator: 'SP',
        weightUOM: 'lb',
        weight: 1.5,
        dimensionsUOM: 'in',
        length: 9,
        width: 6,
        height: 2,
        processingCategory: 'MACHINABLE',
        destinationEntryFacilityType: 'NONE',
        mailingDate: '2025-03-04',
        customerReference: [
          { referenceNumber: 'A-1001', printReferenceNumber: true },
          { referenceNumber: 'MUG-RED', printReferenceNumber: true },
          { referenceNumber: 'Qty 2', printReferenceNumber: true },
        ],
      },
    });
  });

  test.each([
    ['usps_priority_mail', 'PRIORITY_MAIL', 'SP'],
    ['usps_priority_mail_express', 'PRIORITY_MAIL_EXPRESS', 'PA'],
  ])('%s is bought as mail class %s, rate indicator %s', async (serviceUid, mailClass, rateIndicator) => {
    const { carrier, fake } = await uspsRig();
    const label = bought(await carrier.purchaseLabel(labelRequest({ serviceUid })));
    expect(fake.labels.get(label.trackingNumber)?.request.packageDescription).toMatchObject({
      mailClass,
      rateIndicator,
    });
  });

  test.each<LabelAnswerStyle>([
    'multipart',
    'multipart-mixed',
    'vendor-json',
    'json-multipart',
    'json-object',
    'nested-metadata',
  ])('reads a label answered as %s', async (style) => {
    const { carrier, fake } = await uspsRig();
    fake.setLabelAnswerStyle(style);
    const label = bought(await carrier.purchaseLabel(labelRequest()));
    const sold = fake.labels.get(label.trackingNumber);
    expect(label.pdf.equals(sold?.pdf as Buffer)).toBe(true);
    expect(label.costCents).toBe(Math.round((sold?.metadata.postage as number) * 100));
    expect(label.carrierSku).toBe(sold?.metadata.SKU);
  });

  test('a parcel over 22 inches pays the nonstandard fee the metadata lists, and is sent as NONSTANDARD', async () => {
    const { carrier, fake } = await uspsRig();
    const label = bought(
      await carrier.purchaseLabel(labelRequest({ parcel: { length: 30, width: 10, height: 10, weightLb: 4 } })),
    );
    const sold = fake.labels.get(label.trackingNumber);
    expect(sold?.request.packageDescription).toMatchObject({ processingCategory: 'NONSTANDARD', length: 30 });
    expect(label.costCents).toBe(Math.round((sold?.metadata.postage as number) * 100) + 400);
  });

  test('with zpl-203 asked for, the same label comes as ZPL too, reprinted, not bought again', async () => {
    const { carrier, fake } = await uspsRig();
    const label = bought(await carrier.purchaseLabel(labelRequest({ formats: ['pdf-4x6', 'zpl-203'] })));
    expect(fake.purchases).toBe(1);
    expect(fake.count('reprint')).toBe(1);
    const zpl = label.zpl?.toString('utf8') ?? '';
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
    // The library's ZPL: the number printed in groups and in the barcode's data after AI 420 and the ZIP.
    expect(zpl.replace(/\s/g, '')).toContain(label.trackingNumber);
    expect(zpl).toContain(`^FD>;>842063104>8${label.trackingNumber}^FS`);
    expect(label.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(fake.labels.get(label.trackingNumber)?.reprints).toBe(1);
  });

  test('a format the carrier does not make is refused before anything is bought', async () => {
    const { carrier, fake } = await uspsRig();
    const result = await carrier.purchaseLabel(labelRequest({ formats: ['pdf-4x6', 'epl' as never] }));
    expect(result).toMatchObject({ ok: false, code: 'FORMAT_UNSUPPORTED', retryable: false });
    expect(fake.count('label')).toBe(0);
  });
});

describe('a purchase is never bought twice', () => {
  test('an answer lost to a time-out is replayed under the same key and gives the same label', async () => {
    const { carrier, fake } = await uspsRig({ carrier: { timeoutMs: 1500 } });
    fake.fail('label', { kind: 'stall' });
    const label = bought(await carrier.purchaseLabel(labelRequest()));
    expect(fake.count('label')).toBe(2);
    expect(fake.purchases).toBe(1);
    const keys = fake.requests.filter((r) => r.route === 'label').map((r) => r.headers['x-idempotency-key']);
    expect(keys).toEqual([labelRequest().idempotencyKey, labelRequest().idempotencyKey]);
    expect(label.trackingNumber).toBe([...fake.labels.keys()][0]);
  });

  test('after the time-outs the client allows, the purchase is refused as retryable; the retry gets the label bought', async () => {
    const { carrier, fake } = await uspsRig({ carrier: { timeoutMs: 300, http: { maxRetries: 1 } } });
    fake.fail('label', { kind: 'stall' }, { kind: 'stall' }, { kind: 'stall' });
    const first = await carrier.purchaseLabel(labelRequest());
    expect(first).toEqual({
      ok: false,
      code: 'UNAVAILABLE',
      retryable: true,
      message: CARRIER_ERRORS.UNAVAILABLE.message('USPS'),
    });
    // The first request and the replay's two attempts; the outcome was unknown, so nothing says none was bought.
    expect(fake.count('label')).toBe(3);
    expect(fake.purchases).toBe(1);
    const again = bought(await carrier.purchaseLabel(labelRequest()));
    expect(fake.purchases).toBe(1);
    expect(fake.labels.has(again.trackingNumber)).toBe(true);
  });

  test('an unreadable answer is asked again by replaying the key: one label, read the second time', async () => {
    const { carrier, fake, logs } = await uspsRig();
    fake.fail('label', { kind: 'malformed' });
    const label = bought(await carrier.purchaseLabel(labelRequest()));
    expect(logs.some((l) => l.level === 'error' && l.msg === 'USPS label answer could not be read')).toBe(true);
    expect(fake.count('label')).toBe(2);
    expect(fake.purchases).toBe(1);
    expect(fake.labels.has(label.trackingNumber)).toBe(true);
  });

  test('an answer unreadable twice is refused as retryable; the caller’s retry replays the label bought', async () => {
    const { carrier, fake } = await uspsRig();
    fake.fail('label', { kind: 'malformed' }, { kind: 'malformed' });
    expect(await carrier.purchaseLabel(labelRequest())).toEqual({
      ok: false,
      code: 'UNAVAILABLE',
      retryable: true,
      message: CARRIER_ERRORS.UNAVAILABLE.message('USPS'),
    });
    const label = bought(await carrier.purchaseLabel(labelRequest()));
    expect(fake.purchases).toBe(1);
    expect(fake.labels.has(label.trackingNumber)).toBe(true);
  });

  test('three purchases with one key at the same moment buy one label', async () => {
    const { carrier, fake } = await uspsRig();
    const results = await Promise.all([1, 2, 3].map(() => carrier.purchaseLabel(labelRequest())));
    const numbers = results.map((r) => bought(r).trackingNumber);
    expect(new Set(numbers).size).toBe(1);
    expect(fake.purchases).toBe(1);
  });

  test('after a 5xx the key is replayed, with back-off between tries; one label', async () => {
    const { carrier, fake, waits } = await uspsRig();
    fake.fail('label', { kind: 'status', status: 503 }, { kind: 'status', status: 500 });
    bought(await carrier.purchaseLabel(labelRequest()));
    expect(fake.count('label')).toBe(3);
    expect(fake.purchases).toBe(1);
    expect(waits).toHaveLength(1);
  });

  test('a 429 is waited out for as long as Retry-After says', async () => {
    const { carrier, fake, waits, observed } = await uspsRig();
    fake.fail('label', { kind: 'status', status: 429, retryAfter: '2' });
    bought(await carrier.purchaseLabel(labelRequest()));
    expect(waits).toEqual([2000]);
    expect(observed.find((o) => o.operation === 'label')).toMatchObject({ status: 200, rateLimited: 1 });
  });

  test('the fake holds purchases to its rate; above it the adapter waits, and each label is bought once', async () => {
    const { carrier, fake } = await uspsRig();
    fake.setRateLimit(2, 1);
    const keys = ['k-1', 'k-2', 'k-3', 'k-4', 'k-5'];
    const labels = [];
    for (const idempotencyKey of keys)
      labels.push(bought(await carrier.purchaseLabel(labelRequest({ idempotencyKey }))));
    expect(fake.purchases).toBe(5);
    expect(new Set(labels.map((l) => l.trackingNumber)).size).toBe(5);
    expect(fake.requests.filter((r) => r.route === 'label' && r.status === 429).length).toBeGreaterThan(0);
  });

  test('still throttled after every retry: refused as RATE_LIMITED, nothing bought', async () => {
    const { carrier, fake } = await uspsRig({ carrier: { http: { maxRetries: 2 } } });
    fake.fail(
      'label',
      { kind: 'status', status: 429, retryAfter: '1' },
      { kind: 'status', status: 429, retryAfter: '1' },
      { kind: 'status', status: 429, retryAfter: '1' },
    );
    // Only 429s, each "not taken": certainly nothing bought, so a carrier set may ask another carrier.
    expect(await carrier.purchaseLabel(labelRequest())).toEqual({
      ok: false,
      code: 'RATE_LIMITED',
      retryable: true,
      message: CARRIER_ERRORS.RATE_LIMITED.message('USPS'),
      nothingBought: true,
    });
    expect(fake.purchases).toBe(0);
  });

  test('a key that is not a UUID is sent as the same UUID v5 every time, so a retry replays', async () => {
    const { carrier, fake } = await uspsRig();
    const request = labelRequest({ idempotencyKey: '5d0f1c52-7a1e-4b7e-9a3c-0c1f4e2b9d11:2' });
    const a = bought(await carrier.purchaseLabel(request));
    const b = bought(await carrier.purchaseLabel(request));
    expect(a.trackingNumber).toBe(b.trackingNumber);
    expect(fake.purchases).toBe(1);
    const sent = fake.requests.find((r) => r.route === 'label')?.headers['x-idempotency-key'];
    expect(sent).toBe(uspsIdempotencyKey(request.idempotencyKey));
    expect(sent).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.carrierRef).toBe(sent);
  });

  test('a retry on a later day (another mailing date) gets the label the key bought, by reprint, not a second one', async () => {
    const { carrier, fake, clock } = await uspsRig();
    const first = bought(await carrier.purchaseLabel(labelRequest()));
    clock.advance(24 * 3600_000);
    const again = bought(await carrier.purchaseLabel(labelRequest()));
    expect(again.trackingNumber).toBe(first.trackingNumber);
    expect(fake.purchases).toBe(1);
    expect(fake.count('reprint')).toBe(1);
  });
});

describe('refusals come from the catalogue', () => {
  test.each([
    [
      'a recipient USPS cannot find',
      { to: { ...RECIPIENT, street1: '1 Nowhere Rd' } },
      'ADDRESS_UNDELIVERABLE',
      CARRIER_ERRORS.ADDRESS_UNDELIVERABLE.message('recipient'),
    ],
    [
      'an incomplete sender',
      { from: { ...RECIPIENT, street1: '' } },
      'ADDRESS_INCOMPLETE',
      CARRIER_ERRORS.ADDRESS_INCOMPLETE.message('sender'),
    ],
    [
      'a malformed ZIP',
      { to: { ...RECIPIENT, zip: '6310' } },
      'ADDRESS_ZIP_INVALID',
      CARRIER_ERRORS.ADDRESS_ZIP_INVALID.message('recipient', '6310'),
    ],
    [
      'a parcel over 70 lb',
      { parcel: { length: 9, width: 6, height: 2, weightLb: 71 } },
      'WEIGHT_LIMIT',
      CARRIER_ERRORS.WEIGHT_LIMIT.message('USPS Ground Advantage', 70, '71 lb'),
    ],
    [
      'a side of 0 inches',
      { parcel: { length: 9, width: 0, height: 2, weightLb: 1 } },
      'DIMENSIONS_INVALID',
      CARRIER_ERRORS.DIMENSIONS_INVALID.message(),
    ],
    [
      'a service USPS does not sell here',
      { serviceUid: 'usps_media_mail' },
      'SERVICE_UNKNOWN',
      CARRIER_ERRORS.SERVICE_UNKNOWN.message('usps_media_mail', 'usps'),
    ],
  ])('%s', async (_what, change, code, message) => {
    const { carrier, fake, logs } = await uspsRig();
    const result = await carrier.purchaseLabel(labelRequest(change as never));
    expect(result).toEqual({ ok: false, code, message, retryable: false });
    expect(fake.purchases).toBe(0);
    // USPS's own words are in the log when it answered, never in the message.
    if (fake.count('label') > 0) expect(JSON.stringify(logs)).toContain('Address not found.');
  });

  test.each([
    [
      'the recipient ZIP',
      'toAddress.ZIPCode',
      'ZIPCode is not valid for the city and state.',
      'ADDRESS_ZIP_INVALID',
      CARRIER_ERRORS.ADDRESS_ZIP_INVALID.message('recipient', '63104-2351'),
    ],
    [
      'a missing sender field',
      'fromAddress.city',
      'fromAddress.city is required.',
      'ADDRESS_INCOMPLETE',
      CARRIER_ERRORS.ADDRESS_INCOMPLETE.message('sender'),
    ],
    [
      'the weight, as too heavy',
      'packageDescription.weight',
      'The weight exceeds the maximum for the mail class.',
      'WEIGHT_LIMIT',
      CARRIER_ERRORS.WEIGHT_LIMIT.message('USPS Ground Advantage', 70, '1.5 lb'),
    ],
    [
      'the weight',
      'packageDescription.weight',
      'weight is not valid.',
      'WEIGHT_INVALID',
      CARRIER_ERRORS.WEIGHT_INVALID.message(1.5),
    ],
    [
      'a dimension',
      'packageDescription.girth',
      'Girth must be left blank for rectangular packages.',
      'DIMENSIONS_INVALID',
      CARRIER_ERRORS.DIMENSIONS_INVALID.message(),
    ],
    [
      'something it does not say',
      undefined,
      'Rate not found for the package.',
      'DECLINED',
      CARRIER_ERRORS.DECLINED.message('USPS'),
    ],
  ])('a 400 blaming %s is mapped onto the catalogue', async (_what, parameter, detail, code, message) => {
    const { carrier, fake, logs } = await uspsRig();
    fake.fail('label', { kind: 'status', status: 400, detail, ...(parameter ? { parameter } : {}) });
    expect(await carrier.purchaseLabel(labelRequest())).toEqual({ ok: false, code, message, retryable: false });
    expect(fake.purchases).toBe(0);
    expect(JSON.stringify(logs)).toContain(detail);
  });

  test('a negative weight is refused before anything is sent', async () => {
    const { carrier, fake } = await uspsRig();
    expect(
      await carrier.purchaseLabel(labelRequest({ parcel: { length: 9, width: 6, height: 2, weightLb: -1 } })),
    ).toEqual({
      ok: false,
      code: 'WEIGHT_INVALID',
      message: CARRIER_ERRORS.WEIGHT_INVALID.message(-1),
      retryable: false,
    });
    expect(fake.count('label')).toBe(0);
  });

  test('a state USPS refuses is the recipient address, in our words', async () => {
    const { carrier } = await uspsRig();
    const result = await carrier.purchaseLabel(labelRequest({ to: { ...RECIPIENT, state: 'XX' } }));
    expect(result).toEqual({
      ok: false,
      code: 'ADDRESS_UNDELIVERABLE',
      message: CARRIER_ERRORS.ADDRESS_UNDELIVERABLE.message('recipient'),
      retryable: false,
    });
  });

  test('an EPS account without the funds is an operator problem, not the customer’s', async () => {
    const { carrier, fake, logs } = await uspsRig();
    fake.setBalance(100);
    const result = await carrier.purchaseLabel(labelRequest());
    expect(result).toEqual({
      ok: false,
      code: 'ACCOUNT_PROBLEM',
      message: CARRIER_ERRORS.ACCOUNT_PROBLEM.message(),
      retryable: true,
      nothingBought: true,
    });
    expect(logs.some((l) => l.level === 'error' && JSON.stringify(l.obj).includes('Insufficient funds'))).toBe(true);
  });

  test('a 403 is an account problem', async () => {
    const { carrier, fake } = await uspsRig();
    fake.fail('label', { kind: 'status', status: 403 });
    expect(await carrier.purchaseLabel(labelRequest())).toMatchObject({
      ok: false,
      code: 'ACCOUNT_PROBLEM',
      nothingBought: true,
    });
  });

  test('USPS down for good: UNAVAILABLE, retryable', async () => {
    const { carrier, fake } = await uspsRig({ carrier: { http: { maxRetries: 1 } } });
    fake.fail(
      'label',
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
    );
    const result = await carrier.purchaseLabel(labelRequest());
    expect(result).toMatchObject({ ok: false, code: 'UNAVAILABLE', retryable: true });
    // A 5xx may come after the work is done: unknown, so never `nothingBought`.
    expect(result).not.toHaveProperty('nothingBought');
  });

  test('nothing answering at all: UNAVAILABLE, retryable', async () => {
    const { carrier, fake } = await uspsRig({ carrier: { http: { maxRetries: 0 } } });
    await fake.close();
    expect(await carrier.purchaseLabel(labelRequest())).toMatchObject({
      ok: false,
      code: 'UNAVAILABLE',
      retryable: true,
    });
  });
});
