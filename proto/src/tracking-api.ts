import { type Static, Type } from 'typebox';

/**
 * Where a parcel is, as the customer sees it: five stages. Carriers say more (the carrier port's statuses); each of
 * those falls in one stage, and the words of the carrier's status are kept for the label's events.
 */
export const TRACKING_STAGES = ['pre_transit', 'in_transit', 'out_for_delivery', 'delivered', 'exception'] as const;
export type TrackingStage = (typeof TRACKING_STAGES)[number];
export const TrackingStageSchema = Type.Union([
  Type.Literal('pre_transit'),
  Type.Literal('in_transit'),
  Type.Literal('out_for_delivery'),
  Type.Literal('delivered'),
  Type.Literal('exception'),
]);

export const TRACKING_STAGE_TEXT: Record<TrackingStage, string> = {
  pre_transit: 'Pre-transit',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  exception: 'Exception',
};

/**
 * The stage of each status a carrier may give (the carrier port's `TRACKING_STATUSES`). Waiting at the post office,
 * going back to the sender and a failed delivery all need the seller's attention: exceptions. `unknown` (a text no
 * rule knows) and no news at all read as pre-transit: the label exists, nothing says the parcel moved.
 */
export const TRACKING_STAGE_OF_STATUS: Readonly<Record<string, TrackingStage>> = {
  pre_transit: 'pre_transit',
  unknown: 'pre_transit',
  in_transit: 'in_transit',
  out_for_delivery: 'out_for_delivery',
  delivered: 'delivered',
  available_for_pickup: 'exception',
  return_to_sender: 'exception',
  failure: 'exception',
};

/** The stage of a carrier's status; null (no news yet) and statuses no carrier gives read as pre-transit. */
export const trackingStageOf = (status: string | null | undefined): TrackingStage =>
  (status ? TRACKING_STAGE_OF_STATUS[status] : undefined) ?? 'pre_transit';

/** The carrier's own status, in words, where it says more than its stage (the exceptions). */
export const TRACKING_STATUS_TEXT: Readonly<Record<string, string>> = {
  available_for_pickup: 'Available for pickup at the post office',
  return_to_sender: 'Returned to sender',
  failure: 'Delivery problem',
  unknown: 'Status not recognised',
};

/** The tracking fields every list of a customer's labels carries. */
export const LabelTrackingSchema = Type.Object({
  /** null: nothing to track (not bought, or refunded). */
  trackingStage: Type.Union([TrackingStageSchema, Type.Null()]),
});
export type LabelTracking = Static<typeof LabelTrackingSchema>;

export const isTrackingStage = (v: unknown): v is TrackingStage => (TRACKING_STAGES as readonly unknown[]).includes(v);

export const TRACKING_MESSAGES = {
  badFilter: (value: string) =>
    `The tracking filter "${value}" is not a tracking status; use one of ${TRACKING_STAGES.join(', ')}.`,
} as const;

/**
 * GET /api/orders/{userId}?tracking=…: only bought labels at that stage. Any text is taken here so that a wrong one
 * is answered naming the stages there are (`TRACKING_MESSAGES.badFilter`).
 */
export const OrdersQuerySchema = Type.Object({
  tracking: Type.Optional(Type.String({ maxLength: 100, description: TRACKING_STAGES.join(', ') })),
});
export type OrdersQuery = Static<typeof OrdersQuerySchema>;

export const TrackingEventViewSchema = Type.Object({
  /** ISO 8601. */
  at: Type.String(),
  stage: TrackingStageSchema,
  description: Type.String(),
  /** 'CITY, ST ZIP' as the carrier gave it; empty when it gave no place. */
  place: Type.String(),
});
export type TrackingEventView = Static<typeof TrackingEventViewSchema>;

/** GET /api/orders/labels/{labelId}/tracking: a label's parcel, its events newest first. */
export const LabelTrackingReplySchema = Type.Object({
  labelId: Type.String(),
  trackingNumber: Type.Union([Type.String(), Type.Null()]),
  stage: Type.Union([TrackingStageSchema, Type.Null()]),
  /** The carrier's status in words, when it says more than the stage (an exception's kind). */
  detail: Type.Union([Type.String(), Type.Null()]),
  /** YYYY-MM-DD, when the carrier gave one and the parcel is not delivered. */
  estimatedDelivery: Type.Union([Type.String(), Type.Null()]),
  /** When the carrier's news was last taken in (ISO 8601); null before any. */
  updatedAt: Type.Union([Type.String(), Type.Null()]),
  events: Type.Array(TrackingEventViewSchema),
});
export type LabelTrackingReply = Static<typeof LabelTrackingReplySchema>;
