import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, test } from 'vitest';
import { dollarsToCents } from '../src/easypost/api';
import { createRateGate } from '../src/pool/rate-slots';
import {
  createProcessMemory,
  type LabelRequest,
  type LabelResult,
  type PurchasedLabel,
  type PurchaseMemory,
} from '../src/port';
import { RATE_GUARD_MS } from '../src/registry';
import { startFakeEasyPost } from '../src/testing/fake-easypost';
import { createVirtualClock, runGates } from '../src/testing/virtual-clock';
import { isValidImpb } from '../src/usps/impb';
import { type EasyPostRig, easyPostRig, labelRequest } from './fixtures/easypost';

let rig: EasyPostRig;
afterEach(async () => {
  await rig?.close();
});

const buyCalls = (r: EasyPostRig) => r.fake.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/buy'));

async function bought(req: LabelRequest, r = rig): Promise<PurchasedLabel> {
  const result = await r.carrier.purchaseLabel(req);
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result;
}

describe('purchase', () => {
  test('creates the shipment with our key as reference, buys our service and returns the 4x6 PDF label', async () => {
    rig = await easyPostRig();
    const req = labelRequest({ references: { orderId: 'ord_77', sku: 'TEE-M', quantity: '2' } });
    const label = await bought(req);

    expect(rig.fake.buys).toBe(1);
    expect(rig.fake.shipmentsCreated).toBe(1);
    const shipment = rig.fake.shipment(label.carrierRef as string) as {
      id: string;
      reference: string;
      tracking_code: string;
      selected_rate: { rate: string };
    };
    expect(shipment.reference).toBe(req.idempotencyKey);
    expect(shipment.selected_rate).toMatchObject({ carrier: 'USPS', service: 'GroundAdvantage' });
    expect(label).toMatchObject({ ok: true, serviceUid: 'usps_ground_advantage', carrierRef: shipment.id });
    expect(label.trackingNumber).toBe(shipment.tracking_code);
    expect(isValidImpb(label.trackingNumber)).toBe(true);
    expect(label.costCents).toBe(dollarsToCents(shipment.selected_rate.rate));
    expect(label.zpl).toBeUndefined();

    // EasyPost's units: ounces and inches; the label asked for as a 4x6 PDF.
    const create = rig.fake.requests.find((q) => q.method === 'POST' && q.path === '/v2/shipments');
    expect(create?.body).toMatchObject({
      shipment: {
        reference: req.idempotencyKey,
        parcel: { length: 10, width: 8, height: 4, weight: 40 },
        options: {
          label_format: 'PDF',
          label_size: '4x6',
          label_date: '2026-03-02T12:00:00.000Z',
          print_custom_1: 'Order ord_77',
          print_custom_2: 'SKU TEE-M Qty 2',
        },
        to_address: { name: 'Dr. Steve Brule', zip: '90277', country: 'US' },
      },
    });

    const pdf = await PDFDocument.load(label.pdf);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
  });

  test('sends the key as Basic auth to the API and never to the file host', async () => {
    rig = await easyPostRig();
    await bought(labelRequest());
    const expected = `Basic ${Buffer.from(`${rig.fake.testKey}:`).toString('base64')}`;
    const api = rig.fake.requests.filter((q) => q.path.startsWith('/v2/'));
    const files = rig.fake.requests.filter((q) => q.path.startsWith('/files/'));
    expect(api.length).toBeGreaterThan(0);
    expect(files).toHaveLength(1);
    for (const q of api) expect(q.headers.authorization).toBe(expected);
    for (const q of files) expect(q.headers.authorization).toBeUndefined();
  });

  test('the same key again returns the same label without creating or buying anything', async () => {
    rig = await easyPostRig();
    const req = labelRequest();
    const first = await bought(req);
    const again = await bought(req);
    expect(again.trackingNumber).toBe(first.trackingNumber);
    expect(again.carrierRef).toBe(first.carrierRef);
    expect(again.pdf.equals(first.pdf)).toBe(true);
    expect(rig.fake.shipmentsCreated).toBe(1);
    expect(rig.fake.buys).toBe(1);
  });

  test('a crash after the shipment is stored and before the buy: the retry buys that shipment, once', async () => {
    rig = await easyPostRig();
    const store = createProcessMemory();
    // The process dies right after the id is written (the write itself succeeded).
    const dying: PurchaseMemory = {
      get: store.get,
      put: async (key, value) => {
        await store.put(key, value);
        throw new Error('process killed');
      },
      keep: async (key, value) => {
        await store.keep(key, value);
        throw new Error('process killed');
      },
    };
    const req = labelRequest();
    await expect(rig.another({ memory: dying }).purchaseLabel(req)).rejects.toThrow('process killed');
    expect(rig.fake.shipmentsCreated).toBe(1);
    expect(rig.fake.buys).toBe(0);

    const restarted = rig.another({ memory: store });
    const label = await bought(req, { ...rig, carrier: restarted });
    expect(label.carrierRef).toBe(await store.get(`easypost:shipment:${req.idempotencyKey}`));
    expect(rig.fake.shipmentsCreated).toBe(1);
    expect(rig.fake.buys).toBe(1);
  });

  test('a buy whose answer never comes is settled by reading the shipment, not by buying again', async () => {
    rig = await easyPostRig({ settings: { timeoutMs: 1000 } });
    rig.fake.fail({ method: 'POST', path: /\/buy$/ }, { stall: 'after' });
    const label = await bought(labelRequest());
    expect(buyCalls(rig)).toHaveLength(1);
    expect(rig.fake.buys).toBe(1);
    expect(rig.fake.buysOf(label.carrierRef as string)).toBe(1);
    expect(rig.observed.find((o) => o.operation === 'buy')?.outcome).toBe('timeout');
    expect(rig.logs.some((l) => l.message.includes('may or may not have gone through'))).toBe(true);
  });

  test('bought, then the answer and the read both lost (a crash): the retry returns the label, nothing new bought', async () => {
    rig = await easyPostRig({ settings: { timeoutMs: 1000, maxRetries: 1 } });
    rig.fake.fail({ method: 'POST', path: /\/buy$/ }, { stall: 'after' });
    rig.fake.fail({ method: 'GET', path: /^\/v2\/shipments\/shp_[0-9a-f]+$/ }, { reset: true }, 2);
    const req = labelRequest();
    const first = await rig.carrier.purchaseLabel(req);
    expect(first).toMatchObject({ ok: false, retryable: true, code: 'UNAVAILABLE' });
    expect(rig.fake.buys).toBe(1);

    const label = await bought(req, { ...rig, carrier: rig.another() });
    expect(rig.fake.buysOf(label.carrierRef as string)).toBe(1);
    expect(rig.fake.buys).toBe(1);
    expect(rig.fake.shipmentsCreated).toBe(1);
    expect(buyCalls(rig)).toHaveLength(1);
  });

  test('a 500 on buy is not sent again; the shipment shows it was not bought, and a retry buys it once', async () => {
    rig = await easyPostRig();
    rig.fake.fail(
      { method: 'POST', path: /\/buy$/ },
      { status: 500, body: { error: { code: 'INTERNAL_SERVER_ERROR', message: 'boom', errors: [] } } },
    );
    const req = labelRequest();
    expect(await rig.carrier.purchaseLabel(req)).toMatchObject({ ok: false, retryable: true, code: 'UNAVAILABLE' });
    expect(buyCalls(rig)).toHaveLength(1);
    expect(rig.fake.buys).toBe(0);
    const label = await bought(req);
    expect(rig.fake.buysOf(label.carrierRef as string)).toBe(1);
    expect(rig.fake.shipmentsCreated).toBe(1);
  });

  test('"postage exists" on buy (a concurrent attempt bought it) returns the label bought', async () => {
    rig = await easyPostRig();
    const req = labelRequest();
    const first = await bought(req);
    // A second attempt that read the shipment before the first bought it: its buy is refused as already bought.
    const stale = { ...rig.fake.shipment(first.carrierRef as string), postage_label: null, tracking_code: null };
    rig.fake.fail({ method: 'GET', path: `/v2/shipments/${first.carrierRef}` }, { status: 200, body: stale });
    const again = await bought(req);
    expect(again.trackingNumber).toBe(first.trackingNumber);
    expect(rig.fake.buys).toBe(1);
  });

  test('two attempts racing on one key buy one shipment', async () => {
    rig = await easyPostRig();
    const req = labelRequest();
    const [a, b] = await Promise.all([rig.carrier.purchaseLabel(req), rig.another().purchaseLabel(req)]);
    expect(a.ok && b.ok).toBe(true);
    expect((a as PurchasedLabel).trackingNumber).toBe((b as PurchasedLabel).trackingNumber);
    expect(rig.fake.buys).toBe(1);
  });
});

describe('rate limits', () => {
  test('throttled buys wait for Retry-After and go through, each shipment bought once', async () => {
    rig = await easyPostRig({ fake: { buysPerSecond: 2, retryAfterSeconds: 1 }, settings: { maxRetries: 4 } });
    const results = await Promise.all(Array.from({ length: 5 }, () => rig.carrier.purchaseLabel(labelRequest())));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(rig.fake.buys).toBe(5);
    for (const id of rig.fake.shipmentIds()) expect(rig.fake.buysOf(id)).toBe(1);
    const throttled = rig.observed.filter((o) => o.operation === 'buy' && o.rateLimited > 0);
    expect(throttled.length).toBeGreaterThan(0);
    expect(throttled.every((o) => o.outcome === 'ok')).toBe(true);
    expect(rig.fake.throttled).toBe(throttled.reduce((n, o) => n + o.rateLimited, 0));
  });

  test('still throttled after the retries: a retryable refusal, nothing bought; the retry buys once', async () => {
    rig = await easyPostRig({ fake: { buysPerSecond: 1 }, settings: { maxRetries: 0 } });
    expect((await rig.carrier.purchaseLabel(labelRequest())).ok).toBe(true);
    const req = labelRequest();
    expect(await rig.carrier.purchaseLabel(req)).toMatchObject({
      ok: false,
      retryable: true,
      code: 'RATE_LIMITED',
      message: 'USPS is busy right now. Please try again in a few minutes.',
    });
    expect(rig.fake.buys).toBe(1);
    rig.clock.now += 1000;
    expect((await rig.carrier.purchaseLabel(req)).ok).toBe(true);
    expect(rig.fake.buys).toBe(2);
    expect(rig.fake.shipmentsCreated).toBe(2);
  });
});

describe("the operator's rate limit", () => {
  /** EasyPost's adapter behind the gate a carrier set gives it, on a virtual clock the fake counts arrivals by. */
  async function gatedRig(fake: { buysPerSecond: number; retryAfterSeconds?: number }, ratePerSecond: number) {
    const clock = createVirtualClock(Date.parse('2026-03-02T15:00:00Z'));
    const gate = createRateGate({ carrier: 'easypost', ratePerSecond, guardMs: RATE_GUARD_MS, clock });
    const counted = { letGo: 0, pausedAt: [] as number[] };
    rig = await easyPostRig({
      fake: { ...fake, now: () => clock.now() },
      settings: { maxRetries: 4 },
      carrier: {
        purchaseGate: {
          take: () => gate.take().then(() => void counted.letGo++),
          pause: (ms) => {
            counted.pausedAt.push(clock.now());
            gate.pause(ms);
          },
        },
      },
    });
    const buy = async (n: number) => {
      const results: LabelResult[] = [];
      for (let i = 0; i < n; i++) void rig.carrier.purchaseLabel(labelRequest()).then((r) => results.push(r));
      // The clock moves on once every buy the gate let go has reached the fake.
      await runGates(
        clock,
        [gate],
        () => results.length === n,
        () => buyCalls(rig).length === counted.letGo,
      );
      return results;
    };
    return { clock, buy, pausedAt: counted.pausedAt };
  }

  test("EasyPost's adapter at EasyPost's rate never meets a 429, however many purchases wait", async () => {
    const { buy } = await gatedRig({ buysPerSecond: 4 }, 4);
    const results = await buy(9);
    expect(results.every((r) => r.ok)).toBe(true);
    // Every buy was sent once and accepted: the fake answers 429 to a fifth buy arriving within a second.
    expect(buyCalls(rig)).toHaveLength(9);
    expect(rig.fake.buys).toBe(9);
    expect(rig.fake.throttled).toBe(0);
    const arrivals = buyCalls(rig).map((q) => q.at);
    for (const t of arrivals) expect(arrivals.filter((a) => a >= t && a < t + 1000).length).toBeLessThanOrEqual(4);
    // Spread evenly, and no slower: one every (1 s + guard) / 4.
    expect(arrivals.slice(1).map((t, i) => t - (arrivals[i] as number))).toEqual(
      Array(8).fill((1000 + RATE_GUARD_MS) / 4),
    );
  });

  test('a 429 pauses every purchase for its Retry-After, not only the one throttled', async () => {
    // The operator set a rate above what the account allows: EasyPost answers the third buy in a second 429.
    const { buy, pausedAt } = await gatedRig({ buysPerSecond: 2, retryAfterSeconds: 1 }, 10);
    const results = await buy(6);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(rig.fake.buys).toBe(6);
    const calls = buyCalls(rig);
    expect(rig.fake.throttled).toBeGreaterThan(0);
    expect(pausedAt).toHaveLength(rig.fake.throttled);
    // Once a 429 came back (at the moment the throttled buy arrived: no latency), no buy (its retry or any other
    // purchase's) was sent until Retry-After had passed.
    for (const t of pausedAt) {
      expect(calls.filter((q) => q.at > t && q.at < t + 1000).map((q) => q.at - t)).toEqual([]);
    }
    for (const id of rig.fake.shipmentIds()) expect(rig.fake.buysOf(id)).toBe(1);
  });
});

describe('the fake as a distant carrier', () => {
  test('answers latencyMs after the call is done, and counts the call when it arrives', async () => {
    const fake = await startFakeEasyPost({ latencyMs: 200 });
    try {
      const started = Date.now();
      const res = await fetch(`${fake.url}/v2/users`, {
        headers: { authorization: `Basic ${Buffer.from(`${fake.productionKey}:`).toString('base64')}` },
      });
      const answeredAfter = Date.now() - started;
      expect(res.status).toBe(200);
      expect(answeredAfter).toBeGreaterThanOrEqual(200);
      const call = fake.requests.find((q) => q.path === '/v2/users');
      expect((call?.at ?? 0) - started).toBeLessThan(answeredAfter);
    } finally {
      await fake.close();
    }
  });
});

describe('formats', () => {
  test('zpl-203 as well: bought as PNG, converted to PDF and ZPL through the label endpoint', async () => {
    rig = await easyPostRig();
    const label = await bought(labelRequest({ formats: ['pdf-4x6', 'zpl-203'] }));
    const create = rig.fake.requests.find((q) => q.method === 'POST' && q.path === '/v2/shipments');
    expect(create?.body).toMatchObject({ shipment: { options: { label_format: 'PNG' } } });
    const conversions = rig.fake.requests
      .filter((q) => q.path.endsWith('/label'))
      .map((q) => q.method + (q.path.includes(label.carrierRef as string) ? ' own' : ''));
    expect(conversions).toEqual(['GET own', 'GET own']);
    expect(label.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const zpl = label.zpl?.toString('latin1') ?? '';
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl).toContain('^PW812');
    expect(zpl).toContain(label.trackingNumber);
    expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
  });

  test('a retry of a ZPL purchase finds the converted files and buys nothing', async () => {
    rig = await easyPostRig();
    const req = labelRequest({ formats: ['pdf-4x6', 'zpl-203'] });
    const first = await bought(req);
    const again = await bought(req);
    expect(again.zpl?.equals(first.zpl as Buffer)).toBe(true);
    expect(rig.fake.requests.filter((q) => q.path.endsWith('/label'))).toHaveLength(2);
    expect(rig.fake.buys).toBe(1);
  });

  test('a format the port does not know is refused before anything is sent', async () => {
    rig = await easyPostRig();
    const result = await rig.carrier.purchaseLabel(labelRequest({ formats: ['epl2' as never] }));
    expect(result).toMatchObject({ ok: false, retryable: false, code: 'FORMAT_UNSUPPORTED' });
    expect(rig.fake.requests).toHaveLength(0);
  });

  test('EasyPost refusing a conversion is FORMAT_UNSUPPORTED', async () => {
    rig = await easyPostRig();
    rig.fake.fail(
      { method: 'GET', path: /\/label$/ },
      {
        status: 422,
        body: { error: { code: 'SHIPMENT.POSTAGE.FORMAT_UNAVAILABLE', message: 'no', errors: [] } },
      },
    );
    const result = await rig.carrier.purchaseLabel(labelRequest({ formats: ['zpl-203'] }));
    expect(result).toMatchObject({
      ok: false,
      code: 'FORMAT_UNSUPPORTED',
      message: 'USPS cannot make labels in the zpl-203 format.',
    });
  });
});
