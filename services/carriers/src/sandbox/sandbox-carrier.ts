import { setTimeout as sleep } from 'node:timers/promises';
import { createInlineRenderer, createRenderPool, type LabelRenderer, RenderThreadError } from '../label/render-pool';
import type { Carrier, CarrierService, LabelAddress, LabelRequest, LabelResult } from '../port';
import { isValidMailerId } from '../usps/impb';
import { findUspsService, USPS_SERVICES } from '../usps/services';
import { DEFAULT_SANDBOX_CARRIER_BALANCE } from './balance';
import { isSandboxFailureKey, sandboxTrackingNumber } from './tracking';

export interface SandboxCarrierOptions {
  /** Fraction (0..1) of idempotency keys that fail; the same keys fail every time so failures can be reproduced. */
  failureRate?: number;
  /** Simulated carrier round trip per purchase. */
  latencyMs?: number;
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
}

export interface SandboxCarrier extends Carrier {
  /** Stops the render threads, if any. */
  close(): Promise<void>;
}

/** Recipient name that makes a purchase fail, so failure paths can be driven end to end through the UI. */
export const SANDBOX_FAIL_RECIPIENT = 'FAIL';
export const SANDBOX_DEFAULT_MAILER_ID = '899999';

const ZIP_PATTERN = /^\d{5}(-?\d{4})?$/;

function fail(message: string, retryable = false): LabelResult {
  return { ok: false, message, retryable };
}

function pounds(weight: number): string {
  return `${Number(weight.toFixed(2))} lb`;
}

function addressProblem(role: 'sender' | 'recipient', address: LabelAddress): string | null {
  if (!address.name?.trim() || !address.street1?.trim() || !address.city?.trim()) {
    return `Address validation failed: the ${role} address is incomplete.`;
  }
  if (!ZIP_PATTERN.test(address.zip)) {
    return `Address validation failed: the ${role} ZIP code ${address.zip} is not a valid US ZIP code.`;
  }
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
  const renderThreads = opts.renderThreads ?? 0;
  if (!Number.isInteger(renderThreads) || renderThreads < 0) {
    throw new Error(`renderThreads must be a whole number of 0 or more, got ${renderThreads}`);
  }
  const renderer =
    opts.renderer ?? (renderThreads === 0 ? createInlineRenderer() : createRenderPool({ size: renderThreads }));

  return {
    id: 'usps',
    capabilities: [],

    services(): CarrierService[] {
      return USPS_SERVICES.map(({ uid, name, category, carrier, maxWeight }) => ({
        uid,
        name,
        category,
        carrier,
        maxWeight,
      }));
    },

    async purchaseLabel(req: LabelRequest): Promise<LabelResult> {
      // The round trip of a real carrier includes making the label: the answer comes when both the simulated
      // latency has passed and the label is rendered, so rendering uses the cores while the purchase is away.
      const roundTrip = latencyMs > 0 ? sleep(latencyMs) : null;
      const result = await answer(req);
      await roundTrip;
      return result;
    },

    balance: async () => opts.balanceCents ?? DEFAULT_SANDBOX_CARRIER_BALANCE * 100,

    close: () => renderer.close(),
  };

  async function answer(req: LabelRequest): Promise<LabelResult> {
    const service = findUspsService(req.serviceUid);
    if (!service) return fail(`Unknown service ${req.serviceUid} for carrier usps`);

    const weight = req.parcel.weightLb;
    if (!Number.isFinite(weight) || weight < 0) return fail(`Invalid weight: ${weight} is not a parcel weight.`);
    if (weight > service.maxWeight) {
      return fail(
        `Weight limit exceeded: ${service.name} accepts parcels up to ${service.maxWeight} lb; this one weighs ${pounds(weight)}.`,
      );
    }

    const problem = addressProblem('sender', req.from) ?? addressProblem('recipient', req.to);
    if (problem) return fail(problem);
    if (req.to.name.trim().toUpperCase() === SANDBOX_FAIL_RECIPIENT) {
      return fail('Address validation failed: the recipient address could not be verified.');
    }
    if (isSandboxFailureKey(req.idempotencyKey, failureRate)) {
      // Not retryable: the same key would fail again, and a caller that retries forever helps nobody.
      return fail('Label purchase declined: USPS could not process this shipment. Please review it and try again.');
    }

    const trackingNumber = sandboxTrackingNumber({
      idempotencyKey: req.idempotencyKey,
      serviceTypeCode: service.serviceTypeCode,
      mailerId,
    });
    let pdf: Buffer;
    try {
      pdf = await renderer.render({
        // Only what is printed, so the data crosses to a render thread as plain values.
        service: { letter: service.letter, banner: service.banner, trackingBanner: service.trackingBanner },
        trackingNumber,
        from: req.from,
        to: req.to,
        // Like pricing, a weight of 0 is billed and printed as the 1 lb minimum.
        weightLb: weight === 0 ? 1 : weight,
        shipDate: req.shipDate ?? now(),
        references: req.references,
      });
    } catch (err) {
      if (!(err instanceof RenderThreadError)) throw err;
      // The purchase itself is deterministic, so the same key renders the same label when tried again.
      return fail('Label purchase failed: the label could not be generated. Please try again.', true);
    }
    return { ok: true, trackingNumber, serviceUid: service.uid, pdf };
  }
}
