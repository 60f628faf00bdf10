import type { Carrier, LabelRequest, LabelResult } from '@flatship/carriers';
import type { Tx } from '@flatship/kit';
import type { ErrorCode, RefundState, TrackingStage } from '@flatship/proto';
import type { ShipmentAddress, ShipmentParcel } from './validate-shipment';

export type { Clock, DomainLogger, Transactor, Tx } from '@flatship/kit';

export type LabelStatus = 'pending' | 'completed' | 'cancelled' | 'void';

/** One label row: a single-label order, or one shipment of a bulk order (bulkOrderId set). */
export interface LabelRecord {
  id: string;
  userId: string;
  bulkOrderId: string | null;
  idempotencyKey: string | null;
  status: LabelStatus;
  /** The courier of the carrier that sells the service (`usps`, `test-parcel`): see @flatship/carriers' registry. */
  courier: string;
  serviceUid: string;
  serviceName: string;
  sender: ShipmentAddress;
  receiver: ShipmentAddress;
  parcel: ShipmentParcel;
  priceCents: number;
  chargeKey: string;
  /** Set once payments has confirmed the charge; until then a pending row may never have been charged. */
  chargedAt: Date | null;
  /**
   * Set on a pending row before its charge is given back: from then on it may only be refunded and
   * cancelled (never charged again, never completed), whoever finishes it.
   */
  refundStartedAt: Date | null;
  refunded: boolean;
  /** Hash of the request that first used `idempotencyKey` (null for rows older than the hash). */
  requestHash: string | null;
  /** Cancelled for a reason that may pass (interrupted, carrier unreachable, balance short): its key may buy afresh. */
  retryable: boolean;
  trackingNumber: string | null;
  pdfName: string | null;
  errorCode: ErrorCode | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Where a completed label was bought and what it cost the platform (`LabelPurchase`); absent before it was. */
  purchase?: LabelPurchase | null;
  /** Its refund, once one was asked for (`LabelRefundRecord`). */
  refund?: LabelRefundRecord | null;
  /** Where the parcel is, as its carrier last said (`pre_transit`, `in_transit`, …); null before any news. */
  trackingStatus?: string | null;
}

/** A refund of an unused label, asked by its owner or an admin, answered by its carrier. */
export interface LabelRefundRecord {
  status: RefundState;
  /** The carrier's reason, for `rejected`. */
  reason: string | null;
  requestedAt: Date;
  /** The user who asked (the owner, or the admin). */
  requestedBy: string;
  byAdmin: boolean;
  /** The carrier's reference of a refund under review. */
  ref: string | null;
  /** When the carrier first answered the void; null: it has not heard of it yet (send it again). */
  answeredAt: Date | null;
  /** When the carrier said refunded; the charge is given back from then on, whoever finishes it. */
  confirmedAt: Date | null;
}

/** What the carrier said about a label it sold, kept on the row. */
export interface LabelPurchase {
  /** The carrier plugin that bought it (`sandbox-usps`, `usps`, `easypost`): voids and tracking go back to it. */
  carrierId: string | null;
  /** What the carrier charged the platform, in cents; null when it did not say. */
  costCents: number | null;
  /** The carrier's own id of the label or shipment. */
  ref: string | null;
  /** The carrier's pricing SKU. */
  sku: string | null;
}

export interface NewLabel {
  id: string;
  userId: string;
  bulkOrderId?: string | null;
  idempotencyKey: string | null;
  courier: string;
  serviceUid: string;
  serviceName: string;
  sender: ShipmentAddress;
  receiver: ShipmentAddress;
  parcel: ShipmentParcel;
  priceCents: number;
  chargeKey: string;
  requestHash?: string | null;
}

export type InsertLabelResult = { ok: true; label: LabelRecord } | { ok: false; existing: LabelRecord };

export interface LabelsRepo {
  /** Inserts a pending row; with an idempotency key already used by this user, returns that row instead. */
  insertPending(label: NewLabel, tx?: Tx): Promise<InsertLabelResult>;
  findById(id: string, tx?: Tx): Promise<LabelRecord | null>;
  findByIdempotencyKey(userId: string, key: string, tx?: Tx): Promise<LabelRecord | null>;
  findByPdfName(pdfName: string, tx?: Tx): Promise<LabelRecord | null>;
  /**
   * Notes that payments took the charge. False (nothing written) when the row is no longer pending or
   * its refund has begun: someone else settled it while the charge was on its way.
   */
  markCharged(id: string, tx?: Tx): Promise<boolean>;
  /** pending (no refund begun) → completed; null when it was not (someone else settled it, or is refunding it). */
  complete(
    id: string,
    done: { trackingNumber: string; pdfName: string; purchase?: LabelPurchase },
    tx?: Tx,
  ): Promise<LabelRecord | null>;
  /**
   * Records, on a pending row, that its refund is beginning and how it is to end (kept for whoever
   * finishes it after a crash); false when the row is no longer pending.
   */
  startRefund(id: string, why: { errorCode: ErrorCode; error: string; retryable: boolean }, tx?: Tx): Promise<boolean>;
  /** pending → cancelled; null when the row was no longer pending. */
  cancel(
    id: string,
    why: { errorCode: ErrorCode; error: string; refunded: boolean; retryable?: boolean },
    tx?: Tx,
  ): Promise<LabelRecord | null>;
  /** Notes on a cancelled row that its charge was given back after all. */
  markRefunded(id: string, tx?: Tx): Promise<void>;
  /**
   * Takes the idempotency key off a cancelled, retryable row so that a new purchase can carry it;
   * false when the row is no longer such a row with that key (someone else took it first).
   */
  releaseIdempotencyKey(id: string, tx?: Tx): Promise<boolean>;
  /** Keeps a failure on a row that stays pending (e.g. a refund could not be made yet). */
  noteError(id: string, why: { errorCode: ErrorCode; error: string }, tx?: Tx): Promise<void>;
  /**
   * Pending single-label rows that no purchase holds (see `PurchaseLocks`) and that the reconciler
   * has not put off (`lease`), oldest first. Whether one is held can change at any moment: the
   * reconciler still takes each row's hold before it touches it.
   */
  listUnheldPending(limit: number): Promise<LabelRecord[]>;
  /** Puts off the reconciler's next look at a pending row until `until`; the row as it is now, or null when no longer pending. */
  lease(id: string, until: Date): Promise<LabelRecord | null>;
  /** With `tracking`, only bought labels whose parcel is at that stage (as `trackingStageOf` reads it). */
  listForUser(
    userId: string,
    opts: { limit: number; singleOnly?: boolean; tracking?: TrackingStage },
    tx?: Tx,
  ): Promise<LabelRecord[]>;
  countCompleted(userId: string, tx?: Tx): Promise<number>;
}

/**
 * "This single-label purchase is being worked on right now", as a fact the database knows: a lock
 * held for the whole purchase by whoever works on it (the request that started it, a retry with its
 * Idempotency-Key, the reconciler), let go when they are done or when their process dies. A pending
 * row nobody holds therefore belongs to a purchase that was cut off, and may be settled at once.
 */
export interface PurchaseLocks {
  /** The hold of this label's purchase, or null at once when someone else has it. Release it when done. */
  tryHold(labelId: string): Promise<PurchaseHold | null>;
}

export interface PurchaseHold {
  /**
   * Whether the row is pending with no refund begun, asked on the very connection that holds the
   * lock: true proves the hold is still there at this moment. The one moment a charge may be sent.
   */
  canCharge(): Promise<boolean>;
  /** Lets go. Never throws: a lock that cannot be let go is dropped with its connection. */
  release(): Promise<void>;
}

export interface QuoteItem {
  serviceUid: string;
  serviceName: string;
  billedWeight: number;
  priceCents: number;
}

/** services-pricing: the server-side price of shipments (raises AppError PRICING_* with its message). */
export interface QuotePort {
  quote(userId: string, shipments: { serviceName: string; weightLb: number }[]): Promise<QuoteItem[]>;
}

/** payments' ledger. Every call is idempotent by `key`; errors are AppErrors with payments' code and message. */
export interface LedgerPort {
  charge(req: { userId: string; amountCents: number; key: string; memo?: string }): Promise<{ balanceCents: number }>;
  refund(req: {
    userId: string;
    amountCents: number;
    key: string;
    chargeKey: string;
    memo?: string;
    /** The admin who gave the charge back, when one did. */
    adminId?: string;
  }): Promise<{ balanceCents: number }>;
}

/** One label purchase, keyed so that buying twice with one key gives the same label and costs once. */
export type CarrierLabelRequest = LabelRequest;
/** Carrier refusals come back as `{ ok: false, message, retryable }`, not as exceptions. */
export type CarrierLabelResult = LabelResult;
/**
 * The part of a carrier adapter orders needs: buying, voiding what it bought and making SCAN forms of it (when the
 * carrier can), and what it can do.
 */
export type CarrierPort = Pick<Carrier, 'purchaseLabel' | 'voidLabel' | 'refundStatus' | 'createScanForm'> &
  Partial<Pick<Carrier, 'capabilities'>>;

/** Label and order files. Keys are `/`-separated relative paths (`labels/<userId>/<name>`). */
export interface FileStore {
  /** Whole file or nothing: a reader never sees a half-written file. */
  put(key: string, data: Buffer): Promise<void>;
  /** null when there is no such file. */
  open(key: string): Promise<{ stream: NodeJS.ReadableStream; size: number } | null>;
  /** The whole file at once, for small files read by the hundred (the labels of a merged PDF); null when absent. */
  read(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
}

/** Records `label.purchased` in the caller's transaction, so it is relayed only if the completion commits. */
/** Records `label.purchased` for every label given, in the caller's transaction. */
export type PublishLabelPurchased = (tx: Tx, labels: LabelRecord[]) => Promise<void>;
