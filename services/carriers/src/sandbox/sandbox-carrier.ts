import { setTimeout as sleep } from 'node:timers/promises';
import { refusal } from '../carrier-messages';
import { createInlineRenderer, createRenderPool, type LabelRenderer, RenderThreadError } from '../label/render-pool';
import { renderZplLabel } from '../label/zpl';
import type { PurchaseGate } from '../pool/rate-slots';
import type { Carrier, CarrierRefusal, CarrierService, LabelAddress, LabelRequest, LabelResult } from '../port';
import { isValidImpb, isValidMailerId } from '../usps/impb';
import { findUspsService, uspsCarrierServices } from '../usps/services';
import { DEFAULT_SANDBOX_CARRIER_BALANCE } from './balance';
import {
  SANDBOX_TRACKING_HOUR_MS,
  sandboxCostCents,
  sandboxRate,
  sandboxScanFormId,
  sandboxTrack,
  sandboxVerifyAddress,
  sandboxVoid,
} from './extras';
import { type JourneyMove, journeyNow } from './journey-clock';
import { isSandboxFailureKey, sandboxTrackingNumber } from './tracking';

export interface SandboxCarrierOptions {
  /** Fraction (0..1) of idempotency keys that fail; the same keys fail every time so failures can be reproduced. */
  failureRate?: number;
  /** Simulated carrier round trip per purchase. */
  latencyMs?: number;
  /** Awaited before each purchase: the operator's rate limit for this carrier, as a live carrier keeps it. */
  purchaseGate?: PurchaseGate;
  /**
   * USPS Mailer ID: 6 digits (starting 0–8) or 9 digits (starting 9). The default is 6 digits because that leaves
   * 10 serial digits, so hashed serials stay distinct across hundreds of thousands of labels; a 9-digit MID
   * leaves only 7 and collisions become likely after a few thousand keys.
   */
  mailerId?: string;
  /** Clock for the ship date when a request gives none. */
  now?: () => Date;
  /**
   * Worker threads that render label PDFs, so rendering uses every core and never blocks the caller's event loop.
   * 0 (the default) renders on the calling thread, which suits tests and callers that buy one label at a time.
   */
  renderThreads?: number;
  /** A renderer to use instead of the one `renderThreads` would create; the carrier's `close()` closes it. */
  renderer?: LabelRenderer;
  /** The simulated account balance, in cents (default: `DEFAULT_SANDBOX_CARRIER_BALANCE` dollars). */
  balanceCents?: number;
  /**
   * How long one hour of a parcel's 72-hour tracking journey lasts (default: an hour). Tracking and the refund rule
   * "scanned, so used" read the same clock, so a label is refundable exactly while its tracking is pre-transit.
   */
  trackingHourMs?: number;
  /**
   * The moves of the journey clock so far (`journeyMovesIn(SANDBOX_JOURNEY_FILE)`): tracking and the refund rule
   * read a parcel's journey on the clock they make, so a test can move parcels along instead of waiting.
   */
  journeyMoves?: () => Promise<readonly JourneyMove[]>;
}

export interface SandboxCarrier extends Carrier {
  /** Stops the render threads, if any. */
  close(): Promise<void>;
}

/** Recipient name that makes a purchase fail, so failure paths can be driven end to end through the UI. */
export const SANDBOX_FAIL_RECIPIENT = 'FAIL';
export const SANDBOX_DEFAULT_MAILER_ID = '899999';

const ZIP_PATTERN = /^\d{5}(-?\d{4})?$/;

function pounds(weight: number): string {
  return `${Number(weight.toFixed(2))} lb`;
}

function addressProblem(role: 'sender' | 'recipient', address: LabelAddress): CarrierRefusal | null {
  if (!address.name?.trim() || !address.street1?.trim() || !address.city?.trim()) {
    return refusal('ADDRESS_INCOMPLETE', role);
  }
  if (!ZIP_PATTERN.test(address.zip)) return refusal('ADDRESS_ZIP_INVALID', role, address.zip);
  return null;
}

/**
 * A USPS look-alike that needs no network: real service list and weight limits, valid IMpb tracking numbers and
 * a 4x6 label PDF. Everything is a pure function of the request, so a retried purchase returns the same label.
 */
export function createSandboxCarrier(opts: SandboxCarrierOptions = {}): SandboxCarrier {
  const failureRate = opts.failureRate ?? 0;
  const latencyMs = opts.latencyMs ?? 0;
  const mailerId = opts.mailerId ?? SANDBOX_DEFAULT_MAILER_ID;
  const now = opts.now ?? (() => new Date());
  if (!(failureRate >= 0 && failureRate <= 1))
    throw new Error(`failureRate must be between 0 and 1, got ${failureRate}`);
  if (!(latencyMs >= 0)) throw new Error(`latencyMs must be 0 or more, got ${latencyMs}`);
  if (!isValidMailerId(mailerId)) {
    throw new Error(`mailerId must be 6 digits starting 0-8 or 9 digits starting 9, got ${mailerId}`);
  }
  const hourMs = opts.trackingHourMs ?? SANDBOX_TRACKING_HOUR_MS;
  if (!(Number.isFinite(hourMs) && hourMs > 0)) throw new Error(`trackingHourMs must be more than 0, got ${hourMs}`);
  const renderThreads = opts.renderThreads ?? 0;
  if (!Number.isInteger(renderThreads) || renderThreads < 0) {
    throw new Error(`renderThreads must be a whole number of 0 or more, got ${renderThreads}`);
  }
  /** Where a parcel bought at `purchasedAt` stands now, on the journey clock. */
  const journeyAt = async (purchasedAt: Date | undefined) =>
    opts.journeyMoves ? journeyNow(now(), purchasedAt, await opts.journeyMoves()) : now();
  const renderer =
    opts.renderer ?? (renderThreads === 0 ? createInlineRenderer() : createRenderPool({ size: renderThreads }));

  return {
    id: 'usps',
    capabilities: ['void', 'verifyAddress', 'rate', 'scanForm', 'track', 'zpl'],

    services(): CarrierService[] {
      return uspsCarrierServices();
    },

    async purchaseLabel(req: LabelRequest): Promise<LabelResult> {
      if (opts.purchaseGate) await opts.purchaseGate.take();
      // The round trip of a real carrier includes making the label: the answer comes when both the simulated
      // latency has passed and the label is rendered, so rendering uses the cores while the purchase is away.
      const roundTrip = latencyMs > 0 ? sleep(latencyMs) : null;
      const result = await answer(req);
      await roundTrip;
      return result;
    },

    balance: async () => opts.balanceCents ?? DEFAULT_SANDBOX_CARRIER_BALANCE * 100,

    voidLabel: async (req) => sandboxVoid(req, await journeyAt(req.purchasedAt), 'void', hourMs),
    refundStatus: async (req) => sandboxVoid(req, await journeyAt(req.purchasedAt), 'status', hourMs),
    verifyAddress: async (address) => sandboxVerifyAddress(address),
    rate: async (req) => sandboxRate(req),
    track: async (trackingNumber, opts) =>
      sandboxTrack(trackingNumber, await journeyAt(opts?.purchasedAt), opts?.purchasedAt, hourMs),

    async createScanForm(req) {
      if (req.labels.length === 0) return refusal('SCAN_FORM_REFUSED', 'no labels were given.');
      const unknown = req.labels.filter((l) => !isValidImpb(l.trackingNumber)).map((l) => l.trackingNumber);
      if (unknown.length > 0)
        return refusal('SCAN_FORM_REFUSED', `these labels are not USPS labels: ${unknown.join(', ')}.`);
      const trackingNumbers = [...new Set(req.labels.map((l) => l.trackingNumber))];
      const formId = sandboxScanFormId(req.idempotencyKey);
      // pdfmake and the barcode encoder load with the first form, as the label renderer loads with the first label.
      const { renderScanForm } = await import('../label/scan-form');
      const pdf = await renderScanForm({
        formId,
        from: req.from,
        shipDate: req.shipDate,
        trackingNumbers,
        issuer: 'USPS (sandbox)',
      });
      return { ok: true, formId, pdf, trackingNumbers };
    },

    checkConnection: async () => ({
      ok: true,
      detail: `Sandbox: simulated USPS account, nothing real is bought; balance $${((opts.balanceCents ?? DEFAULT_SANDBOX_CARRIER_BALANCE * 100) / 100).toFixed(2)}.`,
    }),

    close: () => renderer.close(),
  };

  async function answer(req: LabelRequest): Promise<LabelResult> {
    const service = findUspsService(req.serviceUid);
    if (!service) return refusal('SERVICE_UNKNOWN', req.serviceUid, 'usps');

    const weight = req.parcel.weightLb;
    if (!Number.isFinite(weight) || weight < 0) return refusal('WEIGHT_INVALID', weight);
    if (weight > service.maxWeight) return refusal('WEIGHT_LIMIT', service.name, service.maxWeight, pounds(weight));

    const problem = addressProblem('sender', req.from) ?? addressProblem('recipient', req.to);
    if (problem) return problem;
    if (req.to.name.trim().toUpperCase() === SANDBOX_FAIL_RECIPIENT)
      return refusal('ADDRESS_UNDELIVERABLE', 'recipient');
    if (isSandboxFailureKey(req.idempotencyKey, failureRate)) {
      // Not retryable: the same key would fail again, and a caller that retries forever helps nobody.
      return refusal('DECLINED', 'USPS');
    }

    const trackingNumber = sandboxTrackingNumber({
      idempotencyKey: req.idempotencyKey,
      serviceTypeCode: service.serviceTypeCode,
      mailerId,
    });
    const data = {
      // Only what is printed, so the data crosses to a render thread as plain values.
      service: { letter: service.letter, banner: service.banner, trackingBanner: service.trackingBanner },
      trackingNumber,
      from: req.from,
      to: req.to,
      // Like pricing, a weight of 0 is billed and printed as the 1 lb minimum.
      weightLb: weight === 0 ? 1 : weight,
      shipDate: req.shipDate ?? now(),
      references: req.references,
    };
    let pdf: Buffer;
    try {
      pdf = await renderer.render(data);
    } catch (err) {
      if (!(err instanceof RenderThreadError)) throw err;
      // The purchase itself is deterministic, so the same key renders the same label when tried again.
      return refusal('LABEL_RENDER_FAILED');
    }
    const costCents = sandboxCostCents(service.uid, weight) as number;
    const zpl = req.formats?.includes('zpl-203') ? renderZplLabel(data) : undefined;
    return { ok: true, trackingNumber, serviceUid: service.uid, pdf, costCents, ...(zpl ? { zpl } : {}) };
  }
}
