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
  return (status && STATUS[status]) || 'unknown';
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

/** A tracker as we report it; null when it is not a tracker (no tracking code). */
export function readTracker(tracker: EpTracker): TrackerReading | null {
  const trackingNumber = present(tracker.tracking_code);
  if (!trackingNumber) return null;
  // EasyPost lists tracking_details oldest first (see the Tracker example); ours are newest first.
  const events = (tracker.tracking_details ?? [])
    .filter((d) => present(d.datetime) && !Number.isNaN(Date.parse(d.datetime as string)))
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
    ...(estimated && !Number.isNaN(Date.parse(estimated))
      ? { estimatedDelivery: new Date(estimated).toISOString().slice(0, 10) }
      : {}),
    ...(shipmentId ? { shipmentId } : {}),
  };
}
