import { CARRIER_REASONS, refusal } from '../carrier-messages';
import {
  type CarrierCallObservation,
  CarrierHttpError,
  type CarrierHttpOptions,
  type CarrierHttpResponse,
  createCarrierHttp,
} from '../http/carrier-http';
import type { PurchaseGate } from '../pool/rate-slots';
import {
  type AddressVerdict,
  type CarrierCapability,
  type CarrierRefusal,
  type CarrierService,
  type ConnectionCheck,
  LABEL_FORMATS,
  type LabelAddress,
  type LabelParcel,
  type LabelRequest,
  type LabelResult,
  type PurchaseMemory,
  type RateRequest,
  type RateResult,
  type RefundResult,
  type RefundStatus,
  type ScanFormRequest,
  type ScanFormResult,
  type TrackingResult,
  type TrackingStatus,
  type VoidRequest,
} from '../port';
import type { ClosableCarrier } from '../registry';
import { findUspsService, uspsCarrierServices } from '../usps/services';
import type { UspsSettings } from './config';
import { uspsIdempotencyKey } from './idempotency';
import { decodeImage, type LabelAnswer, LabelAnswerError, readLabelAnswer } from './label-answer';
import { isMultipart, parseMultipart } from './multipart';
import { trackingEventsOf, trackingStatusOf } from './tracking-status';
import { blamedParameters, errorText, loggableError, readUspsError, type UspsError } from './usps-errors';
import {
  addressQueryOf,
  baseRatesQueryOf,
  changedFields,
  labelRequestBody,
  mailingDateOf,
  scanFormRequestOf,
  USPS_MAIL_CLASSES,
  zipFields,
} from './usps-requests';
import { type CarrierLogger, createUspsSession, describe, silentLogger, UspsAuthError } from './usps-session';

export interface UspsCarrierOptions extends Omit<UspsSettings, 'timeoutMs' | 'balanceProbeCents'> {
  timeoutMs?: number;
  balanceProbeCents?: number;
  /** Where USPS's own words go (refusals, errors); never shown to a customer. */
  log?: CarrierLogger;
  /** Every call to USPS, for metrics. */
  observe?: (o: CarrierCallObservation) => void;
  /** Awaited right before each attempt of the call that buys: the operator's rate limit for this carrier. */
  purchaseGate?: PurchaseGate;
  /** The clock: the mailing date of a purchase that gives none, and when tokens are due for renewal. */
  now?: () => Date;
  /**
   * The buying service's durable memory (its carrier_memory table): a SCAN form USPS made is kept there under our
   * key, so a retry after a crash gets the same form rather than USPS's refusal of labels already on one.
   */
  memory?: PurchaseMemory;
  /** The HTTP client's retry pacing and fetch (tests). */
  http?: Pick<CarrierHttpOptions, 'maxRetries' | 'retryBaseMs' | 'maxRetryDelayMs' | 'fetch' | 'sleep' | 'random'>;
}

/** The display name in catalogue messages. */
const NAME = 'USPS';
const CAPABILITIES: readonly CarrierCapability[] = ['void', 'verifyAddress', 'rate', 'scanForm', 'track', 'zpl'];
const ZIP_PATTERN = /^\d{5}(-?\d{4})?$/;

/** Label answers in the order we would like them; every one is read (`readLabelAnswer`). */
const LABEL_ACCEPT = 'multipart/form-data, application/vnd.usps.labels+json;q=0.9, application/json;q=0.8';
const SCAN_FORM_ACCEPT =
  'multipart/form-data, multipart/mixed;q=0.9, application/vnd.usps.labels+json;q=0.8, application/json;q=0.7';

const pounds = (weight: number) => `${Number(weight.toFixed(2))} lb`;

/**
 * The live USPS carrier: USPS APIs v3 (OAuth 2.0, Payments, Labels, Addresses, Domestic Prices, SCAN Forms,
 * Tracking) through the one carrier HTTP client. Failures come back as catalogue refusals; USPS's own words go to
 * `log`. A purchase is idempotent on the request's key across processes: USPS de-duplicates by X-Idempotency-Key,
 * so a purchase whose answer was lost is replayed, never bought again.
 */
export function createUspsCarrier(options: UspsCarrierOptions): ClosableCarrier {
  const log = options.log ?? silentLogger;
  const now = options.now ?? (() => new Date());
  const balanceProbeCents = options.balanceProbeCents ?? 100_00;
  const http = createCarrierHttp({
    carrier: 'usps',
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs ?? 30_000,
    observe: options.observe,
    ...options.http,
  });
  const session = createUspsSession({ http, settings: options, log, now: () => now().getTime() });
  /** What USPS answered to voids made by this process: it offers no way to ask later (see `refundStatus`). */
  const refunds = new Map<string, RefundStatus>();
  /** SCAN forms made by this process, by our key: USPS's form request is not idempotent. */
  const scanForms = new Map<string, Extract<ScanFormResult, { ok: true }>>();

  /** A call; a failure to get any answer is turned into a refusal by `failed`. */
  type Outcome =
    | { ok: true; res: CarrierHttpResponse }
    /** `nothingSent`: the call certainly did not reach USPS's work: no token to send it with, or only 429s. */
    | { ok: false; refusal: CarrierRefusal; nothingSent: boolean };
  async function call(req: Parameters<typeof session.call>[0]): Promise<Outcome> {
    try {
      return { ok: true, res: await session.call(req) };
    } catch (err) {
      const nothingSent =
        err instanceof UspsAuthError ||
        (err instanceof CarrierHttpError && err.kind === 'rate_limited' && req.retry !== 'safe');
      return { ok: false, refusal: failed(req.operation, err), nothingSent };
    }
  }

  function failed(operation: string, err: unknown): CarrierRefusal {
    if (err instanceof UspsAuthError) {
      if (err.kind === 'refused') return refusal('ACCOUNT_PROBLEM');
      return refusal('UNAVAILABLE', NAME);
    }
    const kind = (err as { kind?: string }).kind;
    if (kind === undefined) {
      log.error({ operation, reason: describe(err) }, 'USPS call failed unexpectedly');
      throw err;
    }
    log.warn({ operation, reason: describe(err) }, 'USPS gave no usable answer');
    return kind === 'rate_limited' ? refusal('RATE_LIMITED', NAME) : refusal('UNAVAILABLE', NAME);
  }

  /** A refusal for an answer that is not a success, by status; `specific` maps 4xx answers an operation knows. */
  function refusalOf(
    operation: string,
    res: CarrierHttpResponse,
    specific?: (error: UspsError) => CarrierRefusal | null,
  ): CarrierRefusal {
    const error = readUspsError(res.status, res.body);
    const usps = loggableError(error);
    if (res.status === 401 || res.status === 403) {
      log.error({ operation, usps }, 'USPS refused the platform credentials');
      return refusal('ACCOUNT_PROBLEM');
    }
    if (res.status === 429) return refusal('RATE_LIMITED', NAME);
    if (res.status >= 500) {
      log.warn({ operation, usps }, 'USPS failed');
      return refusal('UNAVAILABLE', NAME);
    }
    log.warn({ operation, usps }, 'USPS refused the request');
    return specific?.(error) ?? refusal('DECLINED', NAME);
  }

  function json(res: CarrierHttpResponse, operation: string): Record<string, unknown> | null {
    try {
      const v = res.json();
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {}
    log.warn(
      { operation, status: res.status, bytes: res.body.length, contentType: res.headers.get('content-type') },
      'USPS answer is not the JSON its spec describes',
    );
    return null;
  }

  // ---- checks made before anything is sent -------------------------------------------------------------------

  function addressProblem(role: 'sender' | 'recipient', a: LabelAddress): CarrierRefusal | null {
    if (!a.name?.trim() || !a.street1?.trim() || !a.city?.trim() || !a.state?.trim()) {
      return refusal('ADDRESS_INCOMPLETE', role);
    }
    if (!ZIP_PATTERN.test(a.zip)) return refusal('ADDRESS_ZIP_INVALID', role, a.zip);
    return null;
  }

  function parcelProblem(serviceUid: string, parcel: LabelParcel): CarrierRefusal | null {
    const service = findUspsService(serviceUid);
    if (!service || !USPS_MAIL_CLASSES[serviceUid]) return refusal('SERVICE_UNKNOWN', serviceUid, 'usps');
    const weight = parcel.weightLb;
    if (!Number.isFinite(weight) || weight < 0) return refusal('WEIGHT_INVALID', weight);
    if (weight > service.maxWeight) return refusal('WEIGHT_LIMIT', service.name, service.maxWeight, pounds(weight));
    const sides = [parcel.length, parcel.width, parcel.height];
    if (!sides.every((s) => Number.isFinite(s) && s > 0)) return refusal('DIMENSIONS_INVALID');
    return null;
  }

  /** What a 4xx answer to a purchase or a price means for the customer, from what USPS blamed. */
  function shipmentRefusal(
    error: UspsError,
    req: { serviceUid: string; from: LabelAddress; to: LabelAddress; parcel: LabelParcel },
  ): CarrierRefusal | null {
    const text = errorText(error);
    const params = blamedParameters(error).map((p) => p.toLowerCase());
    if (/insufficient funds|payment account|eps account|payment authori[sz]ation|not enrolled/.test(text)) {
      log.error({ usps: loggableError(error) }, 'USPS refused the payment account');
      return refusal('ACCOUNT_PROBLEM');
    }
    const roleOf = (p: string): 'sender' | 'recipient' | null =>
      /^(toaddress|destination)/.test(p)
        ? 'recipient'
        : /^(fromaddress|senderaddress|returnaddress|origin)/.test(p)
          ? 'sender'
          : null;
    for (const p of params) {
      const role = roleOf(p);
      if (role) {
        const address = role === 'recipient' ? req.to : req.from;
        if (/zip/.test(p)) return refusal('ADDRESS_ZIP_INVALID', role, address.zip);
        if (/required|missing|must be provided|is empty/.test(text)) return refusal('ADDRESS_INCOMPLETE', role);
        return refusal('ADDRESS_UNDELIVERABLE', role);
      }
      if (/weight/.test(p)) {
        const service = findUspsService(req.serviceUid);
        if (service && /exceed|maximum|too heavy|greater than|limit/.test(text)) {
          return refusal('WEIGHT_LIMIT', service.name, service.maxWeight, pounds(req.parcel.weightLb));
        }
        return refusal('WEIGHT_INVALID', req.parcel.weightLb);
      }
      if (/length|width|height|girth|dimension/.test(p)) return refusal('DIMENSIONS_INVALID');
    }
    if (/address/.test(text)) {
      if (/to ?address|destination|recipient|delivery address/.test(text))
        return refusal('ADDRESS_UNDELIVERABLE', 'recipient');
      if (/from ?address|origin|sender|return address/.test(text)) return refusal('ADDRESS_UNDELIVERABLE', 'sender');
    }
    return null;
  }

  // ---- purchase -------------------------------------------------------------------------------------------------

  async function purchaseLabel(req: LabelRequest): Promise<LabelResult> {
    const formats = req.formats ?? ['pdf-4x6'];
    for (const f of formats) {
      if (!(LABEL_FORMATS as readonly string[]).includes(f)) return refusal('FORMAT_UNSUPPORTED', f, NAME);
    }
    const problem =
      parcelProblem(req.serviceUid, req.parcel) ??
      addressProblem('sender', req.from) ??
      addressProblem('recipient', req.to);
    if (problem) return problem;

    const key = uspsIdempotencyKey(req.idempotencyKey);
    const body = labelRequestBody({ ...req, mailingDate: mailingDateOf(req.shipDate ?? now()) });
    const send = (retry: 'rate-limit-only' | 'safe') =>
      call({
        operation: 'label',
        method: 'POST',
        path: '/labels/v3/label',
        headers: { 'x-idempotency-key': key, accept: LABEL_ACCEPT },
        body,
        retry,
        payment: true,
        ...(options.purchaseGate ? { gate: options.purchaseGate } : {}),
      });
    // The first request is sent again only after a 429 ("not taken"), so a refusal of it can say for certain that
    // nothing was bought (`nothingBought`: a carrier set may then ask another carrier). When its outcome is unknown
    // (a time-out, a 5xx, no connection, an unreadable answer), USPS is asked what happened by replaying the key:
    // "When the same idempotency key is resubmitted with an identical request payload, the API will return the
    // existing label without creating a duplicate or charging additional postage." The replay is `safe`: sent
    // again after a time-out or a 5xx too, the same body each time; a caller's later retry replays it as well.
    let sent = await send('rate-limit-only');
    let replayed = false;
    if (!sent.ok && !sent.nothingSent) {
      log.warn({ operation: 'label', idempotencyKey: key }, 'label answer lost: replaying the key');
      sent = await send('safe');
      replayed = true;
    }
    if (!sent.ok) return sent.nothingSent && !replayed ? { ...sent.refusal, nothingBought: true } : sent.refusal;
    let answer: LabelAnswer;
    if (sent.res.status === 200 || sent.res.status === 201) {
      let read = readLabel(sent.res, 'label', 'pdf');
      if (!read.ok && !replayed) {
        const again = await send('safe');
        if (!again.ok) return again.refusal;
        if (again.res.status === 200 || again.res.status === 201) read = readLabel(again.res, 'label', 'pdf');
      }
      if (!read.ok) return read.refusal;
      answer = read.answer;
    } else {
      const error = readUspsError(sent.res.status, sent.res.body);
      if (isKeyConflict(sent.res.status, error)) {
        // The key bought a label already, with a body that differs (a retry on another day has another mailing
        // date): that label is the answer, fetched by the key rather than bought again.
        log.warn(
          { operation: 'label', idempotencyKey: key, usps: loggableError(error) },
          'label key used before: reprinting its label',
        );
        const again = await reprint({ by: 'key', key }, 'PDF');
        if (!again.ok) return again.refusal;
        answer = again.answer;
      } else {
        const refused = refusalOf('label', sent.res, (e) => shipmentRefusal(e, req));
        // USPS refused the account (credentials, forbidden, funds): nothing was bought, so another carrier may sell
        // it; known only when no earlier request of this key may have bought it.
        return refused.code === 'ACCOUNT_PROBLEM' && !replayed ? { ...refused, nothingBought: true } : refused;
      }
    }

    const { metadata } = answer;
    let zpl: Buffer | undefined;
    if (formats.includes('zpl-203')) {
      // One image type per label request (imageInfo.imageType), and a second POST /label with the same key must carry
      // an identical body: the ZPL is the same label reprinted (POST /label-reprint, "up to 3 times").
      const printed = await reprint({ by: 'tracking', trackingNumber: metadata.trackingNumber }, 'ZPL203DPI');
      if (printed.ok) zpl = printed.answer.image;
      else if (printed.refusal.retryable) return printed.refusal;
      else {
        // The label is bought and paid for: it is returned with its PDF rather than refused and left unused.
        log.warn({ operation: 'label_reprint', trackingNumber: metadata.trackingNumber }, 'ZPL copy refused; PDF only');
      }
    }
    return {
      ok: true,
      trackingNumber: metadata.trackingNumber,
      serviceUid: req.serviceUid,
      pdf: answer.image,
      ...(zpl ? { zpl } : {}),
      ...(metadata.costCents === undefined ? {} : { costCents: metadata.costCents }),
      carrierRef: key,
      ...(metadata.sku ? { carrierSku: metadata.sku } : {}),
    };
  }

  function isKeyConflict(status: number, error: UspsError): boolean {
    // The spec says what a replay with an identical body does, not what a different body gets: a 409, or an error
    // that speaks of the idempotency key, is taken to be that case.
    return status === 409 || (status >= 400 && status < 500 && /idempotenc/.test(errorText(error)));
  }

  function readLabel(
    res: CarrierHttpResponse,
    operation: string,
    kind: 'pdf' | 'zpl',
  ): { ok: true; answer: LabelAnswer } | { ok: false; refusal: CarrierRefusal } {
    try {
      const answer = readLabelAnswer(res.body, res.headers.get('content-type'));
      const head = answer.image.subarray(0, 16).toString('latin1');
      const looksRight = kind === 'pdf' ? head.startsWith('%PDF-') : answer.image.toString('latin1').includes('^XA');
      if (!looksRight) throw new LabelAnswerError(`label image is not ${kind === 'pdf' ? 'a PDF' : 'ZPL'}`);
      return { ok: true, answer };
    } catch (err) {
      if (!(err instanceof LabelAnswerError)) throw err;
      log.error(
        {
          operation,
          status: res.status,
          contentType: res.headers.get('content-type'),
          bytes: res.body.length,
          reason: err.message,
        },
        'USPS label answer could not be read',
      );
      // Retryable: the same key replays the same label, and a second answer may be whole.
      return { ok: false, refusal: refusal('UNAVAILABLE', NAME) };
    }
  }

  async function reprint(
    target: { by: 'key'; key: string } | { by: 'tracking'; trackingNumber: string },
    imageType: 'PDF' | 'ZPL203DPI',
  ): Promise<{ ok: true; answer: LabelAnswer } | { ok: false; refusal: CarrierRefusal }> {
    const sent = await call({
      operation: 'label_reprint',
      method: 'POST',
      path:
        target.by === 'key'
          ? '/labels/v3/label-reprint'
          : `/labels/v3/label-reprint/${encodeURIComponent(target.trackingNumber)}`,
      headers: { accept: LABEL_ACCEPT, ...(target.by === 'key' ? { 'x-idempotency-key': target.key } : {}) },
      body: { imageInfo: { imageType, labelType: '4X6LABEL' } },
      // Each reprint counts against USPS's limit of three: not sent again after a time-out.
      retry: 'rate-limit-only',
      payment: true,
    });
    if (!sent.ok) return sent;
    if (sent.res.status !== 200 && sent.res.status !== 201) {
      return { ok: false, refusal: refusalOf('label_reprint', sent.res) };
    }
    return readLabel(sent.res, 'label_reprint', imageType === 'PDF' ? 'pdf' : 'zpl');
  }

  /** A tracking number as USPS takes it: `9400 1000 …` as printed is the same number. */
  const trackingKey = (n: string) => n.replace(/\s+/g, '');

  // ---- void -----------------------------------------------------------------------------------------------------

  async function voidLabel(req: VoidRequest): Promise<RefundResult> {
    const number = trackingKey(req.trackingNumber);
    const byTracking = number !== '';
    const sent = await call({
      operation: 'refund',
      method: 'DELETE',
      path: byTracking ? `/labels/v3/label/${encodeURIComponent(number)}` : '/labels/v3/label',
      headers: byTracking ? {} : { 'x-idempotency-key': req.carrierRef ?? uspsIdempotencyKey(req.idempotencyKey) },
      // Sent again after a time-out: a cancelled label stays cancelled, and a second refund request the same day
      // is refused as a duplicate, which reads as the refund standing where it was.
      retry: 'safe',
      payment: true,
    });
    if (!sent.ok) return sent.refusal;
    const { res } = sent;
    const remember = (status: RefundStatus): RefundResult => {
      refunds.set(number || `key:${req.idempotencyKey}`, status);
      return { ok: true, ...status };
    };
    if (res.status === 200) {
      const body = json(res, 'refund');
      const status = body?.status;
      if (status === 'CANCELED') return remember({ status: 'refunded' });
      if (status === 'DISPUTED') {
        const id = body?.disputeId;
        return remember({
          status: 'pending',
          ...(typeof id === 'string' || typeof id === 'number' ? { reference: String(id) } : {}),
        });
      }
      log.warn(
        { operation: 'refund', status: res.status, answered: typeof status === 'string' ? status : null },
        'USPS void answer not understood',
      );
      return refusal('UNAVAILABLE', NAME);
    }
    if (res.status === 400 || res.status === 404) {
      const error = readUspsError(res.status, res.body);
      log.warn(
        { operation: 'refund', trackingNumber: req.trackingNumber, usps: loggableError(error) },
        'USPS did not void the label',
      );
      const text = errorText(error);
      if (/already been submitted/.test(text)) {
        return remember(refunds.get(number || `key:${req.idempotencyKey}`) ?? { status: 'pending' });
      }
      if (/not found/.test(text)) return remember({ status: 'rejected', reason: CARRIER_REASONS.REFUND_LABEL_UNKNOWN });
      return remember({ status: 'rejected', reason: CARRIER_REASONS.REFUND_NOT_ELIGIBLE });
    }
    return refusalOf('refund', res);
  }

  /**
   * The Labels API answers a void once (CANCELED, or DISPUTED with a dispute id) and offers no way to ask about a
   * dispute later: its outcome is on the EPS account's statement. So this answers what USPS said to this process,
   * and `pending` for a refund it has no answer for: never `refunded` on a guess. Asking USPS again would file a new
   * refund request on another day, so it is not done.
   */
  async function refundStatus(req: VoidRequest): Promise<RefundResult> {
    const known = refunds.get(trackingKey(req.trackingNumber) || `key:${req.idempotencyKey}`);
    return { ok: true, ...(known ?? { status: 'pending' }) };
  }

  // ---- addresses ------------------------------------------------------------------------------------------------

  async function verifyAddress(address: LabelAddress): Promise<AddressVerdict> {
    if (!address.street1?.trim() || !address.state?.trim() || (!address.city?.trim() && !address.zip?.trim())) {
      return { ok: true, verdict: 'undeliverable', reason: CARRIER_REASONS.ADDRESS_INSUFFICIENT };
    }
    const sent = await call({
      operation: 'address',
      method: 'GET',
      path: '/addresses/v3/address',
      query: addressQueryOf(address),
      retry: 'safe',
    });
    if (!sent.ok) return sent.refusal;
    const { res } = sent;
    if (res.status === 404 || res.status === 400) {
      const error = readUspsError(res.status, res.body);
      log.info({ operation: 'address', usps: loggableError(error) }, 'USPS found no address');
      return { ok: true, verdict: 'undeliverable', reason: addressReason(errorText(error), res.status) };
    }
    if (res.status !== 200) return refusalOf('address', res);
    const body = json(res, 'address');
    const found = body?.address as Record<string, unknown> | undefined;
    if (!body || typeof found !== 'object' || found === null) return refusal('UNAVAILABLE', NAME);
    const info = (body.additionalInfo ?? {}) as Record<string, unknown>;
    const corrections = Array.isArray(body.corrections) ? (body.corrections as { code?: unknown }[]) : [];
    const dpv = typeof info.DPVConfirmation === 'string' ? info.DPVConfirmation : undefined;
    // DPV: Y confirmed; D secondary missing; S secondary not confirmed; N not confirmed. Without a DPV answer the
    // correction codes decide: 22 many addresses and no default, 32 more information (a unit) needed.
    if (dpv === 'N') return { ok: true, verdict: 'undeliverable', reason: CARRIER_REASONS.ADDRESS_NOT_FOUND };
    if (dpv === 'D') return { ok: true, verdict: 'undeliverable', reason: CARRIER_REASONS.ADDRESS_SECONDARY_MISSING };
    if (dpv === 'S')
      return { ok: true, verdict: 'undeliverable', reason: CARRIER_REASONS.ADDRESS_SECONDARY_UNCONFIRMED };
    if (dpv !== 'Y') {
      if (corrections.some((c) => c.code === '22'))
        return { ok: true, verdict: 'undeliverable', reason: CARRIER_REASONS.ADDRESS_AMBIGUOUS };
      if (corrections.some((c) => c.code === '32'))
        return { ok: true, verdict: 'undeliverable', reason: CARRIER_REASONS.ADDRESS_SECONDARY_MISSING };
    }
    const s = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
    const zip5 = s(found.ZIPCode) || zipFields(address.zip).ZIPCode;
    const plus4 = s(found.ZIPPlus4);
    const standard: LabelAddress = {
      ...address,
      street1: s(found.streetAddress) || address.street1,
      ...(s(found.secondaryAddress) ? { street2: s(found.secondaryAddress) } : {}),
      city: s(found.city) || address.city,
      state: s(found.state) || address.state,
      zip: plus4 ? `${zip5}-${plus4}` : zip5,
    };
    if (!s(found.secondaryAddress)) delete standard.street2;
    const corrected = changedFields(address, standard);
    return corrected.length === 0
      ? { ok: true, verdict: 'deliverable', address: standard }
      : { ok: true, verdict: 'corrected', address: standard, corrected };
  }

  /** The reason for a 404 (the Addresses examples' messages) or a 400 (a query USPS would not take). */
  function addressReason(text: string, status: number): string {
    if (/more than one|multiple/.test(text)) return CARRIER_REASONS.ADDRESS_AMBIGUOUS;
    if (/city|state/.test(text)) return CARRIER_REASONS.ADDRESS_CITY_STATE;
    if (/insufficient/.test(text) || status === 400) return CARRIER_REASONS.ADDRESS_INSUFFICIENT;
    if (/invalid delivery address/.test(text)) return CARRIER_REASONS.ADDRESS_NOT_DELIVERABLE;
    return CARRIER_REASONS.ADDRESS_NOT_FOUND;
  }

  // ---- prices ---------------------------------------------------------------------------------------------------

  async function rate(req: RateRequest): Promise<RateResult> {
    const problem =
      parcelProblem(req.serviceUid, req.parcel) ??
      (ZIP_PATTERN.test(req.from.zip) ? null : refusal('ADDRESS_ZIP_INVALID', 'sender', req.from.zip)) ??
      (ZIP_PATTERN.test(req.to.zip) ? null : refusal('ADDRESS_ZIP_INVALID', 'recipient', req.to.zip));
    if (problem) return problem;
    const sent = await call({
      operation: 'price',
      method: 'POST',
      path: '/prices/v3/base-rates/search',
      body: baseRatesQueryOf({
        ...req,
        mailingDate: mailingDateOf(req.shipDate ?? now()),
        epsAccount: options.epsAccount,
      }),
      retry: 'safe',
    });
    if (!sent.ok) return sent.refusal;
    if (sent.res.status !== 200) return refusalOf('price', sent.res, (e) => shipmentRefusal(e, req));
    const body = json(sent.res, 'price');
    // totalBasePrice: "The total price, including the rate, fees and pound postage"; without it, the first rate's
    // price and fees.
    const total = body?.totalBasePrice;
    const first = Array.isArray(body?.rates) ? (body?.rates[0] as Record<string, unknown> | undefined) : undefined;
    let cents: number | undefined;
    if (typeof total === 'number' && Number.isFinite(total)) cents = Math.round(total * 100);
    else if (first && typeof first.price === 'number') {
      const fees = Array.isArray(first.fees) ? (first.fees as { price?: unknown }[]) : [];
      cents =
        Math.round(first.price * 100) +
        fees.reduce((sum, f) => sum + (typeof f.price === 'number' ? Math.round(f.price * 100) : 0), 0);
    }
    if (cents === undefined || cents < 0) {
      log.warn({ operation: 'price' }, 'USPS price answer has no price');
      return refusal('UNAVAILABLE', NAME);
    }
    return { ok: true, serviceUid: req.serviceUid, costCents: cents };
  }

  // ---- SCAN forms -----------------------------------------------------------------------------------------------

  const scanFormMemoryKey = (key: string) => `usps:scan-form:${key}`;

  /** A form made earlier under this key: by this process, or by any process sharing the durable memory. */
  async function earlierScanForm(key: string): Promise<Extract<ScanFormResult, { ok: true }> | null> {
    const here = scanForms.get(key);
    if (here) return here;
    const kept = options.memory ? await options.memory.get(scanFormMemoryKey(key)) : null;
    if (!kept) return null;
    const { formId, trackingNumbers, pdf } = JSON.parse(kept) as {
      formId: string;
      trackingNumbers: string[];
      pdf: string;
    };
    const form = { ok: true as const, formId, trackingNumbers, pdf: Buffer.from(pdf, 'base64') };
    scanForms.set(key, form);
    return form;
  }

  async function createScanForm(req: ScanFormRequest): Promise<ScanFormResult> {
    const earlier = await earlierScanForm(req.idempotencyKey);
    if (earlier) return earlier;
    const trackingNumbers = req.labels.map((l) => l.trackingNumber.trim()).filter((t) => t !== '');
    if (trackingNumbers.length === 0) return refusal('SCAN_FORM_REFUSED', CARRIER_REASONS.SCAN_FORM_NO_LABELS);
    const problem = addressProblem('sender', req.from);
    if (problem) return problem;
    const sent = await call({
      operation: 'scan_form',
      method: 'POST',
      path: '/scan-forms/v3/scan-form',
      headers: { accept: SCAN_FORM_ACCEPT },
      body: scanFormRequestOf({ from: req.from, mailingDate: mailingDateOf(req.shipDate), trackingNumbers }),
      // Not idempotent at USPS: after a lost answer the labels are on a form already and a second request is
      // refused ("Labels that have already been added to a SCAN Form cannot be added to a second SCAN Form").
      retry: 'rate-limit-only',
      // MIDShipment's text matches the MID "against the Payment Authorization Token", yet the endpoint declares no
      // X-Payment-Authorization-Token: labels go by tracking number (LabelShipment) and no payment token is sent.
    });
    if (!sent.ok) return sent.refusal;
    const { res } = sent;
    if (res.status !== 200 && res.status !== 201) {
      return refusalOf('scan_form', res, () =>
        refusal('SCAN_FORM_REFUSED', CARRIER_REASONS.SCAN_FORM_LABELS_INELIGIBLE),
      );
    }
    const read = readScanForm(res);
    if (!read) return refusal('UNAVAILABLE', NAME);
    const listed =
      read.metadata.trackingNumbers ??
      (read.metadata.shipment as { trackingNumbers?: unknown } | undefined)?.trackingNumbers;
    const result = {
      ok: true as const,
      formId: typeof read.metadata.manifestNumber === 'string' ? read.metadata.manifestNumber : '',
      pdf: read.image,
      trackingNumbers: Array.isArray(listed)
        ? listed.filter((t): t is string => typeof t === 'string')
        : trackingNumbers,
    };
    if (result.formId === '') log.warn({ operation: 'scan_form' }, 'USPS SCAN form answer has no manifestNumber');
    scanForms.set(req.idempotencyKey, result);
    if (options.memory) {
      const kept = {
        formId: result.formId,
        trackingNumbers: result.trackingNumbers,
        pdf: result.pdf.toString('base64'),
      };
      // USPS made the form: failing to remember it must not lose it now, only its replay after a crash.
      await options.memory.put(scanFormMemoryKey(req.idempotencyKey), JSON.stringify(kept)).catch((err: unknown) => {
        log.warn({ operation: 'scan_form', reason: describe(err) }, 'USPS SCAN form could not be kept for replay');
      });
    }
    return result;
  }

  /**
   * The SCAN form answer: scan-forms.yaml's text calls the default "multipart-mixed" while its content list says
   * multipart/form-data (both are read), or the vendor JSON (metadata fields and `SCANFormImage` side by side), or
   * `application/json` as `{ SCANFormMetaData, SCANFormImage }`. The vendor example says `imageType: SVG` and
   * carries a PNG: the image is checked for being the PDF asked for, whatever the metadata says.
   */
  function readScanForm(res: CarrierHttpResponse): { metadata: Record<string, unknown>; image: Buffer } | null {
    const type = res.headers.get('content-type') ?? '';
    try {
      let metadata: unknown;
      let imageData: Buffer | string | undefined;
      if (isMultipart(type)) {
        const parts = parseMultipart(res.body, type);
        const meta = parts.find((p) => p.name === 'SCANFormMetaData') ?? parts[0];
        const image = parts.find((p) => p.name === 'SCANFormImage') ?? parts.find((p) => p !== meta);
        metadata = meta ? JSON.parse(meta.body.toString('utf8')) : undefined;
        imageData = image?.body;
      } else {
        const obj = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
        metadata = obj.SCANFormMetaData ?? obj;
        imageData = typeof obj.SCANFormImage === 'string' ? obj.SCANFormImage : undefined;
      }
      if (typeof metadata !== 'object' || metadata === null || imageData === undefined)
        throw new Error('parts missing');
      const image = decodeImage(imageData);
      if (!image.subarray(0, 5).toString('latin1').startsWith('%PDF-')) throw new Error('SCAN form image is not a PDF');
      return { metadata: metadata as Record<string, unknown>, image };
    } catch (err) {
      log.error(
        { operation: 'scan_form', contentType: type, bytes: res.body.length, reason: (err as Error).message },
        'USPS SCAN form answer could not be read',
      );
      return null;
    }
  }

  // ---- tracking -------------------------------------------------------------------------------------------------

  async function track(trackingNumber: string): Promise<TrackingResult> {
    const number = trackingKey(trackingNumber);
    if (number === '') return refusal('NOT_FOUND', 'Tracking number');
    const sent = await call({
      operation: 'tracking',
      method: 'GET',
      path: `/tracking/v3/tracking/${encodeURIComponent(number)}`,
      query: { expand: 'DETAIL' },
      retry: 'safe',
    });
    if (!sent.ok) return sent.refusal;
    if (sent.res.status === 404 || sent.res.status === 400) {
      const error = readUspsError(sent.res.status, sent.res.body);
      log.info({ operation: 'tracking', usps: loggableError(error) }, 'USPS does not know the tracking number');
      return refusal('NOT_FOUND', `Tracking number ${number}`);
    }
    if (sent.res.status !== 200) return refusalOf('tracking', sent.res);
    const body = json(sent.res, 'tracking');
    if (!body) return refusal('UNAVAILABLE', NAME);
    const events = trackingEventsOf(body);
    // A TrackingSummary answer (if `expand` were ignored) has only `eventSummaries`: the schema's name; its example
    // writes `EventSummaries` and a `deliveryNotificationDate` the schema does not have. Read as a last resort.
    const summaries = Array.isArray(body.eventSummaries)
      ? (body.eventSummaries as unknown[])
      : Array.isArray(body.EventSummaries)
        ? (body.EventSummaries as unknown[])
        : [];
    const candidates: (string | undefined)[] = [
      typeof body.statusCategory === 'string' ? body.statusCategory : undefined,
      typeof body.status === 'string' ? body.status : undefined,
      events[0]?.description,
      typeof summaries[0] === 'string' ? summaries[0] : undefined,
    ];
    let status: TrackingStatus = 'unknown';
    for (const text of candidates) {
      status = trackingStatusOf(text);
      if (status !== 'unknown') break;
    }
    const dateOf = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : undefined);
    const estimatedDelivery =
      dateOf(body.expectedDeliveryTimeStamp) ?? dateOf(body.predictedDeliveryDate) ?? dateOf(body.expectedDeliveryDate);
    return {
      ok: true,
      trackingNumber: typeof body.trackingNumber === 'string' ? body.trackingNumber : number,
      status,
      events,
      ...(estimatedDelivery ? { estimatedDelivery } : {}),
    };
  }

  // ---- account --------------------------------------------------------------------------------------------------

  /**
   * payments.yaml offers no balance: GET /payment-account/{account-number} with an `amount` says only whether the
   * EPS account covers it (`sufficientFunds`). So this answers `balanceProbeCents` when the account covers that
   * much and 0 when it does not: a floor, which is what the admin's low-balance warning needs when the probe is
   * the warning's threshold. A call that fails throws (the admin shows the carrier as unreachable).
   */
  async function balance(): Promise<number> {
    let res: CarrierHttpResponse;
    try {
      res = await session.call({
        operation: 'balance',
        method: 'GET',
        path: `/payments/v3/payment-account/${encodeURIComponent(options.epsAccount)}`,
        query: { accountType: 'EPS', amount: (balanceProbeCents / 100).toFixed(2) },
        retry: 'safe',
      });
    } catch (err) {
      log.warn({ operation: 'balance', reason: describe(err) }, 'USPS account inquiry got no answer');
      throw new Error('USPS payment account inquiry got no usable answer');
    }
    if (res.status !== 200) {
      log.warn(
        { operation: 'balance', usps: loggableError(readUspsError(res.status, res.body)) },
        'USPS account inquiry failed',
      );
      throw new Error(`USPS payment account inquiry answered HTTP ${res.status}`);
    }
    const body = json(res, 'balance');
    if (typeof body?.sufficientFunds !== 'boolean')
      throw new Error('USPS payment account inquiry did not say whether funds suffice');
    return body.sufficientFunds ? balanceProbeCents : 0;
  }

  async function checkConnection(): Promise<ConnectionCheck> {
    const step = async <T>(
      what: string,
      run: () => Promise<T>,
    ): Promise<{ ok: true; value: T } | { ok: false; message: string }> => {
      try {
        return { ok: true, value: await run() };
      } catch (err) {
        log.warn({ operation: 'check_connection', step: what, reason: describe(err) }, 'USPS connection check failed');
        return { ok: false, message: checkMessage(what, err) };
      }
    };
    const oauth = await step('oauth', () => session.oauthToken());
    if (!oauth.ok) return oauth;
    const payment = await step('payment', () => session.paymentToken());
    if (!payment.ok) return payment;
    const account = await step('account', async () => {
      const res = await session.call({
        operation: 'check_connection',
        method: 'GET',
        path: `/payments/v3/payment-account/${encodeURIComponent(options.epsAccount)}`,
        query: { accountType: 'EPS' },
        retry: 'safe',
      });
      if (res.status !== 200) throw Object.assign(new Error(`HTTP ${res.status}`), { httpStatus: res.status });
      return res;
    });
    if (!account.ok) return account;
    const masked = `…${options.epsAccount.slice(-4)}`;
    return {
      ok: true,
      detail: `USPS at ${new URL(options.baseUrl).host}: access token issued; payment authorization accepted for CRID ${options.crid} (MID ${options.mid}, manifest MID ${options.manifestMid}); EPS account ${masked} found.`,
    };
  }

  function checkMessage(step: string, err: unknown): string {
    const status =
      err instanceof UspsAuthError
        ? err.status
        : ((err as { httpStatus?: number; status?: number }).httpStatus ?? (err as { status?: number }).status ?? 0);
    const answered = status ? ` (HTTP ${status})` : ' (no answer)';
    const refused = err instanceof UspsAuthError ? err.kind === 'refused' : status >= 400 && status < 500;
    if (step === 'oauth') {
      return refused
        ? `USPS refused the app's credentials${answered}: check USPS_CLIENT_ID and USPS_CLIENT_SECRET, and that the app is approved.`
        : `USPS did not issue an access token${answered}: check USPS_API_BASE_URL and try again.`;
    }
    if (step === 'payment') {
      return refused
        ? `USPS refused the payment authorization${answered}: check USPS_CRID, USPS_MID, USPS_MANIFEST_MID and USPS_EPS_ACCOUNT, and that the MID is enrolled in USPS Ship.`
        : `USPS did not issue a payment authorization${answered}; try again.`;
    }
    return refused
      ? `USPS did not find the EPS account${answered}: check USPS_EPS_ACCOUNT.`
      : `USPS did not answer the account inquiry${answered}; try again.`;
  }

  const services = (): CarrierService[] => uspsCarrierServices();

  return {
    id: 'usps',
    capabilities: CAPABILITIES,
    services,
    purchaseLabel: async (req) => guard('label', () => purchaseLabel(req)),
    balance,
    voidLabel: (req) => guard('refund', () => voidLabel(req)),
    refundStatus,
    verifyAddress: (a) => guard('address', () => verifyAddress(a)),
    rate: (req) => guard('price', () => rate(req)),
    createScanForm: (req) => guard('scan_form', () => createScanForm(req)),
    track: (n) => guard('tracking', () => track(n)),
    checkConnection,
    close: async () => undefined,
  };

  /** Business failures come back as refusals; anything unforeseen is logged and refused, not thrown at a customer. */
  async function guard<T>(operation: string, run: () => Promise<T>): Promise<T | CarrierRefusal> {
    try {
      return await run();
    } catch (err) {
      log.error({ operation, reason: describe(err) }, 'USPS operation failed unexpectedly');
      return refusal('UNAVAILABLE', NAME);
    }
  }
}
