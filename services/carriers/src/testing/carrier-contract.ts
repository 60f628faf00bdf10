import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  CARRIER_CAPABILITIES,
  type Carrier,
  type LabelAddress,
  type LabelRequest,
  type PurchasedLabel,
  supports,
  TRACKING_STATUSES,
} from '../port';

/**
 * What every carrier plugin must do, the sandbox included, run against the plugin and (for a real carrier) its
 * fake server. A plugin's own tests cover its carrier's particulars; this suite covers what callers rely on:
 * idempotent purchases, the shape of a refusal, label formats, voids, and that every capability a plugin
 * declares is there and behaves.
 */
export interface CarrierContractFixture {
  carrier: Carrier;
  /** How many labels the carrier has really bought (the fake's count); absent when it cannot be known. */
  purchases?: () => number | Promise<number>;
  /** An address this carrier reports undeliverable (`verifyAddress`). */
  undeliverable?: LabelAddress;
  /** The service to buy in the suite (the first one by default). */
  serviceUid?: string;
  close?: () => Promise<void>;
}

export const CONTRACT_FROM: LabelAddress = {
  name: 'Harbor Goods',
  phone: '2125550100',
  street1: '350 5th Ave',
  city: 'New York',
  state: 'NY',
  zip: '10118',
  country: 'US',
};

export const CONTRACT_TO: LabelAddress = {
  name: 'Jane Doe',
  street1: '1600 Amphitheatre Pkwy',
  city: 'Mountain View',
  state: 'CA',
  zip: '94043',
  country: 'US',
};

/** A refusal's message is for a customer: words, not a carrier's JSON, a stack or an HTTP dump. */
function expectCustomerWords(message: string) {
  expect(message.trim().length).toBeGreaterThan(0);
  expect(message).not.toMatch(/[{}]|\bat \S+:\d+|HTTP\/\d|stack|undefined|null\b|\[object/);
}

export function describeCarrierContract(name: string, setup: () => Promise<CarrierContractFixture>): void {
  describe(`carrier contract: ${name}`, () => {
    let f: CarrierContractFixture;
    let serviceUid: string;
    let run = 0;
    /** A fresh key per purchase, so cases never share a label unless they mean to. */
    const key = (label: string) => `contract-${label}-${process.pid}-${Date.now().toString(36)}-${++run}`;
    const request = (overrides: Partial<LabelRequest> = {}): LabelRequest => ({
      idempotencyKey: key('label'),
      serviceUid,
      from: CONTRACT_FROM,
      to: CONTRACT_TO,
      parcel: { length: 10, width: 8, height: 4, weightLb: 2 },
      references: { orderId: 'ORDER-1', sku: 'SKU-1', quantity: '1' },
      ...overrides,
    });
    const bought = async (overrides: Partial<LabelRequest> = {}): Promise<PurchasedLabel> => {
      const result = await f.carrier.purchaseLabel(request(overrides));
      if (!result.ok) throw new Error(`the purchase was refused: ${result.message}`);
      return result;
    };

    beforeAll(async () => {
      f = await setup();
      serviceUid = f.serviceUid ?? (f.carrier.services()[0]?.uid as string);
    });
    afterAll(async () => {
      await f?.close?.();
    });

    test('lists what it sells, and declares only known capabilities, each with its method', () => {
      const services = f.carrier.services();
      expect(services.length).toBeGreaterThan(0);
      for (const s of services) {
        expect(s.uid).toMatch(/^[a-z0-9_]+$/);
        expect(s.name.length).toBeGreaterThan(0);
        expect(s.maxWeight).toBeGreaterThan(0);
      }
      for (const c of f.carrier.capabilities) expect(CARRIER_CAPABILITIES).toContain(c);
      const methods = {
        void: ['voidLabel', 'refundStatus'],
        verifyAddress: ['verifyAddress'],
        rate: ['rate'],
        scanForm: ['createScanForm'],
        track: ['track'],
        zpl: [],
      } as const;
      for (const capability of CARRIER_CAPABILITIES) {
        for (const method of methods[capability]) {
          expect(typeof f.carrier[method], `${capability} → ${method}`).toBe(
            supports(f.carrier, capability) ? 'function' : 'undefined',
          );
        }
      }
    });

    test('a purchase gives a tracking number, the service, and a 4x6 PDF; its cost in whole cents', async () => {
      const label = await bought();
      expect(label.trackingNumber).toMatch(/^[A-Z0-9]{8,40}$/);
      expect(label.serviceUid).toBe(serviceUid);
      expect(label.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const pdf = await PDFDocument.load(label.pdf);
      const { width, height } = pdf.getPage(0).getSize();
      expect([Math.round(width), Math.round(height)]).toEqual([288, 432]);
      if (label.costCents !== undefined) {
        expect(Number.isInteger(label.costCents)).toBe(true);
        expect(label.costCents).toBeGreaterThan(0);
      }
    });

    test('the same key buys once: replayed, and twice at once, it gives the same label', async () => {
      const before = await f.purchases?.();
      const req = request({ idempotencyKey: key('replay') });
      const first = await f.carrier.purchaseLabel(req);
      const [again, concurrent] = await Promise.all([f.carrier.purchaseLabel(req), f.carrier.purchaseLabel(req)]);
      expect(first.ok).toBe(true);
      for (const r of [again, concurrent]) {
        expect(r).toMatchObject({ ok: true, trackingNumber: (first as PurchasedLabel).trackingNumber });
      }
      if (before !== undefined) expect((await f.purchases?.()) ?? 0).toBe(before + 1);
    });

    test('different keys buy different labels', async () => {
      const [a, b] = await Promise.all([bought(), bought()]);
      expect(a.trackingNumber).not.toBe(b.trackingNumber);
    });

    test('refusals are answers, in customer words, saying whether trying again could help', async () => {
      const unknown = await f.carrier.purchaseLabel(request({ serviceUid: 'no_such_service' }));
      expect(unknown).toMatchObject({ ok: false, retryable: false, code: 'SERVICE_UNKNOWN' });
      const service = f.carrier.services().find((s) => s.uid === serviceUid)!;
      const heavy = await f.carrier.purchaseLabel(
        request({ parcel: { length: 10, width: 8, height: 4, weightLb: service.maxWeight + 1 } }),
      );
      expect(heavy).toMatchObject({ ok: false, retryable: false, code: 'WEIGHT_LIMIT' });
      const badZip = await f.carrier.purchaseLabel(request({ to: { ...CONTRACT_TO, zip: '9404' } }));
      expect(badZip).toMatchObject({ ok: false, retryable: false });
      for (const r of [unknown, heavy, badZip]) if (!r.ok) expectCustomerWords(r.message);
    });

    test('ZPL comes with the PDF when asked for and supported; otherwise the purchase is refused', async () => {
      const result = await f.carrier.purchaseLabel(request({ formats: ['pdf-4x6', 'zpl-203'] }));
      if (supports(f.carrier, 'zpl')) {
        if (!result.ok) throw new Error(result.message);
        expect(result.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        const zpl = result.zpl?.toString('latin1') ?? '';
        expect(zpl.trimStart().startsWith('^XA')).toBe(true);
        expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
        // The same tracking number is on both.
        expect(zpl.replace(/\s/g, '')).toContain(result.trackingNumber.slice(-8));
      } else {
        expect(result).toMatchObject({ ok: false, retryable: false, code: 'FORMAT_UNSUPPORTED' });
      }
    });

    test('a void of an unused label is refunded or pending, and asking again answers where it stands', async () => {
      if (!supports(f.carrier, 'void')) return;
      const label = await bought();
      const ref = { idempotencyKey: 'unused', trackingNumber: label.trackingNumber, carrierRef: label.carrierRef };
      const voided = await f.carrier.voidLabel!(ref);
      expect(voided.ok).toBe(true);
      if (!voided.ok) return;
      expect(['refunded', 'pending']).toContain(voided.status);
      const again = await f.carrier.voidLabel!(ref);
      expect(again).toMatchObject({ ok: true });
      if (again.ok) expect(['refunded', 'pending']).toContain(again.status);
      const status = await f.carrier.refundStatus!(ref);
      expect(status.ok).toBe(true);
      if (status.ok) expect(['refunded', 'pending']).toContain(status.status);
    });

    test('verifyAddress: a good address is deliverable (maybe corrected), a bad one undeliverable with a reason', async () => {
      if (!supports(f.carrier, 'verifyAddress')) return;
      const good = await f.carrier.verifyAddress!(CONTRACT_TO);
      expect(good.ok).toBe(true);
      if (good.ok) {
        expect(['deliverable', 'corrected']).toContain(good.verdict);
        if (good.verdict !== 'undeliverable') {
          expect(good.address.zip).toMatch(/^\d{5}(-\d{4})?$/);
          expect(good.address.city.length).toBeGreaterThan(0);
        }
      }
      if (f.undeliverable) {
        const bad = await f.carrier.verifyAddress!(f.undeliverable);
        expect(bad).toMatchObject({ ok: true, verdict: 'undeliverable' });
        if (bad.ok && bad.verdict === 'undeliverable') expectCustomerWords(bad.reason);
      }
    });

    test('rate: the cost of a label in whole cents, for every service', async () => {
      if (!supports(f.carrier, 'rate')) return;
      for (const s of f.carrier.services()) {
        const rate = await f.carrier.rate!({
          serviceUid: s.uid,
          from: CONTRACT_FROM,
          to: CONTRACT_TO,
          parcel: { length: 10, width: 8, height: 4, weightLb: 2 },
        });
        expect(rate).toMatchObject({ ok: true, serviceUid: s.uid });
        if (rate.ok) {
          expect(Number.isInteger(rate.costCents)).toBe(true);
          expect(rate.costCents).toBeGreaterThan(0);
        }
      }
    });

    test('a SCAN form covers the labels given, as a PDF; the same key gives the same form; none is refused', async () => {
      if (!supports(f.carrier, 'scanForm')) return;
      const labels = await Promise.all([bought(), bought()]);
      const formKey = key('form');
      const req = {
        idempotencyKey: formKey,
        from: CONTRACT_FROM,
        shipDate: new Date(),
        labels: labels.map((l) => ({ trackingNumber: l.trackingNumber, carrierRef: l.carrierRef })),
      };
      const form = await f.carrier.createScanForm!(req);
      if (!form.ok) throw new Error(form.message);
      expect(form.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect([...form.trackingNumbers].sort()).toEqual(labels.map((l) => l.trackingNumber).sort());
      const again = await f.carrier.createScanForm!(req);
      expect(again).toMatchObject({ ok: true, formId: form.formId });
      const none = await f.carrier.createScanForm!({ ...req, idempotencyKey: key('empty'), labels: [] });
      expect(none).toMatchObject({ ok: false, retryable: false });
    });

    test('tracking gives a known status and events, newest first', async () => {
      if (!supports(f.carrier, 'track')) return;
      const label = await bought();
      const tracked = await f.carrier.track!(label.trackingNumber);
      if (!tracked.ok) throw new Error(tracked.message);
      expect(tracked.trackingNumber).toBe(label.trackingNumber);
      expect(TRACKING_STATUSES).toContain(tracked.status);
      const times = tracked.events.map((e) => Date.parse(e.at));
      for (const t of times) expect(Number.isNaN(t)).toBe(false);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      for (const e of tracked.events) expect(TRACKING_STATUSES).toContain(e.status);
    });

    test('the balance is whole cents', async () => {
      const cents = await f.carrier.balance();
      expect(Number.isInteger(cents)).toBe(true);
    });

    test('a connection check, when there is one, succeeds with working credentials', async () => {
      if (!f.carrier.checkConnection) return;
      const check = await f.carrier.checkConnection();
      expect(check).toMatchObject({ ok: true });
    });
  });
}
