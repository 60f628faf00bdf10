import type { BulkOrderItem, BulkProgressEvent, BulkStatus, LabelRequestedEvent, OrderSource } from '@flatship/proto';
import type { DomainLogger, LabelPurchase, LabelRecord, Tx } from '../ports';
import type { ShipmentAddress, ShipmentParcel } from '../validate-shipment';

export interface BulkOrderRecord {
  id: string;
  userId: string;
  status: BulkStatus;
  source: OrderSource;
  fileName: string | null;
  totalCount: number;
  /** Rows whose label was bought (and is still valid). */
  processedCount: number;
  /** Rows the carrier refused, their charge refunded. */
  failedCount: number;
  /** Rows whose label was bought and then refunded by an admin (void): settled, but no usable label. */
  refundedCount: number;
  costCents: number;
  /** Set when the first charge was asked for; the order's money is `bulk:<id>`. */
  chargeKey: string | null;
  /** Hash of the submit that claimed the charge; only that same submit may carry the claim on. */
  submitHash: string | null;
  /** Set once the rows exist; before that the order holds no shipments. */
  submittedAt: Date | null;
  retryCount: number;
  retryCostCents: number;
  pdfName: string | null;
  resultCsvName: string | null;
  autoConfirmName: string | null;
  stuckAt: Date | null;
  lastProgressAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** A shipment of a bulk order: a `labels` row with its place in the order and the row as submitted. */
export interface BulkRowRecord extends LabelRecord {
  bulkOrderId: string;
  rowIndex: number;
  attempt: number;
  input: BulkOrderItem;
}

export interface NewBulkRow {
  id: string;
  rowIndex: number;
  input: BulkOrderItem;
  courier: string;
  serviceUid: string;
  serviceName: string;
  sender: ShipmentAddress;
  receiver: ShipmentAddress;
  parcel: ShipmentParcel;
  priceCents: number;
}

/** What a submit charges for: the amount, its key, and the submit itself (as a hash). */
export interface ChargePlan {
  costCents: number;
  chargeKey: string;
  submitHash: string;
  source: OrderSource;
  fileName: string | null;
}

export interface OrderFiles {
  pdfName: string | null;
  resultCsvName: string | null;
  autoConfirmName: string | null;
}

export interface BulkRepo {
  create(order: { id: string; userId: string }): Promise<BulkOrderRecord>;
  findById(id: string, tx?: Tx): Promise<BulkOrderRecord | null>;
  /** Row lock on the order: every change of an order's rows or counts takes it first, so counts never race. */
  lock(id: string, tx: Tx): Promise<BulkOrderRecord | null>;
  /**
   * The same lock without waiting: null when someone else holds it (or there is no such order).
   * A submit holds it from its charge until its rows are stored, so a free lock on a claimed,
   * unsubmitted order means the submit that claimed it is gone.
   */
  tryLock(id: string, tx: Tx): Promise<BulkOrderRecord | null>;
  listForUser(userId: string, limit: number): Promise<BulkOrderRecord[]>;
  /** Claims the order's first charge for one submit; false when it is already claimed or submitted. */
  reserveCharge(id: string, plan: ChargePlan, tx?: Tx): Promise<boolean>;
  /** Gives the claim back when nothing was taken (payments refused, or holds no such charge). */
  releaseCharge(id: string, tx?: Tx): Promise<void>;
  /** Inserts the rows and marks the order submitted; false (nothing written) when the order was given up meanwhile. */
  submit(id: string, userId: string, chargeKey: string, rows: NewBulkRow[], tx: Tx): Promise<boolean>;
  /** Counts recomputed from the rows (never incremented), progress time bumped; they add up once every row is settled. */
  reconcileCounts(id: string, tx: Tx): Promise<BulkOrderRecord>;
  /** Moves the order from one of `from` to `to`; null when it was in none of them. */
  transition(
    id: string,
    from: readonly BulkStatus[],
    to: BulkStatus,
    extra?: Partial<OrderFiles> & { stuck?: boolean; retryCount?: number; retryCostCents?: number },
    tx?: Tx,
  ): Promise<BulkOrderRecord | null>;
  rows(orderId: string, tx?: Tx): Promise<BulkRowRecord[]>;
  /** The bulk rows among these label ids (unknown ids and single labels are left out). */
  findRows(labelIds: string[], tx?: Tx): Promise<BulkRowRecord[]>;
  failedRows(orderIds: string[], limitPerOrder: number): Promise<Map<string, { rowIndex: number; error: string }[]>>;
  /** pending → completed, each for its own attempt only, with what its carrier said of it; returns the rows that moved. */
  completeRows(
    done: { id: string; attempt: number; trackingNumber: string; pdfName: string; purchase: LabelPurchase }[],
    tx: Tx,
  ): Promise<BulkRowRecord[]>;
  /** pending → cancelled (failed), each for its own attempt only; returns the rows that moved. */
  failRows(
    failed: { id: string; attempt: number; errorCode: string; error: string; refunded: boolean }[],
    tx: Tx,
  ): Promise<BulkRowRecord[]>;
  /** Every failed row back to pending as its next attempt, paid by `chargeKey`. */
  requeueFailed(orderId: string, chargeKey: string, tx: Tx): Promise<BulkRowRecord[]>;
  /**
   * Unfinished orders whose progress is older than `olderThan`; their progress
   * time is bumped so another sweeper leaves them alone for a while.
   */
  leaseStalled(olderThan: Date, limit: number): Promise<BulkOrderRecord[]>;
}

/** Records events in the caller's transaction (the outbox), relayed after commit. */
export interface EventRecorder {
  labelRequested(tx: Tx, events: LabelRequestedEvent[]): Promise<void>;
  progress(tx: Tx, event: BulkProgressEvent): Promise<void>;
}

/** Best-effort, throttled progress for the live view; the final event goes through the outbox instead. */
export interface ProgressNotifier {
  notify(order: BulkOrderRecord): void;
  /**
   * The order's last row has settled: its final event goes through the outbox,
   * so an update still held back must never be sent after it (the browser
   * would end on a stale status).
   */
  finished(orderId: string): void;
}

export interface BulkLogger extends DomainLogger {}
