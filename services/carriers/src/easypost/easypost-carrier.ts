import { setTimeout as delay } from 'node:timers/promises';
import { CARRIER_REASONS, refusal } from '../carrier-messages';
import {
  type CarrierCallObservation,
  type CarrierHttp,
  CarrierHttpError,
  type CarrierHttpRequest,
  createCarrierHttp,
} from '../http/carrier-http';
import type { PurchaseGate } from '../pool/rate-slots';
import type {
  AddressVerdict,
  CarrierCapability,
  CarrierRefusal,
  CarrierService,
  ConnectionCheck,
  LabelAddress,
  LabelFormat,
  LabelParcel,
  LabelRequest,
  LabelResult,
  PurchaseMemory,
  RateRequest,
  RateResult,
  RefundResult,
  ScanFormRequest,
  ScanFormResult,
  TrackingResult,
  VoidRequest,
} from '../port';
import { LABEL_FORMATS } from '../port';
import type { ClosableCarrier } from '../registry';
import { findUspsService, type UspsServiceDefinition, uspsCarrierServices } from '../usps/services';
import {
  asShipment,
  codesOf,
  describeEpErrors,
  dollarsToCents,
  type EpAddress,
  type EpPostageLabel,
  type EpRate,
  type EpScanForm,
  type EpShipment,
  type EpTracker,
  type EpUser,
  readEpError,
} from './api';
import { describeEasyPostKey, type EasyPostKeyMode, type EasyPostSettings, easyPostKeyMode } from './config';
import {
  CUSTOMER_CARRIER,
  EasyPostRefused,
  EasyPostUnusable,
  type RefusalContext,
  refusalFor,
  UNCERTAIN_BUY_CODES,
} from './errors';
import { oneAtATime, shipmentIds } from './purchase-refs';
import { readTracker, trackerProblem } from './tracking';

/** Our USPS services by EasyPost's names for them (the `service` of a USPS Rate). */
export const EASYPOST_USPS_SERVICES: Readonly<Record<string, string>> = {
  usps_priority_mail: 'Priority',
  usps_ground_advantage: 'GroundAdvantage',
  usps_priority_mail_express: 'Express',
};

/** Where the adapter writes EasyPost's own words (error codes and messages, odd answers): never to a customer. */
export interface EasyPostLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface EasyPostCarrierOptions {
  settings: EasyPostSettings;
  /**
   * The buying service's memory (its database): shipment ids by purchase key, kept before a buy (see
   * `purchase-refs.ts`). A production key is refused with a memory that is not `durable`.
   */
  memory: PurchaseMemory;
  log?: EasyPostLog;
  /** Every call to EasyPost, for metrics. */
  observe?: (o: CarrierCallObservation) => void;
  /** Awaited right before each attempt of the call that buys: the operator's rate limit for this carrier. */
  purchaseGate?: PurchaseGate;
  /** For tests: the pause between retries and polls, and the jitter. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** How long `createScanForm` waits for a form EasyPost is still making (default 20 s). */
  scanFormWaitMs?: number;
}

export interface EasyPostCarrier extends ClosableCarrier {
  /** Test or production, from the key's prefix. */
  readonly mode: EasyPostKeyMode;
}

const CAPABILITIES: readonly CarrierCapability[] = ['void', 'verifyAddress', 'rate', 'scanForm', 'track', 'zpl'];
const USER_AGENT = 'flatship-carriers (EasyPost adapter)';
const ADDRESS_PARTS = ['street1', 'street2', 'city', 'state', 'zip'] as const;
const ZIP_PATTERN = /^\d{5}(-?\d{4})?$/;
const POLL_MS = 500;

type SafeLog = EasyPostLog;
const silentLog: SafeLog = { warn: () => {}, error: () => {} };

/**
 * USPS labels bought through EasyPost (https://docs.easypost.com): a shipment is created with our addresses and
 * parcel (`reference` = our idempotency key), the rate for our service is bought, and the label file is downloaded
 * from the URL EasyPost gives. EasyPost has no idempotency key, so the shipment id is stored through `refs` before
 * the buy, a retried purchase buys that shipment or returns its label, and a buy whose answer was lost is settled by
 * reading the shipment, never by buying again.
 */
export function createEasyPostCarrier(opts: EasyPostCarrierOptions): EasyPostCarrier {
  const { settings, memory } = opts;
  const mode = easyPostKeyMode(settings.apiKey);
  if (mode === null) throw new Error('EASYPOST_API_KEY is not an EasyPost API key (EZTK… or EZAK…)');
  if (mode === 'production' && memory.durable === false) {
    // Real postage with ids kept only in this process: a crash between create and buy, then a retry, would buy twice.
    throw new Error(
      "EasyPost with a production key needs a durable PurchaseMemory (the service's table), not a process memory",
    );
  }
  const refs = shipmentIds(memory, 'easypost:shipment:');
  const forms = shipmentIds(memory, 'easypost:scan-form:');
  const log = opts.log ?? silentLog;
  const sleep = opts.sleep ?? ((ms: number) => delay(ms).then(() => {}));
  const httpOptions = {
    carrier: 'easypost',
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    ...(opts.observe ? { observe: opts.observe } : {}),
    sleep,
    ...(opts.random ? { random: opts.random } : {}),
  };
  const api = createCarrierHttp({ ...httpOptions, baseUrl: `${settings.baseUrl}/v2` });
  // Basic auth with the key as user name and no password (the API reference's `-u "EASYPOST_API_KEY":`). Built once;
  // it goes in a header and nowhere else: not in a URL, an error or a log.
  const authorization = `Basic ${Buffer.from(`${settings.apiKey}:`, 'utf8').toString('base64')}`;
  const apiOrigin = new URL(settings.baseUrl).origin;
  const fileClients = new Map<string, CarrierHttp>();

  async function call<T>(req: Omit<CarrierHttpRequest, 'headers'>): Promise<T> {
    const res = await api.request({
      ...req,
      headers: { authorization, 'user-agent': USER_AGENT },
    });
    if (res.status >= 300) {
      const ep = readEpError(res.text());
      const err = new EasyPostRefused(req.operation, res.status, ep);
      log.warn(
        {
          carrier: 'easypost',
          operation: req.operation,
          status: res.status,
          code: ep?.code,
          easypostMessage: ep?.message,
          easypostErrors: describeEpErrors(ep?.errors),
        },
        'EasyPost refused a call',
      );
      throw err;
    }
    return res.json<T>();
  }

  /**
   * A label or form file. It is fetched without our Authorization header (the URL itself grants access, and the key
   * must not reach a file host), over https, or plain http only from the API's own origin (a local test server).
   */
  async function download(url: unknown, operation: string, expect: (b: Buffer) => boolean): Promise<Buffer> {
    if (typeof url !== 'string') throw new EasyPostUnusable(operation, 'no file URL in the answer');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new EasyPostUnusable(operation, 'the file URL is not a URL');
    }
    if (parsed.protocol !== 'https:' && parsed.origin !== apiOrigin) {
      throw new EasyPostUnusable(operation, `the file URL is not https (${parsed.protocol})`);
    }
    let client = fileClients.get(parsed.origin);
    if (!client) {
      client = createCarrierHttp({ ...httpOptions, baseUrl: parsed.origin });
      fileClients.set(parsed.origin, client);
    }
    const res = await client.request({
      operation,
      method: 'GET',
      path: `${parsed.pathname}${parsed.search}`,
      headers: { accept: '*/*', 'user-agent': USER_AGENT },
      retry: 'safe',
    });
    if (res.status >= 300) throw new EasyPostUnusable(operation, `the file answered HTTP ${res.status}`);
    if (!expect(res.body)) throw new EasyPostUnusable(operation, 'the file is not in the format asked for');
    return res.body;
  }

  const getShipment = async (id: string): Promise<EpShipment> => {
    const body = await call<unknown>({
      operation: 'shipment_get',
      method: 'GET',
      path: `/shipments/${encodeURIComponent(id)}`,
      retry: 'safe',
    });
    const shipment = asShipment(body);
    if (!shipment) throw new EasyPostUnusable('shipment_get', 'the answer is not a shipment');
    return shipment;
  };

  function shipmentBody(req: RateRequest, reference: string | undefined, labelFormat: 'PDF' | 'PNG') {
    const options: Record<string, string> = { label_format: labelFormat, label_size: '4x6' };
    if (req.shipDate) options.label_date = req.shipDate.toISOString();
    const refsOf = (req as Partial<LabelRequest>).references;
    // print_custom_1/2 print our references on the label (the USPS options in EasyPost's carrier guide).
    if (refsOf?.orderId) options.print_custom_1 = `Order ${refsOf.orderId}`.slice(0, 50);
    const line2 = [refsOf?.sku && `SKU ${refsOf.sku}`, refsOf?.quantity && `Qty ${refsOf.quantity}`]
      .filter(Boolean)
      .join(' ');
    if (line2) options.print_custom_2 = line2.slice(0, 50);
    return {
      shipment: {
        ...(reference ? { reference } : {}),
        to_address: epAddressOf(req.to),
        from_address: epAddressOf(req.from),
        parcel: epParcelOf(req.parcel),
        options,
        ...(settings.carrierAccountId ? { carrier_accounts: [settings.carrierAccountId] } : {}),
      },
    };
  }

  async function createShipment(req: RateRequest, reference: string | undefined, labelFormat: 'PDF' | 'PNG') {
    // Creating a shipment costs nothing and an unbought one is never charged, so a create whose answer was lost may
    // be sent again ('safe'): the worst case is an orphan shipment nobody buys. (The rate-limiting guide says to
    // retry with back-off and that its load-based limiter covers rating and buying; its code example retries only
    // GET and DELETE. Both are honoured: POSTs are retried only where a repeat cannot charge twice.)
    const body = await call<unknown>({
      operation: 'shipment_create',
      method: 'POST',
      path: '/shipments',
      body: shipmentBody(req, reference, labelFormat),
      retry: 'safe',
    });
    const shipment = asShipment(body);
    if (!shipment) throw new EasyPostUnusable('shipment_create', 'the answer is not a shipment');
    return shipment;
  }

  /** The rate for our service on a shipment, or a refusal saying why there is none. */
  function rateFor(shipment: EpShipment, service: UspsServiceDefinition): EpRate | CarrierRefusal {
    const wanted = EASYPOST_USPS_SERVICES[service.uid];
    const candidates = (shipment.rates ?? []).filter(
      (r) =>
        r.carrier === 'USPS' &&
        r.service === wanted &&
        dollarsToCents(r.rate) !== null &&
        (!settings.carrierAccountId || r.carrier_account_id === settings.carrierAccountId),
    );
    if (candidates.length === 0) {
      log.warn(
        {
          carrier: 'easypost',
          shipment: shipment.id,
          service: wanted,
          rates: (shipment.rates ?? []).map((r) => `${r.carrier} ${r.service}`),
          messages: (shipment.messages ?? []).map((m) => `${m.carrier ?? ''} ${m.type ?? ''}: ${String(m.message)}`),
        },
        'EasyPost offered no rate for the service',
      );
      return refusal('DECLINED', CUSTOMER_CARRIER);
    }
    // Several USPS accounts may rate the same service; the cheapest is bought.
    return candidates.reduce((a, b) => ((dollarsToCents(b.rate) ?? 0) < (dollarsToCents(a.rate) ?? 0) ? b : a));
  }

  const isBought = (s: EpShipment) => Boolean(s.postage_label) && Boolean(s.tracking_code);

  /**
   * Buys the shipment's rate, once. Sent with retry 'rate-limit-only': a 429 says the buy was not taken, so it is
   * sent again after Retry-After; anything else that leaves the outcome open (no answer, a 5xx, an unreadable
   * answer, "postage exists", "purchase in progress") is settled by reading the shipment, never by buying again.
   */
  async function buy(shipment: EpShipment, rate: EpRate): Promise<EpShipment | CarrierRefusal> {
    try {
      const body = await call<unknown>({
        operation: 'buy',
        method: 'POST',
        path: `/shipments/${encodeURIComponent(shipment.id)}/buy`,
        body: { rate: { id: rate.id } },
        retry: 'rate-limit-only',
        ...(opts.purchaseGate ? { gate: opts.purchaseGate } : {}),
      });
      const bought = asShipment(body);
      if (bought && isBought(bought)) return bought;
      log.warn({ carrier: 'easypost', shipment: shipment.id }, 'EasyPost answered a buy without a label; reading it');
    } catch (err) {
      const uncertain =
        (err instanceof CarrierHttpError && err.kind !== 'rate_limited') ||
        (err instanceof EasyPostRefused && UNCERTAIN_BUY_CODES.has(err.code));
      if (!uncertain) {
        const refused = refusalFor(err);
        // A 429, or the credentials or wallet refused: the buy was not taken.
        const notTaken =
          (err instanceof CarrierHttpError && err.kind === 'rate_limited') ||
          (err instanceof EasyPostRefused && [401, 402, 403, 429].includes(err.status));
        return notTaken ? { ...refused, nothingBought: true } : refused;
      }
      log.warn(
        { carrier: 'easypost', shipment: shipment.id, error: (err as Error).message },
        'the buy may or may not have gone through; reading the shipment',
      );
    }
    const now = await getShipment(shipment.id);
    return isBought(now) ? now : refusal('UNAVAILABLE', CUSTOMER_CARRIER);
  }

  async function convert(shipmentId: string, fileFormat: 'PDF' | 'ZPL'): Promise<EpPostageLabel> {
    // GET /v2/shipments/{id}/label?file_format=…: the label in another format, added to the postage label.
    // EasyPost converts from PNG only (the label_format option's description), which is why a purchase that also
    // wants ZPL is bought as PNG.
    const body = await call<unknown>({
      operation: 'label_convert',
      method: 'GET',
      path: `/shipments/${encodeURIComponent(shipmentId)}/label`,
      query: { file_format: fileFormat },
      retry: 'safe',
    });
    const label = asShipment(body)?.postage_label;
    if (!label) throw new EasyPostUnusable('label_convert', 'the answer has no postage label');
    return label;
  }

  const isPdf = (b: Buffer) => b.subarray(0, 5).toString('latin1') === '%PDF-';
  const isZpl = (b: Buffer) => /^\s*\^XA/.test(b.subarray(0, 64).toString('latin1'));
  const fileUrl = (label: EpPostageLabel, kind: 'pdf' | 'zpl'): string | null => {
    const specific = kind === 'pdf' ? label.label_pdf_url : label.label_zpl_url;
    if (specific) return specific;
    // A label bought in the format itself may give it only as label_url (with label_file_type saying what it is).
    const type = (label.label_file_type ?? '').toLowerCase();
    const url = label.label_url ?? '';
    const matches = kind === 'pdf' ? type.includes('pdf') || /\.pdf(\?|$)/i.test(url) : type.includes('zpl');
    return matches && url ? url : null;
  };

  async function filesOf(shipment: EpShipment, formats: readonly LabelFormat[]) {
    let label = shipment.postage_label as EpPostageLabel;
    let pdfUrl = fileUrl(label, 'pdf');
    if (!pdfUrl) {
      label = { ...label, ...nonNull(await convert(shipment.id, 'PDF')) };
      pdfUrl = fileUrl(label, 'pdf');
    }
    const pdf = await download(pdfUrl, 'label_file', isPdf);
    if (!formats.includes('zpl-203')) return { pdf };
    let zplUrl = fileUrl(label, 'zpl');
    if (!zplUrl) zplUrl = fileUrl({ ...label, ...nonNull(await convert(shipment.id, 'ZPL')) }, 'zpl');
    return { pdf, zpl: await download(zplUrl, 'label_file', isZpl) };
  }

  function checkParcel(service: UspsServiceDefinition, parcel: LabelParcel): CarrierRefusal | null {
    const weight = parcel.weightLb;
    if (!Number.isFinite(weight) || weight < 0) return refusal('WEIGHT_INVALID', weight);
    if (weight > service.maxWeight) {
      return refusal('WEIGHT_LIMIT', service.name, service.maxWeight, `${Number(weight.toFixed(2))} lb`);
    }
    return null;
  }

  function checkAddresses(from: LabelAddress, to: LabelAddress): CarrierRefusal | null {
    for (const [role, a] of [
      ['sender', from],
      ['recipient', to],
    ] as const) {
      if (!a.name?.trim() || !a.street1?.trim() || !a.city?.trim() || !a.state?.trim()) {
        return refusal('ADDRESS_INCOMPLETE', role);
      }
      if (!ZIP_PATTERN.test(a.zip)) return refusal('ADDRESS_ZIP_INVALID', role, a.zip);
    }
    return null;
  }

  function checkRequest(req: RateRequest): { service: UspsServiceDefinition } | CarrierRefusal {
    const service = findUspsService(req.serviceUid);
    if (!service || !EASYPOST_USPS_SERVICES[service.uid]) {
      return refusal('SERVICE_UNKNOWN', req.serviceUid, 'usps');
    }
    return checkParcel(service, req.parcel) ?? checkAddresses(req.from, req.to) ?? { service };
  }

  async function purchase(req: LabelRequest): Promise<LabelResult> {
    return oneAtATime(memory, `easypost:shipment:${req.idempotencyKey}`, () => purchaseOnce(req));
  }

  async function purchaseOnce(req: LabelRequest): Promise<LabelResult> {
    const checked = checkRequest(req);
    if ('ok' in checked) return checked;
    const { service } = checked;
    const formats = req.formats ?? ['pdf-4x6'];
    const unknown = formats.find((f) => !(LABEL_FORMATS as readonly string[]).includes(f));
    if (unknown) return refusal('FORMAT_UNSUPPORTED', unknown, CUSTOMER_CARRIER);
    const ctx: RefusalContext = { weightLb: req.parcel.weightLb, format: formats.at(-1) ?? 'pdf-4x6' };
    // Whether this attempt knows for certain that nothing was bought for the key: so far, when no shipment was kept
    // for it, or the one kept was read unbought; no longer once a buy is sent. A carrier set may then ask another.
    let certainlyNothingBought = false;
    try {
      let shipment: EpShipment;
      const stored = await refs.get(req.idempotencyKey);
      certainlyNothingBought = stored === null;
      if (stored) {
        shipment = await getShipment(stored);
        certainlyNothingBought = !isBought(shipment);
      } else {
        // A PDF label is bought as a PDF; one that must also come as ZPL is bought as PNG, the one format EasyPost
        // converts from, and converted to both.
        const created = await createShipment(req, req.idempotencyKey, formats.includes('zpl-203') ? 'PNG' : 'PDF');
        // Stored before the buy: from here on, any retry of this key buys this shipment or returns its label.
        const held = await refs.hold(req.idempotencyKey, created.id);
        shipment = held === created.id ? created : await getShipment(held);
        certainlyNothingBought = !isBought(shipment);
      }
      if (!isBought(shipment)) {
        const rate = rateFor(shipment, service);
        if ('ok' in rate) return rate;
        certainlyNothingBought = false;
        const bought = await buy(shipment, rate);
        if ('ok' in bought) return bought;
        shipment = bought;
      }
      const trackingNumber = shipment.tracking_code as string;
      const costCents = dollarsToCents(shipment.selected_rate?.rate);
      const files = await filesOf(shipment, formats);
      return {
        ok: true,
        trackingNumber,
        serviceUid: service.uid,
        pdf: files.pdf,
        ...(files.zpl ? { zpl: files.zpl } : {}),
        ...(costCents === null ? {} : { costCents }),
        carrierRef: shipment.id,
      };
    } catch (err) {
      if (err instanceof EasyPostRefused && err.operation === 'shipment_get' && err.status === 404) {
        // The shipment this key stored is unknown to EasyPost under this key: the key was swapped (test for
        // production or another account). Buying a new one could buy twice, so an operator has to look.
        log.error(
          { carrier: 'easypost', idempotencyKey: req.idempotencyKey },
          'the stored EasyPost shipment is not found with the configured key',
        );
        return refusal('ACCOUNT_PROBLEM');
      }
      const refused = refusalFor(err, ctx);
      const infrastructure = ['UNAVAILABLE', 'RATE_LIMITED', 'ACCOUNT_PROBLEM'].includes(refused.code ?? '');
      return certainlyNothingBought && infrastructure ? { ...refused, nothingBought: true } : refused;
    }
  }

  async function shipmentIdOf(req: VoidRequest): Promise<string | null> {
    return req.carrierRef ?? (await refs.get(req.idempotencyKey));
  }

  function refundOf(shipment: EpShipment): RefundResult | null {
    switch (shipment.refund_status) {
      case 'submitted':
        return { ok: true, status: 'pending', reference: shipment.id };
      case 'refunded':
        return { ok: true, status: 'refunded' };
      case 'rejected':
        return { ok: true, status: 'rejected', reason: CARRIER_REASONS.refundRefused(CUSTOMER_CARRIER) };
      case 'not_applicable':
        // Listed on the Shipping Refund page though not among the Shipment object's refund_status values.
        return { ok: true, status: 'rejected', reason: CARRIER_REASONS.refundNotApplicable(CUSTOMER_CARRIER) };
      default:
        return null;
    }
  }

  async function voidLabel(req: VoidRequest): Promise<RefundResult> {
    const id = await shipmentIdOf(req).catch(() => null);
    if (!id) return refusal('NOT_FOUND', 'The label');
    try {
      try {
        // Asking again is how EasyPost retries a refund it rejected (the Shipping Refund page), and a refund already
        // submitted stays where it is; the answer is the shipment's refund_status either way.
        const body = await call<unknown>({
          operation: 'refund',
          method: 'POST',
          path: `/shipments/${encodeURIComponent(id)}/refund`,
          retry: 'rate-limit-only',
        });
        const answered = asShipment(body);
        const status = answered ? refundOf(answered) : null;
        if (status) return status;
      } catch (err) {
        if (err instanceof CarrierHttpError && err.kind === 'rate_limited') throw err;
        if (err instanceof EasyPostRefused && (err.status === 401 || err.status === 403 || err.status === 404)) {
          throw err;
        }
        // Lost or refused: where the refund stands is on the shipment.
      }
      const shipment = await getShipment(id);
      const status = refundOf(shipment);
      if (status) return status;
      if (!isBought(shipment)) return refusal('VOID_REJECTED', CARRIER_REASONS.refundNothingBought());
      return refusal('VOID_REJECTED', CARRIER_REASONS.refundRefused(CUSTOMER_CARRIER));
    } catch (err) {
      return refusalFor(err, { subject: 'The label' });
    }
  }

  async function refundStatus(req: VoidRequest): Promise<RefundResult> {
    const id = await shipmentIdOf(req).catch(() => null);
    if (!id) return refusal('NOT_FOUND', 'The label');
    try {
      const shipment = await getShipment(id);
      return refundOf(shipment) ?? refusal('NOT_FOUND', 'A refund of this label');
    } catch (err) {
      return refusalFor(err, { subject: 'The label' });
    }
  }

  async function verifyAddress(address: LabelAddress): Promise<AddressVerdict> {
    if (!address.street1?.trim() || !address.city?.trim() || !address.state?.trim() || !address.zip?.trim()) {
      return refusal('ADDRESS_INCOMPLETE', 'recipient');
    }
    try {
      // POST /v2/addresses with `verify`: the Address Verification guide documents `verify: true` ("regardless of
      // whether the value is true or false"); older client examples send `verify: ["delivery"]`. true is sent.
      const body = await call<EpAddress & { address?: EpAddress }>({
        operation: 'address_verify',
        method: 'POST',
        path: '/addresses',
        body: { address: epAddressOf(address), verify: true },
        retry: 'safe',
      });
      // create_and_verify wraps the address in { address }; POST /addresses answers it bare. Either is read.
      const ep = body.address && typeof body.address === 'object' ? body.address : body;
      const delivery = ep.verifications?.delivery;
      if (!delivery || typeof delivery.success !== 'boolean') {
        throw new EasyPostUnusable('address_verify', 'the answer has no delivery verification');
      }
      if (!delivery.success) {
        log.warn(
          { carrier: 'easypost', easypostErrors: describeEpErrors(delivery.errors) },
          'EasyPost could not verify an address',
        );
        return { ok: true, verdict: 'undeliverable', reason: undeliverableReason(codesOf(delivery.errors)) };
      }
      const standard = labelAddressOf(ep, address);
      const corrected = ADDRESS_PARTS.filter((k) => norm(standard[k]) !== norm(address[k]));
      return corrected.length === 0
        ? { ok: true, verdict: 'deliverable', address: standard }
        : { ok: true, verdict: 'corrected', address: standard, corrected };
    } catch (err) {
      // verify_strict and create_and_verify answer an unverifiable address with 422 ADDRESS.VERIFY.FAILURE (the
      // Errors page's example); read the same way should such an answer come.
      if (err instanceof EasyPostRefused && err.code === 'ADDRESS.VERIFY.FAILURE') {
        return { ok: true, verdict: 'undeliverable', reason: undeliverableReason(codesOf(err.ep?.errors)) };
      }
      return refusalFor(err, { subject: 'The address' });
    }
  }

  async function rate(req: RateRequest): Promise<RateResult> {
    const checked = checkRequest(req);
    if ('ok' in checked) return checked;
    try {
      // The Shipment is EasyPost's documented way to rate (its rates come with it); the stateless /beta/rates
      // endpoint is beta, so it is not used. The shipment is never bought.
      const shipment = await createShipment(req, undefined, 'PDF');
      const chosen = rateFor(shipment, checked.service);
      if ('ok' in chosen) return chosen;
      return { ok: true, serviceUid: checked.service.uid, costCents: dollarsToCents(chosen.rate) as number };
    } catch (err) {
      return refusalFor(err, { weightLb: req.parcel.weightLb });
    }
  }

  const getScanForm = async (id: string): Promise<EpScanForm> => {
    const body = await call<EpScanForm>({
      operation: 'scan_form_get',
      method: 'GET',
      path: `/scan_forms/${encodeURIComponent(id)}`,
      retry: 'safe',
    });
    if (typeof body?.id !== 'string') throw new EasyPostUnusable('scan_form_get', 'the answer is not a scan form');
    return body;
  };

  /** A form already made for exactly these tracking codes (after a create whose answer was lost). */
  async function findScanForm(trackingCodes: readonly string[]): Promise<EpScanForm | null> {
    const body = await call<{ scan_forms?: EpScanForm[] }>({
      operation: 'scan_form_list',
      method: 'GET',
      path: '/scan_forms',
      query: { page_size: 100 },
      retry: 'safe',
    });
    const want = [...trackingCodes].sort().join(',');
    return (body.scan_forms ?? []).find((f) => [...(f.tracking_codes ?? [])].sort().join(',') === want) ?? null;
  }

  async function createScanForm(req: ScanFormRequest): Promise<ScanFormResult> {
    if (req.labels.length === 0) return refusal('SCAN_FORM_REFUSED', CARRIER_REASONS.scanFormNoLabels());
    if (req.labels.some((l) => !l.carrierRef?.startsWith('shp_'))) {
      return refusal('SCAN_FORM_REFUSED', CARRIER_REASONS.scanFormLabelUnknown(CUSTOMER_CARRIER));
    }
    return oneAtATime(memory, `easypost:scan-form:${req.idempotencyKey}`, () => createScanFormOnce(req));
  }

  async function createScanFormOnce(req: ScanFormRequest): Promise<ScanFormResult> {
    const key = req.idempotencyKey;
    try {
      let form: EpScanForm;
      const stored = await forms.get(key);
      if (stored) form = await getScanForm(stored);
      else {
        try {
          // Not sent again after a lost answer: the same shipments cannot go on a second form. A lost answer is
          // settled by finding the form made for these labels.
          form = await call<EpScanForm>({
            operation: 'scan_form_create',
            method: 'POST',
            path: '/scan_forms',
            body: { shipments: req.labels.map((l) => ({ id: l.carrierRef })) },
            retry: 'rate-limit-only',
          });
          if (typeof form?.id !== 'string') throw new EasyPostUnusable('scan_form_create', 'not a scan form');
        } catch (err) {
          const uncertain =
            (err instanceof CarrierHttpError && err.kind !== 'rate_limited') || err instanceof EasyPostUnusable;
          if (!uncertain) throw err;
          const found = await findScanForm(req.labels.map((l) => l.trackingNumber));
          if (!found) throw err;
          form = found;
        }
        const held = await forms.hold(key, form.id);
        if (held !== form.id) form = await getScanForm(held);
      }
      // A form may come back "creating"; it is read again until made, within a deadline.
      const deadline = Date.now() + (opts.scanFormWaitMs ?? 20_000);
      while (form.status === 'creating' && Date.now() < deadline) {
        await sleep(POLL_MS);
        form = await getScanForm(form.id);
      }
      if (form.status === 'creating') return refusal('UNAVAILABLE', CUSTOMER_CARRIER);
      if (form.status === 'failed') {
        log.warn({ carrier: 'easypost', scanForm: form.id, easypostMessage: form.message }, 'EasyPost failed a form');
        return refusal('SCAN_FORM_REFUSED', CARRIER_REASONS.scanFormFailed(CUSTOMER_CARRIER));
      }
      const pdf = await download(form.form_url, 'scan_form_file', isPdf);
      return { ok: true, formId: form.id, pdf, trackingNumbers: [...(form.tracking_codes ?? [])] };
    } catch (err) {
      return refusalFor(err, { subject: 'A label on the form' });
    }
  }

  async function track(trackingNumber: string): Promise<TrackingResult> {
    const subject = `Tracking number ${trackingNumber}`;
    if (!/^[A-Za-z0-9]{6,40}$/.test(trackingNumber)) return refusal('NOT_FOUND', subject);
    try {
      // Creating a tracker that exists answers the existing one ("deduplicated for up to three months" in
      // production), so this is both create and read, and may be sent again.
      const body = await call<EpTracker>({
        operation: 'tracker_create',
        method: 'POST',
        path: '/trackers',
        body: { tracker: { tracking_code: trackingNumber, carrier: 'USPS' } },
        retry: 'safe',
      });
      const problem = trackerProblem(body ?? {});
      const reading = problem === null ? readTracker(body ?? {}) : null;
      if (!reading) throw new EasyPostUnusable('tracker_create', problem ?? 'the answer is not a tracker');
      return {
        ok: true,
        trackingNumber: reading.trackingNumber,
        status: reading.status,
        events: reading.events,
        ...(reading.estimatedDelivery ? { estimatedDelivery: reading.estimatedDelivery } : {}),
      };
    } catch (err) {
      return refusalFor(err, { subject });
    }
  }

  async function balance(): Promise<number> {
    // The wallet balance is on the User (GET /v2/users, "Balance … in higher precision US Dollars"), and "only a
    // Production API Key can be used to make requests against the Users API": with a test key, whose labels cost
    // nothing, the configured figure is reported instead.
    if (mode === 'test') return settings.testBalanceCents;
    const user = await call<EpUser>({ operation: 'balance', method: 'GET', path: '/users', retry: 'safe' });
    const cents = dollarsToCents(user?.balance);
    if (cents === null) throw new EasyPostUnusable('balance', 'the user has no balance');
    return cents;
  }

  async function checkConnection(): Promise<ConnectionCheck> {
    const keyKind = describeEasyPostKey(settings.apiKey);
    try {
      if (mode === 'production') {
        const user = await call<EpUser>({
          operation: 'connection_check',
          method: 'GET',
          path: '/users',
          retry: 'safe',
        });
        const cents = dollarsToCents(user?.balance);
        const shown = cents === null ? 'unknown' : `$${(cents / 100).toFixed(2)}`;
        return { ok: true, detail: `EasyPost accepted ${keyKind}; real postage is charged. Wallet balance: ${shown}.` };
      }
      await call<unknown>({
        operation: 'connection_check',
        method: 'GET',
        path: '/addresses',
        query: { page_size: 1 },
        retry: 'safe',
      });
      return { ok: true, detail: `EasyPost accepted ${keyKind}; labels are test labels and nothing is charged.` };
    } catch (err) {
      if (err instanceof EasyPostRefused && (err.status === 401 || err.status === 403)) {
        return { ok: false, message: `EasyPost refused ${keyKind} (HTTP ${err.status}): check EASYPOST_API_KEY.` };
      }
      if (err instanceof EasyPostRefused) {
        return { ok: false, message: `EasyPost answered HTTP ${err.status}${err.code ? ` (${err.code})` : ''}.` };
      }
      if (err instanceof CarrierHttpError || err instanceof EasyPostUnusable) {
        return { ok: false, message: `EasyPost did not answer usably: ${err.message}.` };
      }
      throw err;
    }
  }

  return {
    id: 'usps',
    mode,
    capabilities: CAPABILITIES,
    services: (): CarrierService[] => uspsCarrierServices(),
    purchaseLabel: purchase,
    balance,
    voidLabel,
    refundStatus,
    verifyAddress,
    rate,
    createScanForm,
    track,
    checkConnection,
    close: async () => {},
  };
}

function nonNull(label: EpPostageLabel): EpPostageLabel {
  return Object.fromEntries(Object.entries(label).filter(([, v]) => v !== null && v !== undefined));
}

const norm = (v: string | undefined | null) => (v ?? '').trim().replace(/\s+/g, ' ').toUpperCase();

function epAddressOf(a: LabelAddress): EpAddress {
  return {
    name: a.name,
    ...(a.company ? { company: a.company } : {}),
    street1: a.street1,
    ...(a.street2 ? { street2: a.street2 } : {}),
    city: a.city,
    state: a.state,
    zip: a.zip,
    country: a.country,
    ...(a.phone ? { phone: a.phone } : {}),
  };
}

/** EasyPost's standardised address as ours; who it is for (name, company, phone) stays as given. */
function labelAddressOf(ep: EpAddress, given: LabelAddress): LabelAddress {
  const pick = (v: string | null | undefined, fallback: string | undefined) => (v?.trim() ? v.trim() : fallback);
  const street2 = ep.street2 === undefined ? given.street2 : ep.street2?.trim() || undefined;
  return {
    name: given.name,
    ...(given.company ? { company: given.company } : {}),
    ...(given.phone ? { phone: given.phone } : {}),
    street1: pick(ep.street1, given.street1) as string,
    ...(street2 ? { street2 } : {}),
    city: pick(ep.city, given.city) as string,
    state: pick(ep.state, given.state) as string,
    zip: pick(ep.zip, given.zip) as string,
    country: 'US',
  };
}

/** EasyPost's parcel: ounces and inches, to one decimal (the Parcel object). A weight of 0 is the 1 lb minimum. */
function epParcelOf(p: LabelParcel) {
  const round1 = (n: number) => Math.round(n * 10) / 10;
  const weight = p.weightLb === 0 ? 16 : Math.max(0.1, round1(p.weightLb * 16));
  const dims = [p.length, p.width, p.height];
  const withDims = dims.every((d) => Number.isFinite(d) && d > 0);
  return {
    ...(withDims ? { length: round1(p.length), width: round1(p.width), height: round1(p.height) } : {}),
    weight,
  };
}

/** Verification error codes as a customer's reason (codes as in the Errors page's example). */
function undeliverableReason(codes: string[]): string {
  if (codes.includes('E.HOUSE_NUMBER.MISSING')) return CARRIER_REASONS.houseNumberMissing();
  if (codes.includes('E.HOUSE_NUMBER.INVALID')) return CARRIER_REASONS.houseNumberInvalid();
  if (codes.some((c) => c.startsWith('E.SECONDARY_INFORMATION') && c.endsWith('MISSING'))) {
    return CARRIER_REASONS.unitMissing();
  }
  if (codes.some((c) => c.startsWith('E.SECONDARY_INFORMATION'))) return CARRIER_REASONS.unitInvalid();
  if (codes.some((c) => c.startsWith('E.STREET'))) return CARRIER_REASONS.streetNotFound();
  if (codes.includes('E.ADDRESS.NOT_FOUND')) return CARRIER_REASONS.addressNotFound();
  return CARRIER_REASONS.addressUnverified();
}
