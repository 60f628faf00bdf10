// USPS tracking answers as TRACKING_STATUSES. tracking.yaml gives no list of `statusCategory` or `eventType` values
// (it points at Publication 199's tables), so the mapping reads USPS's words, in this order: the first rule whose
// pattern the text matches wins. The spec's own examples are covered ("Your item was delivered …", "Out for
// Delivery", "Arrived at Post Office", "Accepted at USPS Destination Facility", "Departed Shipping Partner
// Facility, USPS Awaiting Item"); a text no rule knows is `unknown`, never a guess.
import type { TrackingEvent, TrackingStatus } from '../port';

const RULES: readonly [RegExp, TrackingStatus][] = [
  [/return(ed)? to sender|returning to sender/i, 'return_to_sender'],
  [/out for delivery/i, 'out_for_delivery'],
  [
    /available for pick ?up|ready for pick ?up|held at (the )?post office|awaiting (customer )?pick ?up/i,
    'available_for_pickup',
  ],
  [
    /delivery attempt|notice left|undeliverable|no access|refused|damaged|\balert\b|delivery exception|missent|dead mail/i,
    'failure',
  ],
  [/\bdelivered\b/i, 'delivered'],
  [
    /pre-?shipment|label created|shipping label created|awaiting item|shipment received, package acceptance pending|electronic (shipping )?info/i,
    'pre_transit',
  ],
  [
    /in transit|accepted|arrived|departed|processed|picked up|in possession of|moving through|on its way|forwarded|origin post|tendered/i,
    'in_transit',
  ],
];

/** The status a USPS text (a status category, a status, an event type) stands for. */
export function trackingStatusOf(text: string | undefined): TrackingStatus {
  if (!text) return 'unknown';
  for (const [pattern, status] of RULES) if (pattern.test(text)) return status;
  return 'unknown';
}

/** `GMTTimestamp` when given (the spec's UTC time); otherwise `eventTimestamp` with `GMTOffset` when it has no zone. */
export function eventTime(e: { GMTTimestamp?: unknown; eventTimestamp?: unknown; GMTOffset?: unknown }): string | null {
  const gmt = typeof e.GMTTimestamp === 'string' ? Date.parse(e.GMTTimestamp) : Number.NaN;
  if (!Number.isNaN(gmt)) return new Date(gmt).toISOString();
  if (typeof e.eventTimestamp !== 'string') return null;
  const local = e.eventTimestamp.trim();
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(local);
  const offset = typeof e.GMTOffset === 'string' ? /^([+-])?(\d{1,2}):(\d{2})$/.exec(e.GMTOffset.trim()) : null;
  const withZone =
    hasZone || !offset
      ? local
      : `${local}${offset[1] ?? '+'}${(offset[2] as string).padStart(2, '0')}:${offset[3] as string}`;
  const t = Date.parse(withZone);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** The events of a `TrackingDetails`, newest first (the spec says they come so; they are sorted anyway). */
export function trackingEventsOf(details: Record<string, unknown>): TrackingEvent[] {
  const raw = Array.isArray(details.trackingEvents) ? details.trackingEvents : [];
  const events: TrackingEvent[] = [];
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) continue;
    const e = item as Record<string, unknown>;
    const at = eventTime(e);
    if (!at) continue;
    const description = typeof e.eventType === 'string' ? e.eventType : '';
    const s = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
    const city = s(e.eventCity);
    const state = s(e.eventState);
    const zip = s(e.eventZIP);
    events.push({
      at,
      status: trackingStatusOf(description),
      description,
      ...(city ? { city } : {}),
      ...(state ? { state } : {}),
      ...(zip ? { zip } : {}),
    });
  }
  return events.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}
