import { createHash } from 'node:crypto';
import { refusal } from '../carrier-messages';
import type {
  AddressVerdict,
  LabelAddress,
  RateRequest,
  RateResult,
  RefundResult,
  TrackingEvent,
  TrackingResult,
  TrackingStatus,
  VoidRequest,
} from '../port';
import { isValidImpb } from '../usps/impb';
import { findUspsService } from '../usps/services';

/**
 * What the sandbox does besides buying, each a pure function of its input (and the clock), so any process gives
 * the same answer, as a real carrier's one account would.
 */

const hashDigits = (salt: string, value: string, length: number) => {
  const n = createHash('sha256').update(`${salt}:${value}`).digest().readUInt32BE(0);
  return String(n % 10 ** length).padStart(length, '0');
};

/**
 * The sandbox's cost of a label, in cents: a base and a price per started pound (1 lb minimum), in the range of
 * USPS commercial prices for a nearby zone. The carrier's cost, not the customer's price (which the admin sets).
 */
export const SANDBOX_COSTS: Record<string, { baseCents: number; perLbCents: number }> = {
  usps_ground_advantage: { baseCents: 455, perLbCents: 65 },
  usps_priority_mail: { baseCents: 795, perLbCents: 120 },
  usps_priority_mail_express: { baseCents: 2_850, perLbCents: 310 },
};

export function sandboxCostCents(serviceUid: string, weightLb: number): number | null {
  const cost = SANDBOX_COSTS[serviceUid];
  if (!cost) return null;
  const pounds = Math.max(1, Math.ceil(weightLb - 1e-9));
  return cost.baseCents + cost.perLbCents * (pounds - 1);
}

export function sandboxRate(req: RateRequest): RateResult {
  const service = findUspsService(req.serviceUid);
  if (!service) return refusal('SERVICE_UNKNOWN', req.serviceUid, 'usps');
  const weight = req.parcel.weightLb;
  if (!Number.isFinite(weight) || weight < 0) return refusal('WEIGHT_INVALID', weight);
  if (weight > service.maxWeight) {
    return refusal('WEIGHT_LIMIT', service.name, service.maxWeight, `${Number(weight.toFixed(2))} lb`);
  }
  return { ok: true, serviceUid: service.uid, costCents: sandboxCostCents(service.uid, weight) as number };
}

/** Refund requests are taken for this long after the label was bought, as USPS takes them for unused labels. */
export const SANDBOX_REFUND_WINDOW_DAYS = 30;

/** How long one hour of the sandbox's tracking journey lasts (`SANDBOX_TRACKING_HOUR_MS`): a real hour by default. */
export const SANDBOX_TRACKING_HOUR_MS = 3_600_000;

/**
 * A void: refunded at once, except Priority Mail Express labels, which go to review (`pending`, like a USPS
 * refund in dispute) and are refunded when asked again. Labels older than the refund window are rejected, and so
 * are labels its tracking shows scanned (used); a number the sandbox never issued is not found.
 */
export function sandboxVoid(
  req: VoidRequest & { purchasedAt?: Date },
  now: Date,
  asked: 'void' | 'status',
  hourMs = SANDBOX_TRACKING_HOUR_MS,
): RefundResult {
  if (!isValidImpb(req.trackingNumber)) return refusal('NOT_FOUND', `Label ${req.trackingNumber}`);
  if (req.purchasedAt && now.getTime() - req.purchasedAt.getTime() > SANDBOX_REFUND_WINDOW_DAYS * 86_400_000) {
    return {
      ok: true,
      status: 'rejected',
      reason: `labels can be refunded within ${SANDBOX_REFUND_WINDOW_DAYS} days of purchase.`,
    };
  }
  if (req.purchasedAt && sandboxUsed(req.trackingNumber, now, req.purchasedAt, hourMs)) {
    return { ok: true, status: 'rejected', reason: 'USPS scanned this label, so it was used.' };
  }
  const express = req.trackingNumber.slice(2, 5) === '701';
  if (express && asked === 'void') {
    return { ok: true, status: 'pending', reference: `DSP${hashDigits('dispute', req.trackingNumber, 9)}` };
  }
  return { ok: true, status: 'refunded' };
}

const SUFFIXES: Record<string, string> = {
  STREET: 'ST',
  AVENUE: 'AVE',
  ROAD: 'RD',
  DRIVE: 'DR',
  BOULEVARD: 'BLVD',
  LANE: 'LN',
  COURT: 'CT',
  PLACE: 'PL',
  PARKWAY: 'PKWY',
  HIGHWAY: 'HWY',
  TERRACE: 'TER',
  CIRCLE: 'CIR',
  SUITE: 'STE',
  APARTMENT: 'APT',
  NORTH: 'N',
  SOUTH: 'S',
  EAST: 'E',
  WEST: 'W',
};

/** USPS Publication 28 style: capitals, no punctuation, standard abbreviations. */
export function standardStreet(street: string): string {
  return street
    .toUpperCase()
    .replace(/[.,#]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => SUFFIXES[w] ?? w)
    .join(' ');
}

/**
 * An address check, against the USPS ZIP codes (order-files' `zip-directory`, loaded on the first check), as a real
 * carrier's would be:
 * - a ZIP that is not five digits (or ZIP+4), or that does not exist, is undeliverable, and so is a street without a
 *   house number;
 * - a ZIP that does not belong to the city and state is corrected to the city's (its lowest ZIP), when the state has
 *   such a city; a city the ZIP does not name takes the ZIP's city when the ZIP is in the state; a state that is
 *   wrong for the ZIP and its city takes the ZIP's state; a ZIP of another state whose city is not in the state
 *   given is undeliverable;
 * - otherwise the address comes back in standard form with a ZIP+4 (fixed by the street and ZIP), `corrected` when
 *   anything changed.
 * (A recipient named FAIL is not refused here: its purchase fails, which tests of failed purchases rely on.)
 */
export async function sandboxVerifyAddress(address: LabelAddress): Promise<AddressVerdict> {
  const zipDigits = address.zip.replace(/\D/g, '');
  if (!/^\d{5}(-?\d{4})?$/.test(address.zip.trim())) {
    return { ok: true, verdict: 'undeliverable', reason: `The ZIP code ${address.zip} does not exist.` };
  }
  if (!/\d/.test(address.street1)) {
    return { ok: true, verdict: 'undeliverable', reason: 'The street address has no house number.' };
  }
  const given = {
    zip5: zipDigits.slice(0, 5),
    city: address.city.trim().toUpperCase(),
    state: address.state.trim().toUpperCase(),
  };
  const place = placeOf(await import('@flatship/order-files/zip-directory'), given);
  if (!place.ok) return { ok: true, verdict: 'undeliverable', reason: place.reason };
  const zip5 = place.zip5;
  const plus4 =
    zipDigits.length === 9 && zip5 === given.zip5
      ? zipDigits.slice(5)
      : hashDigits('zip4', `${standardStreet(address.street1)}|${zip5}`, 4);
  const standard: LabelAddress = {
    ...address,
    street1: standardStreet(address.street1),
    ...(address.street2 ? { street2: standardStreet(address.street2) } : {}),
    city: place.city,
    state: place.state,
    zip: `${zip5}-${plus4}`,
  };
  const corrected = (['street1', 'street2', 'city', 'state', 'zip'] as const).filter(
    (k) => (address[k] ?? '') !== (standard[k] ?? ''),
  );
  return corrected.length === 0
    ? { ok: true, verdict: 'deliverable', address: standard }
    : { ok: true, verdict: 'corrected', address: standard, corrected };
}

/** Where an address's city, state and ZIP point, made to agree with the ZIP codes, or why they cannot. */
function placeOf(
  { zipPlace, cityZips }: typeof import('@flatship/order-files/zip-directory'),
  given: {
    zip5: string;
    city: string;
    state: string;
  },
): { ok: true; zip5: string; city: string; state: string } | { ok: false; reason: string } {
  const place = zipPlace(given.zip5);
  if (!place) return { ok: false, reason: `The ZIP code ${given.zip5} does not exist.` };
  if (place.state === given.state && place.city === given.city) return { ok: true, ...given };
  const cityZip = cityZips(given.city, given.state)[0];
  if (cityZip) return { ok: true, zip5: cityZip, city: given.city, state: given.state };
  if (place.state === given.state) return { ok: true, zip5: given.zip5, city: place.city, state: place.state };
  if (place.city === given.city) return { ok: true, zip5: given.zip5, city: place.city, state: place.state };
  return {
    ok: false,
    reason: `The ZIP code ${given.zip5} is in ${place.state}, and ${given.state} has no city named ${given.city}.`,
  };
}

const JOURNEY: { status: TrackingStatus; description: string; hoursAfter: number; place: [string, string, string] }[] =
  [
    {
      status: 'pre_transit',
      description: 'Shipping Label Created, USPS Awaiting Item',
      hoursAfter: 0,
      place: ['', '', ''],
    },
    {
      status: 'in_transit',
      description: 'USPS in possession of item',
      hoursAfter: 20,
      place: ['NEW YORK', 'NY', '10001'],
    },
    {
      status: 'in_transit',
      description: 'Arrived at USPS Regional Facility',
      hoursAfter: 30,
      place: ['JERSEY CITY', 'NJ', '07097'],
    },
    { status: 'in_transit', description: 'In Transit to Next Facility', hoursAfter: 44, place: ['', '', ''] },
    { status: 'out_for_delivery', description: 'Out for Delivery', hoursAfter: 66, place: ['', '', ''] },
    { status: 'delivered', description: 'Delivered, In/At Mailbox', hoursAfter: 72, place: ['', '', ''] },
  ];

/**
 * Tracking. Given when the label was bought, the parcel moves along a three-day journey as hours pass: awaiting the
 * item at first, delivered after 72 hours. An hour lasts `hourMs` (a real hour unless a test stack shortens it, so
 * tracking can be watched moving in seconds). Without the purchase time, each number has its own point on the way
 * (from its digits), reached over the hours before `now`, so a list of labels shows every status.
 */
export function sandboxTrack(
  trackingNumber: string,
  now: Date,
  purchasedAt?: Date,
  hourMs = SANDBOX_TRACKING_HOUR_MS,
): TrackingResult {
  if (!isValidImpb(trackingNumber)) return refusal('NOT_FOUND', `Tracking number ${trackingNumber}`);
  const hoursSince = purchasedAt ? (now.getTime() - purchasedAt.getTime()) / hourMs : null;
  const reached =
    hoursSince === null
      ? Number(hashDigits('track', trackingNumber, 3)) % JOURNEY.length
      : JOURNEY.reduce((last, e, i) => (e.hoursAfter <= hoursSince ? i : last), 0);
  const step = JOURNEY[reached] as (typeof JOURNEY)[number];
  const createdAt =
    purchasedAt ?? new Date(Math.floor(now.getTime() / hourMs) * hourMs - (step.hoursAfter + 1) * hourMs);
  const events: TrackingEvent[] = JOURNEY.slice(0, reached + 1)
    .map((e) => ({
      at: new Date(createdAt.getTime() + e.hoursAfter * hourMs).toISOString(),
      status: e.status,
      description: e.description,
      ...(e.place[0] ? { city: e.place[0], state: e.place[1], zip: e.place[2] } : {}),
    }))
    .reverse();
  const estimated = new Date(createdAt.getTime() + 72 * hourMs).toISOString().slice(0, 10);
  return {
    ok: true,
    trackingNumber,
    status: step.status,
    events,
    ...(step.status === 'delivered' ? {} : { estimatedDelivery: estimated }),
  };
}

/** Whether the sandbox's tracking shows the label scanned by now (past pre-transit), on the same journey clock. */
function sandboxUsed(trackingNumber: string, now: Date, purchasedAt: Date, hourMs: number): boolean {
  const tracking = sandboxTrack(trackingNumber, now, purchasedAt, hourMs);
  return tracking.ok && tracking.status !== 'pre_transit';
}

/** The same form for the same key: `SF` and twelve digits. */
export function sandboxScanFormId(idempotencyKey: string): string {
  return `SF${hashDigits('scan-form-a', idempotencyKey, 6)}${hashDigits('scan-form-b', idempotencyKey, 6)}`;
}
