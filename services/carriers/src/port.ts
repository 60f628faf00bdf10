// The carrier port. Every carrier (the built-in sandbox today, real adapters later) implements `Carrier`.
// Business failures (bad address, overweight, carrier refusal) are returned as `{ ok: false, message }`
// so callers can record them per label; only programming errors throw.

export interface CarrierService {
  uid: string;
  name: string;
  category: string;
  carrier: string;
  /** Pounds. */
  maxWeight: number;
}

export interface LabelAddress {
  name: string;
  company?: string;
  phone?: string;
  street1: string;
  street2?: string;
  city: string;
  state: string;
  zip: string;
  country: 'US';
}

export interface LabelReferences {
  quantity?: string;
  sku?: string;
  orderId?: string;
}

export interface LabelParcel {
  /** Inches. */
  length: number;
  width: number;
  height: number;
  weightLb: number;
  description?: string;
}

/**
 * The label file formats a carrier can give: a 4x6 inch PDF (laser and most desktop printers) and ZPL II at
 * 203 dpi (thermal label printers: Zebra, Rollo and alike).
 */
export const LABEL_FORMATS = ['pdf-4x6', 'zpl-203'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];

export interface LabelRequest {
  /** The same key always yields the same label, so a retried purchase never buys a second one. */
  idempotencyKey: string;
  serviceUid: string;
  from: LabelAddress;
  to: LabelAddress;
  parcel: LabelParcel;
  references?: LabelReferences;
  shipDate?: Date;
  /** The files wanted; the PDF when not given. A carrier that cannot give one refuses the purchase. */
  formats?: readonly LabelFormat[];
}

/** Why a carrier said no, in the words of our message catalogue (`carrier-messages.ts`), never the carrier's. */
export interface CarrierRefusal {
  ok: false;
  /** Text fit to show the customer. */
  message: string;
  /** True when the same request may succeed later (outage, timeout); false when it never will. */
  retryable: boolean;
  /** The catalogue entry (`CarrierErrorCode`), for metrics and for callers that act on the kind of refusal. */
  code?: string;
  /**
   * The carrier certainly bought nothing (its credentials were refused, it throttled the call, the connection was
   * refused before anything was sent), so another carrier selling the service may be asked. Never set when the
   * outcome is unknown (a time-out after the request was sent): that is resolved with the same carrier.
   */
  nothingBought?: true;
}

export interface PurchasedLabel {
  ok: true;
  trackingNumber: string;
  serviceUid: string;
  /** The 4x6 label, always: what the product shows, merges and stores. */
  pdf: Buffer;
  /** ZPL II at 203 dpi, when asked for in `formats`. */
  zpl?: Buffer;
  /** What the carrier charged the platform for this label, in cents; absent when the carrier does not say. */
  costCents?: number;
  /** The carrier's own id for the label or shipment (EasyPost's shipment id), kept for voids and SCAN forms. */
  carrierRef?: string;
  /** The carrier's pricing SKU of what was bought (USPS), for matching its statement. */
  carrierSku?: string;
  /** The plugin that bought it (`usps`, `easypost`, `sandbox-usps`), set by the carrier set: voids go back to it. */
  carrierId?: string;
}

/**
 * What a carrier must remember about a purchase across crashes and processes, kept by the service that buys (in
 * its database): which carrier a key was sent to, a carrier's shipment id before it is bought. `put` records the
 * value for the key (replacing one there); `get` gives the last value put, or null.
 */
export interface PurchaseMemory {
  get(key: string): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
  /**
   * Keeps `value` for `key` unless a value is kept already, and answers the value now held, in one step (a table's
   * insert … on conflict do nothing): two processes racing on one key end up with the same value.
   */
  keep(key: string, value: string): Promise<string>;
  /**
   * `false` for a memory that forgets when the process ends (`createProcessMemory`); a service's table leaves it
   * unset. A carrier selling real postage without idempotency keys (EasyPost with a production key) refuses one.
   */
  readonly durable?: boolean;
}

/** A memory that lives as long as the process: for tests and tools, never for a service that buys. */
export function createProcessMemory(): PurchaseMemory & { entries(): Map<string, string> } {
  const values = new Map<string, string>();
  return {
    durable: false,
    async get(key) {
      return values.get(key) ?? null;
    },
    async put(key, value) {
      values.set(key, value);
    },
    async keep(key, value) {
      if (!values.has(key)) values.set(key, value);
      return values.get(key) as string;
    },
    entries: () => values,
  };
}

export type LabelResult = PurchasedLabel | CarrierRefusal;

/** A label to void, as it was bought. */
export interface VoidRequest {
  /** The purchase's idempotency key (our label id). */
  idempotencyKey: string;
  trackingNumber: string;
  carrierRef?: string;
  /** When the label was bought: a carrier refunds only within its window. */
  purchasedAt?: Date;
  /** The plugin that bought it (`PurchasedLabel.carrierId`): a carrier set sends the void there. */
  carrierId?: string;
}

/**
 * Where a refund of an unused label stands. Some carriers refund at once (`refunded`); others take days
 * (`pending`, e.g. a USPS refund in dispute); a carrier may refuse (`rejected`, e.g. the label was scanned).
 */
export type RefundStatus =
  | { status: 'refunded' }
  | { status: 'pending'; reference?: string }
  | { status: 'rejected'; reason: string };

export type RefundResult = ({ ok: true } & RefundStatus) | CarrierRefusal;

/** What a carrier says of an address. */
export type AddressVerdict =
  | { ok: true; verdict: 'deliverable'; address: LabelAddress }
  | {
      ok: true;
      verdict: 'corrected';
      /** The standardised address (ZIP+4, abbreviations) the carrier would deliver to. */
      address: LabelAddress;
      /** The fields that differ from the address given. */
      corrected: (keyof LabelAddress)[];
    }
  | { ok: true; verdict: 'undeliverable'; reason: string }
  | CarrierRefusal;

/** What one label would cost the platform. */
export interface RateRequest {
  serviceUid: string;
  from: LabelAddress;
  to: LabelAddress;
  parcel: LabelParcel;
  shipDate?: Date;
}
export type RateResult = { ok: true; serviceUid: string; costCents: number } | CarrierRefusal;

/** One PS Form 5630 (SCAN form) for labels bought from one address for one day. */
export interface ScanFormRequest {
  /** A key of ours: the same key gives the same form. */
  idempotencyKey: string;
  from: LabelAddress;
  shipDate: Date;
  labels: readonly { trackingNumber: string; carrierRef?: string }[];
  /** The plugin that bought the labels (`PurchasedLabel.carrierId`): a carrier set sends the form there. */
  carrierId?: string;
}
export type ScanFormResult = { ok: true; formId: string; pdf: Buffer; trackingNumbers: string[] } | CarrierRefusal;

export const TRACKING_STATUSES = [
  'pre_transit',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'available_for_pickup',
  'return_to_sender',
  'failure',
  'unknown',
] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export interface TrackingEvent {
  /** ISO 8601. */
  at: string;
  status: TrackingStatus;
  description: string;
  city?: string;
  state?: string;
  zip?: string;
}
export type TrackingResult =
  | {
      ok: true;
      trackingNumber: string;
      status: TrackingStatus;
      /** Newest first. */
      events: TrackingEvent[];
      /** ISO 8601 date, when the carrier gives one. */
      estimatedDelivery?: string;
    }
  | CarrierRefusal;

/** What a call to the carrier's account showed (the admin's "Test carrier connection"). */
export type ConnectionCheck = { ok: true; detail: string } | { ok: false; message: string };

/**
 * What a carrier can do beyond buying labels. A plugin lists them; callers ask (`supports`) before they use one,
 * and the method is there exactly when the capability is listed (the contract suite checks it).
 */
export const CARRIER_CAPABILITIES = ['void', 'verifyAddress', 'rate', 'scanForm', 'track', 'zpl'] as const;
export type CarrierCapability = (typeof CARRIER_CAPABILITIES)[number];

export interface Carrier {
  readonly id: string;
  /** What this carrier can do beyond `purchaseLabel` and `balance`. */
  readonly capabilities: readonly CarrierCapability[];
  services(): CarrierService[];
  /** Idempotent on `idempotencyKey`, across crashes and processes: the same key never buys twice. */
  purchaseLabel(req: LabelRequest): Promise<LabelResult>;
  /** What is left on the platform's account with the carrier, in cents: what labels can still be bought for. */
  balance(): Promise<number>;
  /** Asks for a refund of an unused label (`void`). Asking again for the same label answers where it stands. */
  voidLabel?(req: VoidRequest): Promise<RefundResult>;
  /** Where a refund asked for earlier stands (`void`). */
  refundStatus?(req: VoidRequest): Promise<RefundResult>;
  /** `verifyAddress`. */
  verifyAddress?(address: LabelAddress): Promise<AddressVerdict>;
  /** The platform's cost of a label (`rate`). */
  rate?(req: RateRequest): Promise<RateResult>;
  /** `scanForm`. */
  createScanForm?(req: ScanFormRequest): Promise<ScanFormResult>;
  /** `track`. `purchasedAt` helps a carrier that cannot look the label up by number alone (the sandbox). */
  track?(trackingNumber: string, opts?: { purchasedAt?: Date; carrierId?: string }): Promise<TrackingResult>;
  /** Calls the carrier with the configured credentials and says what it answered. */
  checkConnection?(): Promise<ConnectionCheck>;
}

/** Whether `carrier` can do `capability`; with `true`, its method for it is there. */
export function supports<K extends CarrierCapability>(carrier: Pick<Carrier, 'capabilities'>, capability: K): boolean {
  return carrier.capabilities.includes(capability);
}
