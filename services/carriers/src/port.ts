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

export interface LabelRequest {
  /** The same key always yields the same label, so a retried purchase never buys a second one. */
  idempotencyKey: string;
  serviceUid: string;
  from: LabelAddress;
  to: LabelAddress;
  parcel: LabelParcel;
  references?: LabelReferences;
  shipDate?: Date;
}

export type LabelResult =
  | { ok: true; trackingNumber: string; serviceUid: string; pdf: Buffer }
  | {
      ok: false;
      /** Text fit to show the customer. */
      message: string;
      /** True when the same request may succeed later (outage, timeout); false when it never will. */
      retryable: boolean;
    };

export interface Carrier {
  readonly id: string;
  services(): CarrierService[];
  purchaseLabel(req: LabelRequest): Promise<LabelResult>;
  /** What is left on the platform's account with the carrier, in cents: what labels can still be bought for. */
  balance(): Promise<number>;
}
