import type { TrackingEvent, TrackingStatus } from '../port';
import type { EpTracker } from './api';

/**
 * EasyPost's tracker statuses (the Tracker object: unknown, pre_transit, in_transit, out_for_delivery, delivered,
 * available_for_pickup, return_to_sender, failure, cancelled, error) onto ours. `cancelled` (the label was voided)
 * and `error` (EasyPost could not track it) say nothing about where the parcel is, so they read as `unknown`.
 */
const STATUS: Record<string, TrackingStatus> = {
  unknown: 'unknown',
  pre_transit: 'pre_transit',
  in_transit: 'in_transit',
  out_for_delivery: 'out_for_delivery',
  delivered: 'delivered',
  available_for_pickup: 'available_for_pickup',
  return_to_sender: 'return_to_sender',
  failure: 'failure',
  cancelled: 'unknown',
  error: 'unknown',
};

export function trackingStatusOf(status: string | null | undefined): TrackingStatus {
  return (status && Object.hasOwn(STATUS, status) && STATUS[status]) || 'unknown';
}

export interface TrackerReading {
  trackingNumber: string;
  status: TrackingStatus;
  /** Newest first. */
  events: TrackingEvent[];
  estimatedDelivery?: string;
  /** The EasyPost shipment the tracker belongs to, when it was bought through EasyPost. */
  shipmentId?: string;
}

const present = (v: string | null | undefined): string | undefined => (v && v.trim() !== '' ? v : undefined);

/** The instant `v` names, when it is one we can store and show: a date of the years 1970 to 9999. */
function instantOf(v: string): Date | null {
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) return null;
  const year = new Date(ms).getUTCFullYear();
  return year >= 1970 && year <= 9999 ? new Date(ms) : null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null;
const shown = (v: string) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);

/** What is wrong with an optional text field `key` of `o`, named `at`; null when it is absent or text. */
function textProblem(o: Record<string, unknown>, key: string, at: string): string | null {
  return absent(o[key]) || typeof o[key] === 'string' ? null : `${at} is not text`;
}

/** What is wrong with an optional date field, named `at`; null when it is absent, blank or a date we can use. */
function dateProblem(o: Record<string, unknown>, key: string, at: string): string | null {
  const v = o[key];
  if (absent(v)) return null;
  if (typeof v !== 'string') return `${at} is not a date`;
  return present(v) === undefined || instantOf(v) ? null : `${at} is not a date: ${shown(v)}`;
}

/**
 * What keeps `value` from being read as a tracker, naming the field (`tracking_details[2].datetime is not a date`);
 * null when it can be read. EasyPost's answers and signed webhooks are still checked: a value of the wrong kind, or
 * a date outside what we store, must not stop the rest of the service.
 */
export function trackerProblem(value: unknown): string | null {
  if (!isRecord(value)) return 'the tracker is not an object';
  if (typeof value.tracking_code !== 'string' && !absent(value.tracking_code)) return 'tracking_code is not text';
  if (!present(value.tracking_code as string | undefined)) return 'tracking_code is missing';
  const own =
    textProblem(value, 'status', 'status') ??
    textProblem(value, 'shipment_id', 'shipment_id') ??
    dateProblem(value, 'est_delivery_date', 'est_delivery_date');
  if (own) return own;
  const details = value.tracking_details;
  if (absent(details)) return null;
  if (!Array.isArray(details)) return 'tracking_details is not a list';
  for (const [i, d] of details.entries()) {
    const at = `tracking_details[${i}]`;
    if (!isRecord(d)) return `${at} is not an object`;
    const problem =
      dateProblem(d, 'datetime', `${at}.datetime`) ??
      ['status', 'message', 'description', 'status_detail']
        .map((key) => textProblem(d, key, `${at}.${key}`))
        .find((p) => p !== null) ??
      null;
    if (problem) return problem;
    const loc = d.tracking_location;
    if (absent(loc)) continue;
    if (!isRecord(loc)) return `${at}.tracking_location is not an object`;
    const place = ['city', 'state', 'zip']
      .map((key) => textProblem(loc, key, `${at}.tracking_location.${key}`))
      .find((p) => p !== null);
    if (place) return place;
  }
  return null;
}

/** A tracker as we report it; null when it cannot be read as one (see trackerProblem). */
export function readTracker(tracker: EpTracker): TrackerReading | null {
  if (trackerProblem(tracker) !== null) return null;
  const trackingNumber = present(tracker.tracking_code);
  if (!trackingNumber) return null;
  // EasyPost lists tracking_details oldest first (see the Tracker example); ours are newest first.
  const events = (tracker.tracking_details ?? [])
    .filter((d) => present(d.datetime))
    .map((d): TrackingEvent => {
      const loc = d.tracking_location ?? {};
      const city = present(loc.city);
      const state = present(loc.state);
      const zip = present(loc.zip);
      return {
        at: new Date(d.datetime as string).toISOString(),
        status: trackingStatusOf(d.status),
        description: present(d.message) ?? present(d.description) ?? present(d.status_detail) ?? '',
        ...(city ? { city } : {}),
        ...(state ? { state } : {}),
        ...(zip ? { zip } : {}),
      };
    })
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  const estimated = present(tracker.est_delivery_date);
  const shipmentId = present(tracker.shipment_id);
  return {
    trackingNumber,
    status: trackingStatusOf(tracker.status),
    events,
    ...(estimated ? { estimatedDelivery: new Date(estimated).toISOString().slice(0, 10) } : {}),
    ...(shipmentId ? { shipmentId } : {}),
  };
}
