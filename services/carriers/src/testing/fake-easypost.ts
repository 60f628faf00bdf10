import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { deflateSync } from 'node:zlib';
import { easyPostSignature } from '../easypost/webhook';
import { createPdf, pdfReady } from '../label/pdf';
import { type LabelRenderer, renderLabel } from '../label/render-pool';
import { buildImpb } from '../usps/impb';
import { USPS_SERVICES, type UspsServiceDefinition } from '../usps/services';

/**
 * EasyPost on loopback, answering as its API reference shows (https://docs.easypost.com: Shipments, Rates, Buy,
 * label conversion, Refunds, Addresses and verifications, ScanForms, Trackers, Users, Errors) with the object
 * shapes of the reference's example answers. Label and form files are real: a 4x6 PDF drawn by our renderer, ZPL II
 * text, a PNG, a form PDF; they are served from `/files/…` on the same server, as EasyPost serves them from its file
 * host. Faults are scripted per route (`fail`), buys can be throttled (`setBuysPerSecond`), and every buy is counted
 * so a test can prove a label was never bought twice.
 *
 * What it models beyond the reference (the reference does not say, so the fake picks one and says so):
 * - POST /shipments/{id}/refund on a shipment whose refund is already submitted or refunded answers the shipment as
 *   it stands; on one never bought, 422 SHIPMENT.REFUND.UNAVAILABLE.
 * - A refund moves from submitted to refunded after `refundSettlesAfterReads` reads of the shipment.
 * - A 429 carries `Retry-After` (seconds) unless `retryAfterSeconds` is null, with error code RATE_LIMITED.
 * - The Users API answers production keys only (the Users page), else 403 MODE.UNAUTHORIZED.
 * - Tracking: EZ1000000001 (the reference's example) is pre_transit and EZ4000000004 delivered; a code of a label
 *   bought here is pre_transit until `setTracking` scripts its scans; any other code has status unknown.
 */

export interface FakeFault {
  /** Answer with this status (and body, headers) instead of doing the call. */
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** 'before': never answer and do nothing; 'after': do the call (a buy buys), then never answer. */
  stall?: 'before' | 'after';
  /** Answer 200 with a body that is not JSON. */
  malformed?: boolean;
  /** Drop the connection without answering. */
  reset?: boolean;
}

export interface FakeEasyPostOptions {
  testKey?: string;
  productionKey?: string;
  /** The fake's clock (ms), for the buy throttle and timestamps. */
  now?: () => number;
  /** Buys accepted per second of the clock; above it, 429. 0: no limit. */
  buysPerSecond?: number;
  /** Milliseconds every answer takes to leave, after the call is done (default 0): a carrier's round trip. */
  latencyMs?: number;
  /**
   * Draws the label PDFs (default: on the fake's own thread). A render pool keeps the fake's thread free under
   * load, so it reads every request when it comes, as a carrier's many servers do (the buy limit counts arrivals).
   */
  renderer?: LabelRenderer;
  retryAfterSeconds?: number | null;
  /** The wallet balance, dollars as EasyPost writes it ("1234.50000"). */
  balance?: string;
  refundSettlesAfterReads?: number;
  /** Scan forms answer "creating" first and are made on the next read. */
  scanFormsCreateAsync?: boolean;
}

export interface FakeRequestRecord {
  method: string;
  path: string;
  /** When the request arrived, by the fake's clock. */
  at: number;
  mode: 'test' | 'production' | null;
  body: unknown;
  headers: IncomingMessage['headers'];
}

interface Detail {
  status: string;
  message: string;
  datetime: string;
  city?: string;
  state?: string;
  zip?: string;
}

interface StoredShipment {
  json: Record<string, unknown>;
  mode: 'test' | 'production';
  labelFormat: string;
  service?: UspsServiceDefinition;
  reads: number;
  refundReadsLeft: number;
  refundOutcome?: 'rejected' | 'not_applicable';
  scanFormId?: string;
  buys: number;
}

export interface FakeEasyPost {
  /** The API origin (give it as EASYPOST_API_BASE_URL). */
  readonly url: string;
  readonly testKey: string;
  readonly productionKey: string;
  /** Successful buys, in all. */
  readonly buys: number;
  /** Buys answered 429 because they came above `buysPerSecond`. */
  readonly throttled: number;
  /** When each of those arrived, by the fake's clock. */
  readonly throttledAt: readonly number[];
  readonly shipmentsCreated: number;
  /** Every request, in order (bodies parsed when JSON). */
  readonly requests: FakeRequestRecord[];
  /** How many times a shipment was bought (never more than 1 at EasyPost). */
  buysOf(shipmentId: string): number;
  shipment(id: string): Record<string, unknown> | undefined;
  shipmentIds(): string[];
  /** The next `times` requests matching answer with `fault`. */
  fail(match: { method?: string; path: string | RegExp }, fault: FakeFault, times?: number): void;
  setBuysPerSecond(n: number): void;
  setBalance(dollars: string): void;
  setRefundOutcome(shipmentId: string, outcome: 'rejected' | 'not_applicable'): void;
  setTracking(trackingCode: string, details: Detail[], estDeliveryDate?: string): void;
  /** A tracker.updated Event for a code, as EasyPost POSTs it to a webhook: the body and its signed headers. */
  trackerEvent(
    trackingCode: string,
    secret: string,
    opts?: { weight?: string },
  ): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

export const FAKE_EASYPOST_TEST_KEY = 'EZTKfake0000000000000000000000test';
export const FAKE_EASYPOST_PRODUCTION_KEY = 'EZAKfake000000000000000000000prod';

/** EasyPost's error answer (https://docs.easypost.com/docs/errors). */
export function easyPostErrorBody(code: string, message: string, errors: unknown[] = []) {
  return { error: { code, message, errors } };
}

const id = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const dollars = (cents: number) => (cents / 100).toFixed(2);
const SERVICE_BY_EP: Record<string, string> = {
  Priority: 'usps_priority_mail',
  GroundAdvantage: 'usps_ground_advantage',
  Express: 'usps_priority_mail_express',
};
const ABBREVIATIONS: [RegExp, string][] = [
  [/\bSTREET\b/g, 'ST'],
  [/\bAVENUE\b/g, 'AVE'],
  [/\bROAD\b/g, 'RD'],
  [/\bBOULEVARD\b/g, 'BLVD'],
  [/\bDRIVE\b/g, 'DR'],
  [/\bSUITE\b/g, 'STE'],
  [/\bAPARTMENT\b/g, 'APT'],
  [/\bNORTH\b/g, 'N'],
  [/\bSOUTH\b/g, 'S'],
];

export async function startFakeEasyPost(opts: FakeEasyPostOptions = {}): Promise<FakeEasyPost> {
  const testKey = opts.testKey ?? FAKE_EASYPOST_TEST_KEY;
  const productionKey = opts.productionKey ?? FAKE_EASYPOST_PRODUCTION_KEY;
  const now = opts.now ?? Date.now;
  let buysPerSecond = opts.buysPerSecond ?? 0;
  const latencyMs = opts.latencyMs ?? 0;
  let throttled = 0;
  const throttledAt: number[] = [];
  const retryAfter = opts.retryAfterSeconds === undefined ? 1 : opts.retryAfterSeconds;
  let balance = opts.balance ?? '1000.00000';
  const settleAfter = opts.refundSettlesAfterReads ?? 1;

  const shipments = new Map<string, StoredShipment>();
  const byTrackingCode = new Map<string, string>();
  const files = new Map<string, { type: string; body: Buffer }>();
  const scanForms = new Map<string, Record<string, unknown>>();
  const tracking = new Map<string, { details: Detail[]; est?: string }>();
  const faults: { method?: string; path: string | RegExp; fault: FakeFault; times: number }[] = [];
  const requests: FakeRequestRecord[] = [];
  const buyTimes: number[] = [];
  const sockets = new Set<Socket>();
  let buys = 0;
  let shipmentsCreated = 0;
  let serial = 0;
  let url = '';

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(text);
  };
  const err = (res: ServerResponse, status: number, code: string, message: string, errors: unknown[] = []) =>
    send(res, status, easyPostErrorBody(code, message, errors));

  function modeOf(req: IncomingMessage): 'test' | 'production' | null {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Basic ')) return null;
    const user = Buffer.from(auth.slice(6), 'base64').toString('utf8').replace(/:$/, '');
    if (user === testKey) return 'test';
    if (user === productionKey) return 'production';
    return null;
  }

  function address(input: Record<string, unknown> | undefined, mode: string) {
    const a = input ?? {};
    const s = (k: string) => (typeof a[k] === 'string' ? (a[k] as string) : null);
    return {
      id: id('adr'),
      object: 'Address',
      created_at: iso(now()),
      updated_at: iso(now()),
      name: s('name'),
      company: s('company'),
      street1: s('street1'),
      street2: s('street2'),
      city: s('city'),
      state: s('state'),
      zip: s('zip'),
      country: s('country') ?? 'US',
      phone: s('phone'),
      email: s('email'),
      mode,
      carrier_facility: null,
      residential: null,
      federal_tax_id: null,
      state_tax_id: null,
      verifications: {},
    };
  }

  function zone(from: string, to: string): number {
    const a = Number(from.slice(0, 3));
    const b = Number(to.slice(0, 3));
    return Number.isFinite(a) && Number.isFinite(b) ? 1 + Math.min(7, Math.floor(Math.abs(a - b) / 100)) : 5;
  }

  function rates(shipmentId: string, weightOz: number, z: number, mode: string) {
    const lb = Math.max(1, Math.ceil(weightOz / 16));
    const price: Record<string, number> = {
      GroundAdvantage: 520 + 55 * z + 40 * lb,
      Priority: 790 + 85 * z + 65 * lb,
      Express: 2790 + 190 * z + 140 * lb,
    };
    return Object.entries(price).map(([service, cents]) => ({
      id: id('rate'),
      object: 'Rate',
      created_at: iso(now()),
      updated_at: iso(now()),
      mode,
      service,
      carrier: 'USPS',
      rate: dollars(cents),
      currency: 'USD',
      retail_rate: dollars(Math.round(cents * 1.3)),
      retail_currency: 'USD',
      list_rate: dollars(Math.round(cents * 1.1)),
      list_currency: 'USD',
      billing_type: 'easypost',
      delivery_days: service === 'Express' ? 1 : service === 'Priority' ? 2 : 3,
      delivery_date: null,
      delivery_date_guaranteed: false,
      est_delivery_days: service === 'Express' ? 1 : service === 'Priority' ? 2 : 3,
      shipment_id: shipmentId,
      carrier_account_id: 'ca_fake00000000000000000000000usps',
    }));
  }

  function createShipment(res: ServerResponse, body: Record<string, unknown>, mode: 'test' | 'production') {
    const s = body.shipment as Record<string, unknown> | undefined;
    if (!s || typeof s !== 'object')
      return err(res, 422, 'PARAMETER.REQUIRED', 'Missing required parameter.', [
        { field: 'shipment', message: 'is required' },
      ]);
    const parcel = s.parcel as Record<string, unknown> | undefined;
    const weight = Number(parcel?.weight);
    if (!parcel || !(weight > 0)) {
      return err(res, 422, 'PARCEL.PARAMETERS.INVALID', 'Invalid parcel.', [
        { field: 'parcel.weight', message: 'must be greater than 0' },
      ]);
    }
    for (const role of ['to_address', 'from_address'] as const) {
      const a = s[role] as Record<string, unknown> | undefined;
      if (!a?.street1 || !a.city || !a.zip) {
        return err(res, 422, 'ADDRESS.VERIFY.MISSING_STREET', 'Address is missing required fields.', [
          { field: role, message: 'street1, city and zip are required' },
        ]);
      }
    }
    const options = { currency: 'USD', payment: { type: 'SENDER' }, date_advance: 0, ...((s.options as object) ?? {}) };
    const labelFormat = String((options as Record<string, unknown>).label_format ?? 'PNG').toUpperCase();
    const shipmentId = id('shp');
    const from = address(s.from_address as Record<string, unknown>, mode);
    const to = address(s.to_address as Record<string, unknown>, mode);
    const json: Record<string, unknown> = {
      id: shipmentId,
      created_at: iso(now()),
      is_return: false,
      messages: [],
      mode,
      options,
      reference: typeof s.reference === 'string' ? s.reference : null,
      status: 'unknown',
      tracking_code: null,
      updated_at: iso(now()),
      batch_id: null,
      batch_status: null,
      batch_message: null,
      customs_info: null,
      from_address: from,
      insurance: null,
      order_id: null,
      parcel: {
        id: id('prcl'),
        object: 'Parcel',
        created_at: iso(now()),
        updated_at: iso(now()),
        length: parcel.length ?? null,
        width: parcel.width ?? null,
        height: parcel.height ?? null,
        predefined_package: null,
        weight,
        mode,
      },
      postage_label: null,
      rates: rates(shipmentId, weight, zone(String(from.zip), String(to.zip)), mode),
      refund_status: null,
      scan_form: null,
      selected_rate: null,
      tracker: null,
      to_address: to,
      usps_zone: zone(String(from.zip), String(to.zip)),
      return_address: from,
      buyer_address: to,
      forms: [],
      fees: [],
      object: 'Shipment',
    };
    shipments.set(shipmentId, {
      json,
      mode,
      labelFormat,
      reads: 0,
      refundReadsLeft: 0,
      buys: 0,
    });
    shipmentsCreated++;
    send(res, 201, json);
  }

  function fileUrl(kind: string, name: string, type: string, body: Buffer) {
    const path = `/files/${kind}/${name}`;
    files.set(path, { type, body });
    return `${url}${path}`;
  }

  async function labelPdf(stored: StoredShipment): Promise<Buffer> {
    const s = stored.json;
    const svc = stored.service as UspsServiceDefinition;
    const addr = (a: Record<string, unknown>) => ({
      name: String(a.name ?? a.company ?? ''),
      street1: String(a.street1 ?? ''),
      ...(a.street2 ? { street2: String(a.street2) } : {}),
      city: String(a.city ?? ''),
      state: String(a.state ?? ''),
      zip: String(a.zip ?? ''),
      country: 'US' as const,
    });
    const options = s.options as Record<string, unknown>;
    const labelDate = typeof options.label_date === 'string' ? new Date(options.label_date) : new Date(now());
    return (opts.renderer?.render ?? renderLabel)({
      service: { letter: svc.letter, banner: svc.banner, trackingBanner: svc.trackingBanner },
      trackingNumber: String(s.tracking_code),
      from: addr(s.from_address as Record<string, unknown>),
      to: addr(s.to_address as Record<string, unknown>),
      weightLb: Number((s.parcel as Record<string, unknown>).weight) / 16,
      shipDate: Number.isNaN(labelDate.getTime()) ? new Date(now()) : labelDate,
    });
  }

  function labelZpl(stored: StoredShipment): Buffer {
    // ZPL II for a 4x6 label at 203 dpi: 812 x 1218 dots.
    const s = stored.json;
    const to = s.to_address as Record<string, string>;
    const code = String(s.tracking_code);
    const zpl = [
      '^XA',
      '^PW812',
      '^LL1218',
      `^FO40,40^A0N,60,60^FD${stored.service?.letter ?? 'P'}^FS`,
      `^FO40,140^A0N,36,36^FD${stored.service?.banner.replace(/[®™]/g, '') ?? ''}^FS`,
      `^FO40,260^A0N,30,30^FDSHIP TO: ${to.name ?? ''}^FS`,
      `^FO40,300^A0N,30,30^FD${to.street1 ?? ''}^FS`,
      `^FO40,340^A0N,30,30^FD${to.city ?? ''} ${to.state ?? ''} ${to.zip ?? ''}^FS`,
      `^FO60,700^BY3^BCN,200,Y,N,N^FD${code}^FS`,
      '^XZ',
      '',
    ].join('\n');
    return Buffer.from(zpl, 'latin1');
  }

  function pngOf(width: number, height: number): Buffer {
    // A white grayscale PNG: enough for a label_url of type image/png to be a real file.
    const raw = Buffer.alloc((width + 1) * height, 0xff);
    for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0;
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(td));
      return Buffer.concat([len, td, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    ihdr[8] = 8;
    ihdr[9] = 0;
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }

  function withinBuyLimit(): boolean {
    if (buysPerSecond <= 0) return true;
    const t = now();
    while (buyTimes.length > 0 && (buyTimes[0] as number) <= t - 1000) buyTimes.shift();
    if (buyTimes.length >= buysPerSecond) return false;
    buyTimes.push(t);
    return true;
  }

  async function buy(res: ServerResponse, shipmentId: string, body: Record<string, unknown>) {
    const stored = shipments.get(shipmentId);
    if (!stored) return err(res, 404, 'NOT_FOUND', 'The requested resource could not be found.');
    if (!withinBuyLimit()) {
      throttled++;
      throttledAt.push(now());
      return send(
        res,
        429,
        easyPostErrorBody('RATE_LIMITED', 'Too many requests.'),
        retryAfter === null ? {} : { 'retry-after': String(retryAfter) },
      );
    }
    const s = stored.json;
    if (s.postage_label) return err(res, 422, 'SHIPMENT.POSTAGE.EXISTS', 'Postage already exists for this shipment.');
    const rateId = (body.rate as Record<string, unknown> | undefined)?.id;
    const rate = (s.rates as Record<string, unknown>[]).find((r) => r.id === rateId);
    if (!rate) return err(res, 422, 'SHIPMENT.MISSING_RATE', 'A rate is required to buy this shipment.');
    const service = USPS_SERVICES.find((x) => x.uid === SERVICE_BY_EP[String(rate.service)]) as UspsServiceDefinition;
    stored.service = service;
    const trackingCode = buildImpb({
      serviceTypeCode: service.serviceTypeCode,
      mailerId: '812345',
      serial: String(++serial).padStart(10, '0'),
    });
    s.tracking_code = trackingCode;
    s.selected_rate = rate;
    s.status = 'unknown';
    s.updated_at = iso(now());
    const labelId = id('pl');
    const label: Record<string, unknown> = {
      object: 'PostageLabel',
      id: labelId,
      created_at: iso(now()),
      updated_at: iso(now()),
      date_advance: 0,
      integrated_form: 'none',
      label_date: iso(now()),
      label_resolution: 300,
      label_size: '4x6',
      label_type: 'default',
      label_file_type: 'image/png',
      label_url: null,
      label_pdf_url: null,
      label_zpl_url: null,
      label_epl2_url: null,
      label_file: null,
    };
    s.postage_label = label;
    if (stored.labelFormat === 'PDF') {
      const pdf = await labelPdf(stored);
      label.label_file_type = 'application/pdf';
      label.label_url = fileUrl('postage_label', `${labelId}.pdf`, 'application/pdf', pdf);
      label.label_pdf_url = label.label_url;
    } else if (stored.labelFormat === 'ZPL') {
      label.label_file_type = 'application/zpl';
      label.label_url = fileUrl('postage_label', `${labelId}.zpl`, 'application/zpl', labelZpl(stored));
      label.label_zpl_url = label.label_url;
    } else {
      label.label_url = fileUrl('postage_label', `${labelId}.png`, 'image/png', pngOf(120, 180));
    }
    s.tracker = trackerJson(trackingCode, stored);
    s.fees = [
      { object: 'Fee', type: 'LabelFee', amount: '0.00000', charged: true, refunded: false },
      { object: 'Fee', type: 'PostageFee', amount: `${rate.rate}000`, charged: true, refunded: false },
    ];
    byTrackingCode.set(trackingCode, shipmentId);
    stored.buys++;
    buys++;
    send(res, 200, s);
  }

  async function convert(res: ServerResponse, shipmentId: string, format: string) {
    const stored = shipments.get(shipmentId);
    if (!stored) return err(res, 404, 'NOT_FOUND', 'The requested resource could not be found.');
    const label = stored.json.postage_label as Record<string, unknown> | null;
    if (!label) return err(res, 422, 'SHIPMENT.POSTAGE.REQUIRED', 'The shipment has no postage.');
    // "PNG is the only format that allows for conversion" (the label_format option).
    if (stored.labelFormat !== 'PNG') {
      return err(res, 422, 'SHIPMENT.POSTAGE.INVALID_FORMAT', 'Only PNG labels can be converted.');
    }
    const f = format.toUpperCase();
    if (f === 'PDF' && !label.label_pdf_url) {
      label.label_pdf_url = fileUrl('postage_label', `${label.id}.pdf`, 'application/pdf', await labelPdf(stored));
    } else if (f === 'ZPL' && !label.label_zpl_url) {
      label.label_zpl_url = fileUrl('postage_label', `${label.id}.zpl`, 'application/zpl', labelZpl(stored));
    } else if (f === 'EPL2' && !label.label_epl2_url) {
      label.label_epl2_url = fileUrl('postage_label', `${label.id}.epl2`, 'application/epl2', Buffer.from('N\nP1\n'));
    } else if (!['PDF', 'ZPL', 'EPL2'].includes(f)) {
      return err(res, 422, 'SHIPMENT.POSTAGE.INVALID_FORMAT', 'Invalid file format.');
    }
    send(res, 200, stored.json);
  }

  function readShipment(res: ServerResponse, shipmentId: string) {
    const stored = shipments.get(shipmentId) ?? findByReference(shipmentId);
    if (!stored) return err(res, 404, 'NOT_FOUND', 'The requested resource could not be found.');
    stored.reads++;
    if (stored.json.refund_status === 'submitted' && --stored.refundReadsLeft <= 0) {
      stored.json.refund_status = 'refunded';
    }
    send(res, 200, stored.json);
  }

  function findByReference(reference: string): StoredShipment | undefined {
    // "reference: An optional field that may be used in place of id in other API endpoints".
    return [...shipments.values()].find((s) => s.json.reference === reference);
  }

  function refund(res: ServerResponse, shipmentId: string) {
    const stored = shipments.get(shipmentId);
    if (!stored) return err(res, 404, 'NOT_FOUND', 'The requested resource could not be found.');
    const s = stored.json;
    if (!s.postage_label)
      return err(res, 422, 'SHIPMENT.REFUND.UNAVAILABLE', 'This shipment has no postage to refund.');
    if (s.refund_status === 'submitted' || s.refund_status === 'refunded') return send(res, 200, s);
    const scanned = tracking.get(String(s.tracking_code))?.details.some((d) => d.status !== 'pre_transit');
    if (stored.refundOutcome) s.refund_status = stored.refundOutcome;
    else if (scanned) s.refund_status = 'rejected';
    else {
      s.refund_status = 'submitted';
      stored.refundReadsLeft = settleAfter;
    }
    send(res, 200, s);
  }

  function verify(
    res: ServerResponse,
    body: Record<string, unknown>,
    query: URLSearchParams,
    mode: string,
    wrap: boolean,
  ) {
    const input = (body.address as Record<string, unknown> | undefined) ?? {};
    const a = address(input, mode);
    const strict = wrap || body.verify_strict !== undefined || query.has('verify_strict[]');
    const wanted = wrap || strict || body.verify !== undefined || query.has('verify[]');
    if (!wanted) return send(res, 201, a);
    const street1 = String(a.street1 ?? '').toUpperCase();
    const errors: { code: string; field: string; message: string; suggestion: null }[] = [];
    if (/^0+\s|UNKNOWN/.test(street1) || a.state === 'ZZ' || /^0+$/.test(String(a.zip ?? '').slice(0, 5))) {
      errors.push({ code: 'E.ADDRESS.NOT_FOUND', field: 'address', message: 'Address not found', suggestion: null });
    } else if (!/^\d/.test(street1)) {
      errors.push({
        code: 'E.HOUSE_NUMBER.MISSING',
        field: 'street1',
        message: 'House number is missing',
        suggestion: null,
      });
    }
    if (errors.length > 0) {
      if (strict) return err(res, 422, 'ADDRESS.VERIFY.FAILURE', 'Unable to verify address.', errors);
      a.verifications = {
        zip4: { success: false, errors, details: null },
        delivery: { success: false, errors, details: {} },
      };
      return send(res, 201, a);
    }
    let std = street1;
    for (const [re, abbr] of ABBREVIATIONS) std = std.replace(re, abbr);
    const zip5 = String(a.zip ?? '').slice(0, 5);
    const plus4 = String((Number(zip5) * 7 + std.length * 13) % 10_000).padStart(4, '0');
    Object.assign(a, {
      name: a.name ? String(a.name).toUpperCase() : null,
      company: a.company ? String(a.company).toUpperCase() : null,
      street1: std,
      street2: a.street2 ? String(a.street2).toUpperCase() : '',
      city: String(a.city ?? '').toUpperCase(),
      state: String(a.state ?? '').toUpperCase(),
      zip: `${zip5}-${plus4}`,
      residential: false,
      verifications: {
        zip4: { success: true, errors: [], details: null },
        delivery: {
          success: true,
          errors: [],
          details: { latitude: 37.79342, longitude: -122.40288, time_zone: 'America/Los_Angeles' },
        },
      },
    });
    send(res, wrap ? 200 : 201, wrap ? { address: a } : a);
  }

  async function createScanForm(res: ServerResponse, body: Record<string, unknown>, mode: string) {
    const list = Array.isArray(body.shipments) ? (body.shipments as Record<string, unknown>[]) : [];
    if (list.length === 0) return err(res, 422, 'SCAN_FORM.SHIPMENTS.REQUIRED', 'Shipments are required.');
    const picked: StoredShipment[] = [];
    for (const entry of list) {
      const stored = shipments.get(String(entry.id));
      if (!stored?.json.postage_label || stored.json.refund_status || stored.scanFormId) {
        return err(res, 422, 'SCAN_FORM.SHIPMENTS.INVALID', 'One or more shipments are invalid for a scan form.', [
          { field: 'shipments', message: `${String(entry.id)} cannot be added` },
        ]);
      }
      picked.push(stored);
    }
    const origin = (s: StoredShipment) => {
      const a = s.json.from_address as Record<string, unknown>;
      return [a.street1, a.city, a.state, a.zip].map((v) => String(v ?? '').toUpperCase()).join('|');
    };
    if (new Set(picked.map(origin)).size > 1) {
      return err(res, 422, 'SCAN_FORM.SHIPMENTS.INVALID', 'Shipments must share an origin address.');
    }
    const formId = id('sf');
    const codes = picked.map((s) => String(s.json.tracking_code));
    for (const s of picked) s.scanFormId = formId;
    await pdfReady;
    const from = picked[0]?.json.from_address as Record<string, unknown>;
    const pdf = await createPdf({
      pageSize: 'LETTER',
      defaultStyle: { font: 'LabelSans', fontSize: 10 },
      content: [
        { text: 'PS Form 5630 - Shipment Confirmation Acceptance Notice', bold: true, fontSize: 14 },
        { text: `SCAN form ${formId}`, margin: [0, 6, 0, 0] },
        {
          text: `From: ${from.name ?? ''}, ${from.street1 ?? ''}, ${from.city ?? ''} ${from.state ?? ''} ${from.zip ?? ''}`,
        },
        { text: `Total packages: ${codes.length}`, margin: [0, 6, 0, 6] },
        ...codes.map((c) => ({ text: c, font: 'LabelMono' })),
      ],
    }).getBuffer();
    const form: Record<string, unknown> = {
      id: formId,
      object: 'ScanForm',
      created_at: iso(now()),
      updated_at: iso(now()),
      tracking_codes: codes,
      address: from,
      status: opts.scanFormsCreateAsync ? 'creating' : 'created',
      message: null,
      form_url: null,
      form_file_type: null,
      batch_id: id('batch'),
      confirmation: null,
      mode,
    };
    const made = () => {
      form.status = 'created';
      form.form_url = fileUrl('scan_form', `${formId}.pdf`, 'application/pdf', pdf);
    };
    if (!opts.scanFormsCreateAsync) made();
    else form.makeLater = made;
    scanForms.set(formId, form);
    send(res, 201, publicForm(form));
  }

  const publicForm = (form: Record<string, unknown>) => {
    const { makeLater: _, ...rest } = form;
    return rest;
  };

  function readScanForm(res: ServerResponse, formId: string) {
    const form = scanForms.get(formId);
    if (!form) return err(res, 404, 'NOT_FOUND', 'The requested resource could not be found.');
    if (form.status === 'creating' && typeof form.makeLater === 'function') (form.makeLater as () => void)();
    send(res, 200, publicForm(form));
  }

  function trackerJson(code: string, stored?: StoredShipment) {
    const scripted = tracking.get(code);
    let details: Detail[] = scripted?.details ?? [];
    let status = details.at(-1)?.status ?? 'unknown';
    if (!scripted && code === 'EZ1000000001') {
      status = 'pre_transit';
      details = [{ status, message: 'Pre-Shipment Info Sent to USPS', datetime: iso(now() - 86_400_000) }];
    } else if (!scripted && code === 'EZ4000000004') {
      status = 'delivered';
      details = [
        { status: 'pre_transit', message: 'Pre-Shipment Info Sent to USPS', datetime: iso(now() - 3 * 86_400_000) },
        {
          status: 'delivered',
          message: 'Delivered',
          datetime: iso(now() - 86_400_000),
          city: 'CHARLESTON',
          state: 'SC',
          zip: '29401',
        },
      ];
    } else if (!scripted && stored) {
      status = 'pre_transit';
      details = [{ status, message: 'Shipping Label Created', datetime: iso(now()) }];
    }
    return {
      id: `trk_${Buffer.from(code).toString('hex').slice(0, 32).padEnd(32, '0')}`,
      object: 'Tracker',
      mode: stored?.mode ?? 'test',
      tracking_code: code,
      status,
      status_detail: 'status_update',
      created_at: iso(now()),
      updated_at: iso(now()),
      signed_by: null,
      weight: null,
      est_delivery_date: scripted?.est ?? null,
      shipment_id: stored ? stored.json.id : null,
      carrier: 'USPS',
      // Oldest first, as EasyPost lists them.
      tracking_details: details.map((d) => ({
        object: 'TrackingDetail',
        message: d.message,
        description: null,
        status: d.status,
        status_detail: 'status_update',
        datetime: d.datetime,
        source: 'USPS',
        carrier_code: null,
        tracking_location: {
          object: 'TrackingLocation',
          city: d.city ?? null,
          state: d.state ?? null,
          country: null,
          zip: d.zip ?? null,
        },
      })),
      fees: [],
      carrier_detail: null,
      public_url: `https://track.easypost.com/${code}`,
    };
  }

  function createTracker(res: ServerResponse, body: Record<string, unknown>) {
    const t = body.tracker as Record<string, unknown> | undefined;
    const code = typeof t?.tracking_code === 'string' ? t.tracking_code : '';
    if (!/^[A-Za-z0-9]{6,40}$/.test(code)) {
      return err(res, 422, 'TRACKER.INVALID_PARAMS', 'Invalid tracking code.', [
        { field: 'tracking_code', message: 'is invalid' },
      ]);
    }
    const shipmentId = byTrackingCode.get(code);
    send(res, 201, trackerJson(code, shipmentId ? shipments.get(shipmentId) : undefined));
  }

  async function route(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
    body: Record<string, unknown>,
  ) {
    const method = req.method ?? 'GET';
    if (method === 'GET' && path.startsWith('/files/')) {
      const file = files.get(path);
      if (!file) return send(res, 404, '<Error><Code>NoSuchKey</Code></Error>', { 'content-type': 'application/xml' });
      res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.body.length) }).end(file.body);
      return;
    }
    const mode = modeOf(req);
    if (!path.startsWith('/v2/')) return err(res, 404, 'NOT_FOUND', 'The requested resource could not be found.');
    if (mode === null) return err(res, 401, 'UNAUTHORIZED', 'The API key is missing or not valid.');
    const parts = path.slice(4).split('/').filter(Boolean);
    const [resource, rid, action] = parts;
    if (resource === 'shipments') {
      if (method === 'POST' && !rid) return createShipment(res, body, mode);
      if (method === 'GET' && rid && !action) return readShipment(res, rid);
      if (method === 'POST' && rid && action === 'buy') return buy(res, rid, body);
      if (method === 'GET' && rid && action === 'label') return convert(res, rid, query.get('file_format') ?? '');
      if (method === 'POST' && rid && action === 'refund') return refund(res, rid);
    }
    if (resource === 'addresses') {
      if (method === 'POST' && !rid) return verify(res, body, query, mode, false);
      if (method === 'POST' && rid === 'create_and_verify') return verify(res, body, query, mode, true);
      if (method === 'GET' && !rid) return send(res, 200, { addresses: [], has_more: false });
    }
    if (resource === 'scan_forms') {
      if (method === 'POST' && !rid) return createScanForm(res, body, mode);
      if (method === 'GET' && rid) return readScanForm(res, rid);
      if (method === 'GET' && !rid) {
        return send(res, 200, { scan_forms: [...scanForms.values()].reverse().map(publicForm), has_more: false });
      }
    }
    if (resource === 'trackers' && method === 'POST' && !rid) return createTracker(res, body);
    if (resource === 'users' && method === 'GET' && !rid) {
      if (mode !== 'production') return err(res, 403, 'MODE.UNAUTHORIZED', 'This call requires a production API key.');
      return send(res, 200, {
        id: 'user_fake0000000000000000000000000000',
        object: 'User',
        parent_id: null,
        name: 'Flatship',
        phone_number: '5555555555',
        verified: true,
        created_at: iso(now()),
        balance,
        price_per_shipment: '0.00000',
        recharge_amount: null,
        secondary_recharge_amount: null,
        recharge_threshold: null,
        email: 'ops@example.com',
      });
    }
    return err(res, 404, 'NOT_FOUND', 'The requested resource could not be found.');
  }

  /** The answer written as it is made, sent `latencyMs` later. */
  const delayed = (res: ServerResponse): ServerResponse => {
    let head: Parameters<ServerResponse['writeHead']> | null = null;
    const sink = Object.assign(Object.create(res) as ServerResponse, {
      writeHead: (...args: Parameters<ServerResponse['writeHead']>) => {
        head = args;
        return sink;
      },
      end: (body?: unknown) => {
        setTimeout(() => {
          if (head) res.writeHead(...head);
          res.end(body as Buffer);
        }, latencyMs);
        return sink;
      },
    });
    return sink;
  };

  const server = createServer((req, incoming) => {
    let res = incoming;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      requests.push({
        method: req.method ?? '',
        path: u.pathname,
        at: now(),
        mode: modeOf(req),
        body,
        headers: req.headers,
      });
      const i = faults.findIndex(
        (f) =>
          (!f.method || f.method === req.method) &&
          (typeof f.path === 'string' ? u.pathname === f.path : f.path.test(u.pathname)),
      );
      const fault = i === -1 ? undefined : faults[i];
      if (fault && --fault.times <= 0) faults.splice(i, 1);
      const f = fault?.fault;
      if (f?.reset) return void req.socket.destroy();
      if (f?.stall === 'before') return;
      if (f?.malformed) return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway');
      if (f?.status) return send(res, f.status, f.body ?? '', f.headers);
      if (latencyMs > 0 && !f?.stall) res = delayed(res);
      if (f?.stall === 'after') {
        // Do the call, but the answer never leaves: like a carrier that bought and then lost the connection.
        const sink = Object.assign(Object.create(res) as ServerResponse, {
          writeHead: () => sink,
          end: () => sink,
        });
        return void route(req, sink, u.pathname, u.searchParams, body);
      }
      route(req, res, u.pathname, u.searchParams, body).catch((e: unknown) => {
        if (!res.headersSent) err(res, 500, 'INTERNAL_SERVER_ERROR', (e as Error).message);
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // pdfmake's fonts load once per process; loaded before the first buy so a cold start is not a slow answer.
  await pdfReady;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    get url() {
      return url;
    },
    testKey,
    productionKey,
    get buys() {
      return buys;
    },
    get throttled() {
      return throttled;
    },
    throttledAt,
    get shipmentsCreated() {
      return shipmentsCreated;
    },
    requests,
    buysOf: (shipmentId) => shipments.get(shipmentId)?.buys ?? 0,
    shipment: (shipmentId) => shipments.get(shipmentId)?.json,
    shipmentIds: () => [...shipments.keys()],
    fail(match, fault, times = 1) {
      faults.push({ ...match, fault, times });
    },
    setBuysPerSecond(n) {
      buysPerSecond = n;
    },
    setBalance(d) {
      balance = d;
    },
    setRefundOutcome(shipmentId, outcome) {
      const s = shipments.get(shipmentId);
      if (s) s.refundOutcome = outcome;
    },
    setTracking(code, details, est) {
      tracking.set(code, { details, ...(est ? { est } : {}) });
    },
    trackerEvent(code, secret, o = {}) {
      const shipmentId = byTrackingCode.get(code);
      const tracker = trackerJson(code, shipmentId ? shipments.get(shipmentId) : undefined);
      const event = {
        description: 'tracker.updated',
        mode: tracker.mode,
        previous_attributes: { status: 'pre_transit' },
        created_at: iso(now()),
        pending_urls: ['https://example.com/easypost'],
        completed_urls: [],
        updated_at: iso(now()),
        id: id('evt'),
        user_id: 'user_fake0000000000000000000000000000',
        status: 'pending',
        object: 'Event',
        result: { ...tracker, weight: '__WEIGHT__' },
      };
      // EasyPost writes a weight like 614.4 or 136.0; JSON.stringify would drop the ".0", so it is spliced in.
      const body = JSON.stringify(event).replace('"__WEIGHT__"', o.weight ?? 'null');
      return {
        body,
        headers: { 'content-type': 'application/json', 'x-hmac-signature': easyPostSignature(body, secret) },
      };
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

// CRC-32 (PNG chunks), table-driven.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
