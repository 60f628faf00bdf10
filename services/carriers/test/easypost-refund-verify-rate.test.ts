import { afterEach, describe, expect, test } from 'vitest';
import { dollarsToCents } from '../src/easypost/api';
import type { PurchasedLabel, VoidRequest } from '../src/port';
import { easyPostErrorBody } from '../src/testing';
import { type EasyPostRig, easyPostRig, labelRequest, RECIPIENT, SENDER } from './fixtures/easypost';

let rig: EasyPostRig;
afterEach(async () => {
  await rig?.close();
});

async function boughtLabel(): Promise<{ label: PurchasedLabel; voidReq: VoidRequest }> {
  const req = labelRequest();
  const label = await rig.carrier.purchaseLabel(req);
  if (!label.ok) throw new Error(label.message);
  return {
    label,
    voidReq: { idempotencyKey: req.idempotencyKey, trackingNumber: label.trackingNumber, carrierRef: label.carrierRef },
  };
}

describe('refunds', () => {
  test('submitted is pending; a later read of the shipment shows it refunded', async () => {
    rig = await easyPostRig({ fake: { refundSettlesAfterReads: 1 } });
    const { label, voidReq } = await boughtLabel();
    expect(await rig.carrier.voidLabel?.(voidReq)).toEqual({
      ok: true,
      status: 'pending',
      reference: label.carrierRef,
    });
    expect(rig.fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/v2/shipments/${label.carrierRef}/refund`,
    });
    expect(await rig.carrier.refundStatus?.(voidReq)).toEqual({ ok: true, status: 'refunded' });
  });

  test('the label is found by its purchase key when the carrier reference is not given', async () => {
    rig = await easyPostRig({ fake: { refundSettlesAfterReads: 5 } });
    const { voidReq } = await boughtLabel();
    const result = await rig.carrier.voidLabel?.({ ...voidReq, carrierRef: undefined });
    expect(result).toMatchObject({ ok: true, status: 'pending' });
    expect(await rig.carrier.refundStatus?.({ ...voidReq, carrierRef: undefined })).toMatchObject({
      status: 'pending',
    });
  });

  test('asking again for a submitted refund answers where it stands', async () => {
    rig = await easyPostRig({ fake: { refundSettlesAfterReads: 5 } });
    const { voidReq } = await boughtLabel();
    await rig.carrier.voidLabel?.(voidReq);
    expect(await rig.carrier.voidLabel?.(voidReq)).toMatchObject({ ok: true, status: 'pending' });
  });

  test('a scanned label is rejected with a reason for the customer, not EasyPost’s words', async () => {
    rig = await easyPostRig();
    const { label, voidReq } = await boughtLabel();
    rig.fake.setTracking(label.trackingNumber, [
      { status: 'in_transit', message: 'Accepted at USPS Origin Facility', datetime: '2026-03-02T18:00:00Z' },
    ]);
    expect(await rig.carrier.voidLabel?.(voidReq)).toEqual({
      ok: true,
      status: 'rejected',
      reason:
        'USPS did not accept the refund; the label may already have been used or scanned, or be too old to refund.',
    });
  });

  test('not_applicable (the Shipping Refund page) is a rejection too', async () => {
    rig = await easyPostRig();
    const { label, voidReq } = await boughtLabel();
    rig.fake.setRefundOutcome(label.carrierRef as string, 'not_applicable');
    expect(await rig.carrier.voidLabel?.(voidReq)).toEqual({
      ok: true,
      status: 'rejected',
      reason: 'USPS does not refund this label.',
    });
  });

  test('a refund whose answer is lost is read back from the shipment', async () => {
    rig = await easyPostRig({ settings: { timeoutMs: 1000 }, fake: { refundSettlesAfterReads: 5 } });
    const { voidReq } = await boughtLabel();
    rig.fake.fail({ method: 'POST', path: /\/refund$/ }, { stall: 'after' });
    expect(await rig.carrier.voidLabel?.(voidReq)).toMatchObject({ ok: true, status: 'pending' });
    expect(rig.fake.requests.filter((q) => q.path.endsWith('/refund'))).toHaveLength(1);
  });

  test('EasyPost refusing the refund of a label never bought', async () => {
    rig = await easyPostRig();
    const created = await rig.carrier.rate?.({ ...labelRequest() });
    expect(created?.ok).toBe(true);
    const unbought = rig.fake.shipmentIds()[0] as string;
    expect(await rig.carrier.voidLabel?.({ idempotencyKey: 'x', trackingNumber: '', carrierRef: unbought })).toEqual({
      ok: false,
      retryable: false,
      code: 'VOID_REJECTED',
      message: 'The refund was refused: This label was never bought, so there is nothing to refund.',
    });
  });

  test('a label the adapter knows nothing of', async () => {
    rig = await easyPostRig();
    expect(await rig.carrier.voidLabel?.({ idempotencyKey: 'nope', trackingNumber: '9400' })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      message: 'The label was not found at the carrier.',
    });
    expect(await rig.carrier.refundStatus?.({ idempotencyKey: 'nope', trackingNumber: '9400' })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
  });

  test('refund status before any refund was asked for', async () => {
    rig = await easyPostRig();
    const { voidReq } = await boughtLabel();
    expect(await rig.carrier.refundStatus?.(voidReq)).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      message: 'A refund of this label was not found at the carrier.',
    });
  });
});

describe('address verification', () => {
  test('a deliverable address comes back standardised, the corrected fields listed', async () => {
    rig = await easyPostRig();
    const verdict = await rig.carrier.verifyAddress?.(SENDER);
    expect(verdict).toEqual({
      ok: true,
      verdict: 'corrected',
      address: {
        name: 'Flatship Returns',
        street1: '417 MONTGOMERY ST',
        street2: '5TH FLOOR',
        city: 'SAN FRANCISCO',
        state: 'CA',
        zip: expect.stringMatching(/^94104-\d{4}$/),
        country: 'US',
      },
      corrected: ['street1', 'zip'],
    });
    const sent = rig.fake.requests.at(-1);
    expect(sent).toMatchObject({ method: 'POST', path: '/v2/addresses', body: { verify: true } });
  });

  test('an address already standard is deliverable as it is', async () => {
    rig = await easyPostRig();
    const first = await rig.carrier.verifyAddress?.(RECIPIENT);
    if (!first?.ok || first.verdict === 'undeliverable') throw new Error('expected an address');
    const again = await rig.carrier.verifyAddress?.(first.address);
    expect(again).toEqual({ ok: true, verdict: 'deliverable', address: first.address });
  });

  test('an address EasyPost cannot find is undeliverable, with our reason', async () => {
    rig = await easyPostRig();
    const verdict = await rig.carrier.verifyAddress?.({
      ...RECIPIENT,
      street1: '000 unknown street',
      city: 'Not A City',
      state: 'ZZ',
      zip: '00001',
    });
    expect(verdict).toEqual({ ok: true, verdict: 'undeliverable', reason: 'The address was not found.' });
    expect(rig.logs.at(-1)?.details).toMatchObject({
      easypostErrors: ['address: E.ADDRESS.NOT_FOUND: Address not found'],
    });
  });

  test('a missing house number', async () => {
    rig = await easyPostRig();
    expect(await rig.carrier.verifyAddress?.({ ...RECIPIENT, street1: 'Harbor Dr' })).toEqual({
      ok: true,
      verdict: 'undeliverable',
      reason: 'The house number is missing.',
    });
  });

  test('the 422 ADDRESS.VERIFY.FAILURE answer (verify_strict, the Errors page) reads the same', async () => {
    rig = await easyPostRig();
    rig.fake.fail(
      { method: 'POST', path: '/v2/addresses' },
      {
        status: 422,
        body: easyPostErrorBody('ADDRESS.VERIFY.FAILURE', 'Unable to verify address.', [
          { code: 'E.ADDRESS.NOT_FOUND', field: 'address', message: 'Address not found', suggestion: null },
        ]),
      },
    );
    expect(await rig.carrier.verifyAddress?.(RECIPIENT)).toEqual({
      ok: true,
      verdict: 'undeliverable',
      reason: 'The address was not found.',
    });
  });

  test('an incomplete address is refused without a call', async () => {
    rig = await easyPostRig();
    expect(await rig.carrier.verifyAddress?.({ ...RECIPIENT, city: ' ' })).toMatchObject({
      ok: false,
      code: 'ADDRESS_INCOMPLETE',
    });
    expect(rig.fake.requests).toHaveLength(0);
  });
});

describe('rate', () => {
  test('the cost in cents of our service, from the shipment’s USPS rate; nothing bought', async () => {
    rig = await easyPostRig();
    for (const [uid, service] of [
      ['usps_ground_advantage', 'GroundAdvantage'],
      ['usps_priority_mail', 'Priority'],
      ['usps_priority_mail_express', 'Express'],
    ] as const) {
      const result = await rig.carrier.rate?.({ ...labelRequest(), serviceUid: uid });
      const shipment = rig.fake.shipment(rig.fake.shipmentIds().at(-1) as string) as {
        rates: { service: string; rate: string }[];
      };
      const expected = dollarsToCents(shipment.rates.find((r) => r.service === service)?.rate);
      expect(result).toEqual({ ok: true, serviceUid: uid, costCents: expected });
    }
    expect(rig.fake.buys).toBe(0);
  });

  test('an unknown service and an overweight parcel are refused without a call', async () => {
    rig = await easyPostRig();
    expect(await rig.carrier.rate?.({ ...labelRequest(), serviceUid: 'usps_media_mail' })).toMatchObject({
      ok: false,
      code: 'SERVICE_UNKNOWN',
      message: 'Unknown service usps_media_mail for carrier usps',
    });
    const heavy = labelRequest({ parcel: { length: 1, width: 1, height: 1, weightLb: 71 } });
    expect(await rig.carrier.rate?.(heavy)).toMatchObject({
      ok: false,
      code: 'WEIGHT_LIMIT',
      message: 'Weight limit exceeded: USPS Ground Advantage accepts parcels up to 70 lb; this one weighs 71 lb.',
    });
    expect(rig.fake.requests).toHaveLength(0);
  });

  test('no rate for the service (EasyPost lists a rate error) is a decline', async () => {
    rig = await easyPostRig();
    rig.fake.fail(
      { method: 'POST', path: '/v2/shipments' },
      {
        status: 201,
        body: {
          id: 'shp_0000000000000000000000000000dead',
          object: 'Shipment',
          rates: [],
          messages: [{ carrier: 'USPS', type: 'rate_error', message: 'Unable to retrieve USPS rates.' }],
        },
      },
    );
    expect(await rig.carrier.rate?.(labelRequest())).toMatchObject({ ok: false, code: 'DECLINED', retryable: false });
    expect(rig.logs.at(-1)?.message).toBe('EasyPost offered no rate for the service');
  });
});
