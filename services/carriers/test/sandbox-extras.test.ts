import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { journeyMovesIn, moveJourneyClock } from '../src/sandbox/journey-clock';
import { createSandboxCarrier } from '../src/sandbox/sandbox-carrier';
import { CONTRACT_FROM, CONTRACT_TO } from '../src/testing/carrier-contract';

const NOW = new Date('2026-11-20T15:30:00Z');
const carrier = createSandboxCarrier({ now: () => NOW });
const dir = mkdtempSync(join(tmpdir(), 'sandbox-extras-'));
afterAll(async () => {
  await carrier.close();
  rmSync(dir, { recursive: true, force: true });
});

const parcel = { length: 10, width: 8, height: 4, weightLb: 2.2 };
const buy = async (key: string, serviceUid = 'usps_priority_mail') => {
  const r = await carrier.purchaseLabel({
    idempotencyKey: key,
    serviceUid,
    from: CONTRACT_FROM,
    to: CONTRACT_TO,
    parcel,
    formats: ['pdf-4x6', 'zpl-203'],
  });
  if (!r.ok) throw new Error(r.message);
  return r;
};

describe('the sandbox beyond purchases', () => {
  it('costs a label by service and started pound, the same on the label as in a rate', async () => {
    const rates = await Promise.all(
      carrier.services().map((s) => carrier.rate!({ serviceUid: s.uid, from: CONTRACT_FROM, to: CONTRACT_TO, parcel })),
    );
    // 2.2 lb is three started pounds: base + 2 × per pound.
    expect(rates).toEqual([
      { ok: true, serviceUid: 'usps_priority_mail', costCents: 795 + 2 * 120 },
      { ok: true, serviceUid: 'usps_ground_advantage', costCents: 455 + 2 * 65 },
      { ok: true, serviceUid: 'usps_priority_mail_express', costCents: 2850 + 2 * 310 },
    ]);
    expect((await buy('cost-1')).costCents).toBe(1035);
    expect(
      await carrier.rate!({
        serviceUid: 'usps_priority_mail',
        from: CONTRACT_FROM,
        to: CONTRACT_TO,
        parcel: { ...parcel, weightLb: 71 },
      }),
    ).toMatchObject({ ok: false, code: 'WEIGHT_LIMIT' });
  });

  it('standardises an address, says what it corrected, and names why one is undeliverable', async () => {
    expect(
      await carrier.verifyAddress!({ ...CONTRACT_TO, street1: '12 north Main Street, Apt. 4', city: 'mountain view' }),
    ).toEqual({
      ok: true,
      verdict: 'corrected',
      address: expect.objectContaining({
        street1: '12 N MAIN ST APT 4',
        city: 'MOUNTAIN VIEW',
        zip: expect.stringMatching(/^94043-\d{4}$/),
      }),
      corrected: ['street1', 'city', 'zip'],
    });
    const standard = await carrier.verifyAddress!({
      ...CONTRACT_TO,
      street1: '12 N MAIN ST',
      city: 'MOUNTAIN VIEW',
      zip: '94043-1234',
    });
    expect(standard).toMatchObject({ ok: true, verdict: 'deliverable' });
    expect(await carrier.verifyAddress!({ ...CONTRACT_TO, street1: 'Main Street' })).toEqual({
      ok: true,
      verdict: 'undeliverable',
      reason: 'The street address has no house number.',
    });
    expect(await carrier.verifyAddress!({ ...CONTRACT_TO, zip: '9404' })).toMatchObject({ verdict: 'undeliverable' });
  });

  it("checks the ZIP against the city and state: a wrong ZIP is corrected to the city's, one that does not exist refused", async () => {
    const empire = { ...CONTRACT_TO, street1: '350 Fifth Avenue', city: 'New York', state: 'NY' };
    expect(await carrier.verifyAddress!({ ...empire, zip: '11201' })).toEqual({
      ok: true,
      verdict: 'corrected',
      address: expect.objectContaining({
        street1: '350 FIFTH AVE',
        city: 'NEW YORK',
        state: 'NY',
        zip: expect.stringMatching(/^10001-\d{4}$/),
      }),
      corrected: ['street1', 'city', 'zip'],
    });
    expect(await carrier.verifyAddress!({ ...empire, zip: '00000' })).toEqual({
      ok: true,
      verdict: 'undeliverable',
      reason: 'The ZIP code 00000 does not exist.',
    });
    // A city the ZIP does not name, in the ZIP's state: the ZIP's city is taken.
    expect(await carrier.verifyAddress!({ ...CONTRACT_TO, city: 'Nowhereville' })).toMatchObject({
      verdict: 'corrected',
      address: { city: 'MOUNTAIN VIEW', zip: expect.stringMatching(/^94043-/) },
    });
    // The ZIP's city with the wrong state: the state is corrected.
    expect(await carrier.verifyAddress!({ ...CONTRACT_TO, state: 'NV' })).toMatchObject({
      verdict: 'corrected',
      address: { state: 'CA' },
    });
    expect(await carrier.verifyAddress!({ ...CONTRACT_TO, city: 'Nowhereville', state: 'NV' })).toMatchObject({
      verdict: 'undeliverable',
      reason: 'The ZIP code 94043 is in CA, and NV has no city named NOWHEREVILLE.',
    });
  });

  it('refunds a void at once; Express goes to review first; old, scanned and unknown labels are refused', async () => {
    const priority = await buy('void-1');
    const ref = { idempotencyKey: 'void-1', trackingNumber: priority.trackingNumber };
    expect(await carrier.voidLabel!(ref)).toEqual({ ok: true, status: 'refunded' });

    const express = await buy('void-2', 'usps_priority_mail_express');
    const expressRef = { idempotencyKey: 'void-2', trackingNumber: express.trackingNumber };
    expect(await carrier.voidLabel!(expressRef)).toEqual({
      ok: true,
      status: 'pending',
      reference: expect.stringMatching(/^DSP\d{9}$/),
    });
    expect(await carrier.refundStatus!(expressRef)).toEqual({ ok: true, status: 'refunded' });

    const old = { ...ref, purchasedAt: new Date(NOW.getTime() - 31 * 86_400_000) };
    expect(await carrier.voidLabel!(old)).toEqual({
      ok: true,
      status: 'rejected',
      reason: 'labels can be refunded within 30 days of purchase.',
    });
    // Bought an hour ago: still awaiting the item, so unused. A day ago: USPS has it, so it was used.
    const hoursAgo = (h: number) => ({ ...ref, purchasedAt: new Date(NOW.getTime() - h * 3_600_000) });
    expect(await carrier.voidLabel!(hoursAgo(1))).toEqual({ ok: true, status: 'refunded' });
    expect(await carrier.voidLabel!(hoursAgo(24))).toEqual({
      ok: true,
      status: 'rejected',
      reason: 'USPS scanned this label, so it was used.',
    });
    expect(await carrier.voidLabel!({ idempotencyKey: 'x', trackingNumber: '1234' })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
  });

  it('tracks a label along its journey as hours pass since it was bought', async () => {
    const { trackingNumber } = await buy('track-1');
    const at = (hours: number) => ({ purchasedAt: new Date(NOW.getTime() - hours * 3_600_000) });
    expect(await carrier.track!(trackingNumber, at(1))).toMatchObject({
      status: 'pre_transit',
      events: [{ status: 'pre_transit' }],
    });
    const moving = await carrier.track!(trackingNumber, at(31));
    expect(moving).toMatchObject({
      status: 'in_transit',
      estimatedDelivery: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    if (moving.ok)
      expect(moving.events.map((e) => e.description)).toEqual([
        'Arrived at USPS Regional Facility',
        'USPS in possession of item',
        'Shipping Label Created, USPS Awaiting Item',
      ]);
    const done = await carrier.track!(trackingNumber, at(80));
    expect(done).toMatchObject({ status: 'delivered' });
    if (done.ok) expect(done.estimatedDelivery).toBeUndefined();
    expect(await carrier.track!('not-a-number')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('with a short journey hour, tracking and the refund rule move on the same clock', async () => {
    // A journey hour of one second: a label bought 19 s ago is still awaiting the item (refundable); at 20 s USPS has it.
    const fast = createSandboxCarrier({ now: () => NOW, trackingHourMs: 1000 });
    const { trackingNumber } = await buy('track-fast');
    const since = (seconds: number) => ({ purchasedAt: new Date(NOW.getTime() - seconds * 1000) });
    const ref = (seconds: number) => ({ idempotencyKey: 'track-fast', trackingNumber, ...since(seconds) });
    expect(await fast.track!(trackingNumber, since(19))).toMatchObject({ status: 'pre_transit' });
    expect(await fast.voidLabel!(ref(19))).toEqual({ ok: true, status: 'refunded' });
    const moved = await fast.track!(trackingNumber, since(20));
    expect(moved).toMatchObject({ status: 'in_transit' });
    // Event times are on the same clock: the parcel was taken in 20 journey hours (20 s) after purchase.
    if (moved.ok) expect(moved.events[0]?.at).toBe(new Date(NOW.getTime()).toISOString());
    expect(await fast.voidLabel!(ref(20))).toMatchObject({ status: 'rejected' });
    expect(await fast.track!(trackingNumber, since(72))).toMatchObject({ status: 'delivered' });
    // The default carrier still reads real hours: the same 20 s is nothing.
    expect(await carrier.track!(trackingNumber, since(20))).toMatchObject({ status: 'pre_transit' });
    expect(() => createSandboxCarrier({ trackingHourMs: 0 })).toThrow(/trackingHourMs/);
    await fast.close();
  });

  it('on a journey clock moved by hand, parcels bought before a move travel and those bought after start out', async () => {
    const file = join(dir, 'journey');
    const moved = createSandboxCarrier({ now: () => NOW, journeyMoves: journeyMovesIn(file) });
    const { trackingNumber } = await buy('journey-moved');
    const ref = (purchasedAt: Date) => ({ idempotencyKey: 'journey-moved', trackingNumber, purchasedAt });
    const early = new Date(NOW.getTime() - 60_000);
    // No move yet (no file): real hours, so a label bought a minute ago awaits the item.
    expect(await moved.track!(trackingNumber, { purchasedAt: early })).toMatchObject({ status: 'pre_transit' });

    // Twenty journey hours on, from a moment after the early purchase: USPS has that parcel, so it was used.
    await moveJourneyClock(file, 20 * 3_600_000, new Date(NOW.getTime() - 30_000));
    expect(await moved.track!(trackingNumber, { purchasedAt: early })).toMatchObject({ status: 'in_transit' });
    expect(await moved.voidLabel!(ref(early))).toMatchObject({ status: 'rejected' });
    // A label bought after the move starts its journey: still awaiting the item, still refundable.
    const late = new Date(NOW.getTime() - 10_000);
    expect(await moved.track!(trackingNumber, { purchasedAt: late })).toMatchObject({ status: 'pre_transit' });
    expect(await moved.voidLabel!(ref(late))).toEqual({ ok: true, status: 'refunded' });

    // Moves add up: 52 more hours deliver the early parcel (72 in all); the late one is on its way.
    await moveJourneyClock(file, 52 * 3_600_000, new Date(NOW.getTime() - 5_000));
    expect(await moved.track!(trackingNumber, { purchasedAt: early })).toMatchObject({ status: 'delivered' });
    expect(await moved.track!(trackingNumber, { purchasedAt: late })).toMatchObject({ status: 'in_transit' });
    // The carrier without the file keeps real time.
    expect(await carrier.track!(trackingNumber, { purchasedAt: early })).toMatchObject({ status: 'pre_transit' });

    writeFileSync(file, 'yesterday 5\n');
    await expect(moved.track!(trackingNumber, { purchasedAt: early })).rejects.toThrow(
      /"yesterday 5" is not a journey move/,
    );
    await moved.close();
  });

  it('gives a ZPL label at 203 dpi carrying the same tracking number and the IMpb barcode', async () => {
    const label = await buy('zpl-1');
    const zpl = label.zpl!.toString('utf8');
    expect(zpl).toMatch(/^\^XA\n\^CI28\n\^PW812\n\^LL1218/);
    expect(zpl).toContain(`^BCN,190,N,N,N,N^FD>;>842094043>8${label.trackingNumber}^FS`);
    expect(zpl).toContain('^FDJane Doe^FS');
    expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
    // Field data never carries a character the printer would read as a command.
    const odd = await carrier.purchaseLabel({
      idempotencyKey: 'zpl-2',
      serviceUid: 'usps_priority_mail',
      from: CONTRACT_FROM,
      to: { ...CONTRACT_TO, name: 'Jane ^XZ Doe~' },
      parcel,
      formats: ['zpl-203'],
    });
    if (!odd.ok) throw new Error(odd.message);
    expect(odd.zpl!.toString('utf8').match(/\^XZ/g)).toHaveLength(1);
  });

  it('makes one PS Form 5630 for the labels, whose form number scans', async () => {
    const labels = await Promise.all([buy('form-1'), buy('form-2'), buy('form-3')]);
    const form = await carrier.createScanForm!({
      idempotencyKey: 'day-1',
      from: CONTRACT_FROM,
      shipDate: NOW,
      labels: labels.map((l) => ({ trackingNumber: l.trackingNumber })),
    });
    if (!form.ok) throw new Error(form.message);
    expect(form.formId).toMatch(/^SF\d{12}$/);
    const file = join(dir, 'form.pdf');
    writeFileSync(file, form.pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('PS Form 5630');
    expect(text).toMatch(/Pieces\s+3/);
    for (const l of labels) expect(text.replace(/ /g, '')).toContain(l.trackingNumber);
    execFileSync('pdftoppm', ['-r', '150', '-png', '-singlefile', file, join(dir, 'form')]);
    const scanned = execFileSync('zbarimg', ['-q', '--raw', join(dir, 'form.png')], { encoding: 'utf8' });
    expect(scanned.trim()).toBe(form.formId);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    expect(
      await carrier.createScanForm!({
        idempotencyKey: 'day-2',
        from: CONTRACT_FROM,
        shipDate: NOW,
        labels: [{ trackingNumber: 'TP123' }],
      }),
    ).toMatchObject({ ok: false, code: 'SCAN_FORM_REFUSED' });
  });
});
