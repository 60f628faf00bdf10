import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { easyPostSignature, parseEasyPostTrackerEvent } from '../src/easypost/webhook';
import type { LabelRequest, PurchasedLabel, ScanFormRequest } from '../src/port';
import { type EasyPostRig, easyPostRig, labelRequest, SENDER } from './fixtures/easypost';

let rig: EasyPostRig;
afterEach(async () => {
  await rig?.close();
});

const OUT = join(import.meta.dirname, '..', 'test-results', 'easypost');

async function buy(over: Partial<LabelRequest> = {}): Promise<PurchasedLabel> {
  const label = await rig.carrier.purchaseLabel(labelRequest(over));
  if (!label.ok) throw new Error(label.message);
  return label;
}

function formRequest(labels: PurchasedLabel[], key = `sf_${Math.random()}`): ScanFormRequest {
  return {
    idempotencyKey: key,
    from: SENDER,
    shipDate: new Date('2026-03-02T12:00:00Z'),
    labels: labels.map((l) => ({ trackingNumber: l.trackingNumber, carrierRef: l.carrierRef })),
  };
}

describe('SCAN forms', () => {
  test('one form for the labels, its PDF downloaded; it reads as a PS Form 5630 listing every tracking number', async () => {
    rig = await easyPostRig();
    const labels = [await buy(), await buy(), await buy()];
    const result = await rig.carrier.createScanForm?.(formRequest(labels));
    if (!result?.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
    expect(result.formId).toMatch(/^sf_/);
    expect(result.trackingNumbers).toEqual(labels.map((l) => l.trackingNumber));
    expect(rig.fake.requests.find((q) => q.path === '/v2/scan_forms')?.body).toEqual({
      shipments: labels.map((l) => ({ id: l.carrierRef })),
    });

    mkdirSync(OUT, { recursive: true });
    const pdfPath = join(OUT, 'scan-form.pdf');
    writeFileSync(pdfPath, result.pdf);
    const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    expect(text).toContain('PS Form 5630');
    expect(text).toContain('Total packages: 3');
    for (const l of labels) expect(text).toContain(l.trackingNumber);
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', pdfPath, join(OUT, 'scan-form')]);
    const png = readFileSync(join(OUT, 'scan-form.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  test('the same key gives the same form; no second form is asked for', async () => {
    rig = await easyPostRig();
    const labels = [await buy()];
    const req = formRequest(labels);
    const first = await rig.carrier.createScanForm?.(req);
    const again = await rig.carrier.createScanForm?.(req);
    expect(again?.ok && first?.ok && again.formId === first.formId).toBe(true);
    expect(rig.fake.requests.filter((q) => q.method === 'POST' && q.path === '/v2/scan_forms')).toHaveLength(1);
  });

  test('a form EasyPost is still making is read again until it is made', async () => {
    rig = await easyPostRig({ fake: { scanFormsCreateAsync: true } });
    const result = await rig.carrier.createScanForm?.(formRequest([await buy()]));
    expect(result?.ok).toBe(true);
    expect(rig.fake.requests.some((q) => q.method === 'GET' && q.path.startsWith('/v2/scan_forms/sf_'))).toBe(true);
  });

  test('a create whose answer is lost is settled by finding the form made for these labels', async () => {
    rig = await easyPostRig({ settings: { timeoutMs: 1000 } });
    const labels = [await buy(), await buy()];
    rig.fake.fail({ method: 'POST', path: '/v2/scan_forms' }, { stall: 'after' });
    const result = await rig.carrier.createScanForm?.(formRequest(labels));
    expect(result).toMatchObject({ ok: true, trackingNumbers: labels.map((l) => l.trackingNumber) });
    expect(rig.fake.requests.filter((q) => q.method === 'POST' && q.path === '/v2/scan_forms')).toHaveLength(1);
  });

  test('labels from two addresses, a label already on a form, and a label not bought here are refused', async () => {
    rig = await easyPostRig();
    const a = await buy();
    const b = await buy({ from: { ...SENDER, street1: '1 Market St', zip: '94105' } });
    expect(await rig.carrier.createScanForm?.(formRequest([a, b]))).toEqual({
      ok: false,
      retryable: false,
      code: 'SCAN_FORM_REFUSED',
      message:
        'The SCAN form could not be made: a label in it cannot go on this form (sent from another address, already on a form, refunded, or dated later).',
    });
    expect((await rig.carrier.createScanForm?.(formRequest([a])))?.ok).toBe(true);
    expect(await rig.carrier.createScanForm?.(formRequest([a]))).toMatchObject({
      ok: false,
      code: 'SCAN_FORM_REFUSED',
    });
    expect(
      await rig.carrier.createScanForm?.({
        ...formRequest([]),
        labels: [{ trackingNumber: '9400100000000000000000' }],
      }),
    ).toMatchObject({
      ok: false,
      code: 'SCAN_FORM_REFUSED',
      message: 'The SCAN form could not be made: a label in it was not bought through USPS.',
    });
    expect(await rig.carrier.createScanForm?.(formRequest([]))).toMatchObject({
      message: 'The SCAN form could not be made: it lists no labels.',
    });
  });
});

describe('tracking', () => {
  test('a label bought here: its scans, newest first, statuses on our list, the estimated day', async () => {
    rig = await easyPostRig();
    const label = await buy();
    rig.fake.setTracking(
      label.trackingNumber,
      [
        { status: 'pre_transit', message: 'Shipping Label Created', datetime: '2026-03-02T15:00:00Z' },
        {
          status: 'in_transit',
          message: 'Accepted at USPS Origin Facility',
          datetime: '2026-03-02T22:10:00Z',
          city: 'SAN FRANCISCO',
          state: 'CA',
          zip: '94107',
        },
        { status: 'out_for_delivery', message: 'Out for Delivery', datetime: '2026-03-04T08:01:00Z' },
      ],
      '2026-03-04T00:00:00Z',
    );
    expect(await rig.carrier.track?.(label.trackingNumber)).toEqual({
      ok: true,
      trackingNumber: label.trackingNumber,
      status: 'out_for_delivery',
      estimatedDelivery: '2026-03-04',
      events: [
        { at: '2026-03-04T08:01:00.000Z', status: 'out_for_delivery', description: 'Out for Delivery' },
        {
          at: '2026-03-02T22:10:00.000Z',
          status: 'in_transit',
          description: 'Accepted at USPS Origin Facility',
          city: 'SAN FRANCISCO',
          state: 'CA',
          zip: '94107',
        },
        { at: '2026-03-02T15:00:00.000Z', status: 'pre_transit', description: 'Shipping Label Created' },
      ],
    });
    expect(rig.fake.requests.at(-1)?.body).toEqual({
      tracker: { tracking_code: label.trackingNumber, carrier: 'USPS' },
    });
  });

  test('the reference’s test codes: EZ4000000004 is delivered', async () => {
    rig = await easyPostRig();
    expect(await rig.carrier.track?.('EZ4000000004')).toMatchObject({ ok: true, status: 'delivered' });
  });

  test('EasyPost’s cancelled and error read as unknown; a code it refuses is not found', async () => {
    rig = await easyPostRig();
    rig.fake.setTracking('EZ7000000007', [
      { status: 'cancelled', message: 'Label cancelled', datetime: '2026-03-02T15:00:00Z' },
    ]);
    expect(await rig.carrier.track?.('EZ7000000007')).toMatchObject({ ok: true, status: 'unknown' });
    rig.fake.fail(
      { method: 'POST', path: '/v2/trackers' },
      { status: 422, body: { error: { code: 'TRACKER.NO_CARRIER_FOR_CODE', message: 'x', errors: [] } } },
    );
    expect(await rig.carrier.track?.('ZZ999')).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      message: 'Tracking number ZZ999 was not found at the carrier.',
    });
  });
});

describe('tracker webhook', () => {
  test('a signed tracker.updated event is read; the signature is checked over the body as received', async () => {
    rig = await easyPostRig();
    const label = await buy();
    rig.fake.setTracking(label.trackingNumber, [
      { status: 'pre_transit', message: 'Shipping Label Created', datetime: '2026-03-02T15:00:00Z' },
      { status: 'delivered', message: 'Delivered, In/At Mailbox', datetime: '2026-03-05T16:20:00Z', zip: '90277' },
    ]);
    const { body, headers } = rig.fake.trackerEvent(label.trackingNumber, 'sécret', { weight: '614.4' });
    // The header is what the client libraries compute: HMAC-SHA256 of the raw body, key the NFKD-normalised secret.
    const digest = createHmac('sha256', Buffer.from('sécret'.normalize('NFKD'), 'utf8'))
      .update(body)
      .digest('hex');
    expect(headers['x-hmac-signature']).toBe(`hmac-sha256-hex=${digest}`);
    expect(body).toContain('"weight":614.4');
    const event = parseEasyPostTrackerEvent(Buffer.from(body), headers, 'sécret');
    expect(event).toMatchObject({
      ok: true,
      kind: 'tracker',
      description: 'tracker.updated',
      eventId: expect.stringMatching(/^evt_/),
      tracking: {
        trackingNumber: label.trackingNumber,
        status: 'delivered',
        shipmentId: label.carrierRef,
        events: [
          { status: 'delivered', description: 'Delivered, In/At Mailbox', zip: '90277' },
          { status: 'pre_transit' },
        ],
      },
    });
  });

  test('the secret is compared as NFKD: a composed and a decomposed é sign alike', async () => {
    rig = await easyPostRig();
    const composed = 's\u00e9cret';
    const decomposed = 'se\u0301cret';
    const { body, headers } = rig.fake.trackerEvent('EZ1000000001', composed);
    expect(parseEasyPostTrackerEvent(body, headers, decomposed)).toMatchObject({ ok: true, kind: 'tracker' });
  });

  test('a body re-serialised by JavaScript (weight 136.0 became 136) still verifies, as the Node client allows', async () => {
    rig = await easyPostRig();
    const { body, headers } = rig.fake.trackerEvent('EZ1000000001', 'sécret', { weight: '136.0' });
    const reserialised = JSON.stringify(JSON.parse(body));
    expect(reserialised).toContain('"weight":136,');
    expect(parseEasyPostTrackerEvent(reserialised, headers, 'sécret')).toMatchObject({ ok: true, kind: 'tracker' });
  });

  test('a wrong secret, a changed body, no signature, no secret configured: nothing is trusted', async () => {
    rig = await easyPostRig();
    const { body, headers } = rig.fake.trackerEvent('EZ1000000001', 'sécret');
    expect(parseEasyPostTrackerEvent(body, headers, 'secret')).toEqual({ ok: false, reason: 'bad_signature' });
    expect(parseEasyPostTrackerEvent(body.replace('pre_transit', 'delivered'), headers, 'sécret')).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(parseEasyPostTrackerEvent(body, { 'content-type': 'application/json' }, 'sécret')).toEqual({
      ok: false,
      reason: 'unsigned',
    });
    expect(parseEasyPostTrackerEvent(body, headers, undefined)).toEqual({ ok: false, reason: 'no_secret' });
    // Header names are matched whatever their case, from a plain object or a Headers.
    const upper = { 'X-Hmac-Signature': headers['x-hmac-signature'] as string };
    expect(parseEasyPostTrackerEvent(body, upper, 'sécret')).toMatchObject({ ok: true });
    expect(parseEasyPostTrackerEvent(body, new Headers(upper), 'sécret')).toMatchObject({ ok: true });
  });

  test('a signed tracker event with values that cannot be used is acknowledged, saying what is wrong', async () => {
    const signed = (result: Record<string, unknown>) => {
      const body = JSON.stringify({ id: 'evt_2', object: 'Event', description: 'tracker.updated', result });
      return parseEasyPostTrackerEvent(body, { 'x-hmac-signature': easyPostSignature(body, 'k') }, 'k');
    };
    const tracker = {
      tracking_code: 'EZ1000000001',
      status: 'in_transit',
      est_delivery_date: '2026-03-06T00:00:00Z',
      tracking_details: [{ status: 'in_transit', message: 'Arrived', datetime: '2026-03-03T10:00:00Z' }],
    };
    expect(signed(tracker)).toMatchObject({ ok: true, kind: 'tracker', tracking: { estimatedDelivery: '2026-03-06' } });
    const unusable = (problem: string) => ({
      ok: true,
      kind: 'unusable',
      eventId: 'evt_2',
      description: 'tracker.updated',
      problem,
    });
    expect(signed({ ...tracker, est_delivery_date: '+275760-09-13T00:00:00.000Z' })).toEqual(
      unusable('est_delivery_date is not a date: "+275760-09-13T00:00:00.000Z"'),
    );
    expect(signed({ ...tracker, tracking_details: { status: 'delivered' } })).toEqual(
      unusable('tracking_details is not a list'),
    );
    expect(signed({ ...tracker, tracking_details: [{ datetime: '99999-01-01T00:00:00Z' }] })).toEqual(
      unusable('tracking_details[0].datetime is not a date: "99999-01-01T00:00:00Z"'),
    );
    expect(signed({ ...tracker, tracking_details: [{ datetime: '2026-03-03T10:00:00Z', message: 7 }] })).toEqual(
      unusable('tracking_details[0].message is not text'),
    );
    expect(signed({ ...tracker, tracking_code: 12345678 })).toEqual(unusable('tracking_code is not text'));
    expect(signed({ ...tracker, status: 'constructor' })).toMatchObject({ tracking: { status: 'unknown' } });
  });

  test('a signed event about something else is acknowledged and ignored', async () => {
    rig = await easyPostRig();
    const other = JSON.stringify({ id: 'evt_1', object: 'Event', description: 'refund.successful', result: {} });
    expect(parseEasyPostTrackerEvent(other, { 'x-hmac-signature': easyPostSignature(other, 'k') }, 'k')).toEqual({
      ok: true,
      kind: 'other',
      eventId: 'evt_1',
      description: 'refund.successful',
    });
    const notJson = '<html>';
    expect(parseEasyPostTrackerEvent(notJson, { 'x-hmac-signature': easyPostSignature(notJson, 'k') }, 'k')).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });
});
