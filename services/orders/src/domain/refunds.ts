import { AppError, type AuthContext, type Tx } from '@flatship/kit';
import {
  type BatchLabel,
  type BatchRefundReply,
  centsToDollars,
  DEFAULT_REFUND_WINDOW_DAYS,
  type LabelRefund,
  type LabelRefundedEvent,
  REFUND_MESSAGES,
  type RefundLabelReply,
} from '@flatship/proto';
import type { AdminLabelRecord } from './admin-orders';
import { visibleOrder } from './bulk/access';
import { type BulkDeps, carrierKeyOf } from './bulk/deps';
import type { BulkOrderRecord } from './bulk/ports';
import { recountAfterRowRefund, regenerateAfterRowRefund } from './bulk/recount-refunded-row';
import { refundCharge, refundKeyFor } from './buy-and-refund';
import type { CarrierPort, Clock, LabelRecord } from './ports';
import { labelTrackingStage } from './tracking';
import { placeOf } from './validate-shipment';

// Refunds of unused labels: asked by the label's owner (Orders, Batch Orders) or an admin, sent to the carrier that
// sold the label, and credited to the balance once, when that carrier confirms.
//
// A refund goes requested → refunded (the label is void, the charge back) or requested → rejected (with the
// carrier's reason). Every step is a conditional write, so two requests at once, a double click, the status job and
// a retry after a crash each move the label at most once; the money moves under the label's one refund key, which
// payments takes at most once.

/** A label as refunds see it: as the admin's lists do (its row, when it became void), and its purchase attempt. */
export interface RefundableLabel extends AdminLabelRecord {
  /** A bulk row's purchase attempt (0 for single labels). */
  attempt: number;
}

export interface RefundsRepo {
  /** Inside a transaction the row is not locked: every change below is conditional on the state it expects. */
  find(id: string, tx?: Tx): Promise<RefundableLabel | null>;
  /**
   * completed with no refund → requested (by whom), held for the caller (see `release`); null when someone else asked
   * first or it is no longer bought.
   */
  claim(id: string, by: { userId: string; byAdmin: boolean }): Promise<RefundableLabel | null>;
  /**
   * `claim` of many labels in one conditional write: those of `ids` still bought with no refund asked become requested
   * and held for the caller; answers the ones it claimed, so two callers at once never claim the same label.
   */
  claimMany(ids: readonly string[], by: { userId: string; byAdmin: boolean }): Promise<RefundableLabel[]>;
  /** Refunds of `ids` still requested and held by nobody, each now held for the caller (see `release`). */
  takeWaiting(ids: readonly string[]): Promise<RefundableLabel[]>;
  /** The carrier heard of the refund and is reviewing it (its reference, when it gave one). */
  noteAnswered(id: string, ref: string | null): Promise<void>;
  /** The carrier said refunded: from now on the charge is given back without asking it again. */
  noteConfirmed(id: string): Promise<void>;
  /** requested → rejected with the carrier's reason; null when it is no longer requested (or was confirmed). */
  reject(id: string, reason: string): Promise<RefundableLabel | null>;
  /** requested → refunded, the label void; null when someone else settled it first. */
  settle(id: string, tx: Tx): Promise<RefundableLabel | null>;
  /**
   * Refunds still waiting for their carrier that nobody looked at for `recheckMs` (and nobody holds), each held for
   * the caller until it `release`s it; rows another replica is taking are skipped.
   */
  takeDue(limit: number, recheckMs: number): Promise<RefundableLabel[]>;
  /** Ends the hold `claim` or `takeDue` put on a waiting refund: the status job's pause starts now. */
  release(id: string): Promise<void>;
  /** Every label of a bulk order, in row order. */
  listBatch(orderId: string): Promise<RefundableLabel[]>;
}

/** Records `label.refunded` in the caller's transaction, so it exists exactly when the void does. */
export type PublishLabelRefunded = (tx: Tx, event: LabelRefundedEvent) => Promise<void>;

export interface RefundDeps extends BulkDeps {
  refunds: RefundsRepo;
  carrier: CarrierPort;
  clock: Clock;
  publishLabelRefunded: PublishLabelRefunded;
  /** How long after purchase a label may be refunded (`REFUND_WINDOW_DAYS`). */
  refundWindowDays?: number;
}

/** Who asks: the label's owner, or an admin (recorded as such, on the refund and in the ledger). */
export interface RefundActor {
  /** Who the request is recorded as. */
  userId: string;
  byAdmin: boolean;
  /** Whose labels it may refund: that user's only, or (null) anyone's, for an admin signed in as themself. */
  ownerId: string | null;
}

/**
 * The caller as a refund's actor. An admin visiting as the user (Login As) acts as that user alone: only the user's
 * labels, as the user could; the refund is recorded as the admin's, so the audit names who really asked.
 */
export const actorOf = (auth: AuthContext): RefundActor => {
  if (auth.impersonatorId !== undefined) return { userId: auth.impersonatorId, byAdmin: true, ownerId: auth.userId };
  const isAdmin = auth.role === 'admin';
  return { userId: auth.userId, byAdmin: isAdmin, ownerId: isAdmin ? null : auth.userId };
};

/** Tracking statuses that mean the label was never handed to the carrier. */
const UNUSED_TRACKING = new Set(['pre_transit', 'unknown']);
const DAY_MS = 86_400_000;

type Eligibility =
  | { refundable: true }
  | {
      refundable: false;
      code:
        | 'ORDERS_LABEL_USED'
        | 'ORDERS_REFUND_WINDOW_PASSED'
        | 'ORDERS_LABEL_NOT_REFUNDABLE'
        | 'ORDERS_LABEL_ALREADY_REFUNDED';
      message: string;
    };

/**
 * Whether a refund may be asked for the label now: bought, no refund asked yet, never scanned, within the window
 * (`windowDays`, `REFUND_WINDOW_DAYS`; the default when not set).
 */
export function refundEligibility(label: LabelRecord, now: Date, windowDays = DEFAULT_REFUND_WINDOW_DAYS): Eligibility {
  if (label.status === 'void' || label.refund)
    return { refundable: false, code: 'ORDERS_LABEL_ALREADY_REFUNDED', message: REFUND_MESSAGES.alreadyRefunded };
  if (label.status !== 'completed')
    return { refundable: false, code: 'ORDERS_LABEL_NOT_REFUNDABLE', message: REFUND_MESSAGES.notBought };
  if (label.trackingStatus && !UNUSED_TRACKING.has(label.trackingStatus)) {
    return { refundable: false, code: 'ORDERS_LABEL_USED', message: REFUND_MESSAGES.used };
  }
  if (now.getTime() - label.createdAt.getTime() > windowDays * DAY_MS) {
    return { refundable: false, code: 'ORDERS_REFUND_WINDOW_PASSED', message: REFUND_MESSAGES.pastWindow(windowDays) };
  }
  return { refundable: true };
}

/** The refund fields every list of labels carries. Why a bought label cannot be refunded is said; the rest show their state. */
export function refundView(label: LabelRecord, now: Date, windowDays: number | undefined): LabelRefund {
  const eligibility = refundEligibility(label, now, windowDays);
  const blocked =
    !eligibility.refundable &&
    (eligibility.code === 'ORDERS_LABEL_USED' || eligibility.code === 'ORDERS_REFUND_WINDOW_PASSED');
  return {
    refundStatus: label.refund?.status ?? (label.status === 'void' ? 'refunded' : null),
    refundReason: label.refund?.reason ?? null,
    refundable: eligibility.refundable,
    refundBlockedReason: blocked ? eligibility.message : null,
  };
}

/** Where one refund ended up after a step, and how much came back with it. */
interface Outcome {
  label: RefundableLabel;
  creditedCents: number;
  /** The carrier could not be reached: the refund stays requested and is sent again by the status job. */
  unreachable?: boolean;
}

/**
 * Orders whose files are to be written again once a batch of refunds is done, rather than after each of its labels
 * (each writing holds the order's lock and reads every label of it).
 */
type FilesLater = Map<string, BulkOrderRecord>;

/**
 * Gives the charge back and voids the label, once: the money first, under the label's refund key (payments takes it
 * at most once), then the void with its `label.refunded` in one transaction. A bulk row's order is recounted (the
 * row counts as refunded) and its files are written again without the label: now, or by the caller of a batch when
 * it gives `filesLater`.
 */
async function settle(deps: RefundDeps, label: RefundableLabel, filesLater?: FilesLater): Promise<Outcome> {
  const refund = label.refund;
  const credited = await refundCharge(deps, {
    userId: label.userId,
    amountCents: label.priceCents,
    chargeKey: label.chargeKey,
    key: refundKeyFor(label.id),
    memo: `Refund of unused label ${label.trackingNumber ?? label.id}`,
    ...(refund?.byAdmin ? { adminId: refund.requestedBy } : {}),
  });
  if (!credited) {
    // Payments never took this charge: nothing is owed back, and the label is still void.
    deps.logger.warn({ labelId: label.id }, 'refunded label had no charge to give back');
  }
  const { settled, order } = await deps.transactor.run(async (tx) => {
    // A bulk row's order is locked first, as for every change of its rows, so its counts never race.
    if (label.bulkOrderId) await deps.bulk.lock(label.bulkOrderId, tx);
    const row = await deps.refunds.settle(label.id, tx);
    let order: BulkOrderRecord | null = null;
    if (row) {
      await deps.publishLabelRefunded(tx, {
        userId: row.userId,
        labelId: row.id,
        priceCents: row.priceCents,
        refundedAt: (row.voidedAt ?? deps.clock.now()).toISOString(),
      });
      if (row.bulkOrderId) order = await recountAfterRowRefund(deps, row.bulkOrderId, tx);
    }
    return { settled: row, order };
  });
  if (order && filesLater) filesLater.set(order.id, order);
  else if (order) await regenerateAfterRowRefund(deps, order);
  if (settled) return { label: settled, creditedCents: credited ? settled.priceCents : 0 };
  // Someone else settled it between our look and our write: the same money, moved once.
  return { label: (await deps.refunds.find(label.id)) ?? label, creditedCents: 0 };
}

/**
 * Sends a requested refund to the label's carrier (`void`: it has not heard of it; `status`: it is reviewing it) and
 * acts on the answer: refunded is settled, pending waits, rejected is kept with its reason. A carrier that cannot
 * be reached leaves the refund requested for the status job; a refusal that will never pass rejects it.
 */
async function drive(
  deps: RefundDeps,
  label: RefundableLabel,
  ask: 'void' | 'status',
  filesLater?: FilesLater,
): Promise<Outcome> {
  if (label.refund?.confirmedAt) return settle(deps, label, filesLater);
  const call = ask === 'void' ? deps.carrier.voidLabel : deps.carrier.refundStatus;
  const request = {
    // The key the label was bought under: a bulk row's retries each had their own.
    idempotencyKey: label.bulkOrderId ? carrierKeyOf(label.id, label.attempt) : label.id,
    trackingNumber: label.trackingNumber ?? '',
    purchasedAt: label.createdAt,
    ...(label.purchase?.ref ? { carrierRef: label.purchase.ref } : {}),
    ...(label.purchase?.carrierId ? { carrierId: label.purchase.carrierId } : {}),
  };
  // A carrier that takes no refunds can never void it: kept as refused, with why.
  if (!call) return { label: (await deps.refunds.reject(label.id, REFUND_MESSAGES.noVoid)) ?? label, creditedCents: 0 };
  let result: Awaited<ReturnType<NonNullable<CarrierPort['voidLabel']>>>;
  try {
    result = await call(request);
  } catch (err) {
    deps.logger.warn({ err, labelId: label.id }, 'carrier void failed');
    return { label, creditedCents: 0, unreachable: true };
  }
  if (!result.ok) {
    if (result.retryable) {
      deps.logger.warn({ labelId: label.id, code: result.code }, 'carrier void not answered; sent again later');
      return { label, creditedCents: 0, unreachable: true };
    }
    return { label: (await deps.refunds.reject(label.id, result.message)) ?? label, creditedCents: 0 };
  }
  if (result.status === 'refunded') {
    await deps.refunds.noteConfirmed(label.id);
    return settle(deps, label, filesLater);
  }
  if (result.status === 'rejected') {
    const rejected = await deps.refunds.reject(label.id, result.reason);
    return { label: rejected ?? (await deps.refunds.find(label.id)) ?? label, creditedCents: 0 };
  }
  await deps.refunds.noteAnswered(label.id, result.reference ?? null);
  return { label: (await deps.refunds.find(label.id)) ?? label, creditedCents: 0 };
}

const notFound = () => new AppError('NOT_FOUND', REFUND_MESSAGES.labelNotFound);

/** A requested refund, taken on: sent again when its carrier never answered, asked about when it did. */
const driveRequested = (deps: RefundDeps, label: RefundableLabel, filesLater?: FilesLater) =>
  drive(deps, label, label.refund?.answeredAt ? 'status' : 'void', filesLater);

/**
 * Asks for the refund of one label and takes it as far as the carrier's answer allows. Refused with a clear reason
 * when the label cannot be refunded (never bought, scanned, past the window, refunded or refused before). A refund
 * already requested is driven on, not asked twice: a double click answers where it stands.
 */
async function refundOne(deps: RefundDeps, actor: RefundActor, labelId: string): Promise<Outcome> {
  const label = await deps.refunds.find(labelId);
  if (!label || (actor.ownerId !== null && label.userId !== actor.ownerId)) throw notFound();
  const existing = label.refund;
  if (existing?.status === 'rejected') {
    throw new AppError('ORDERS_REFUND_REJECTED', REFUND_MESSAGES.alreadyRejected(existing.reason ?? ''));
  }
  if (existing?.status === 'requested') return driveRequested(deps, label);
  const eligibility = refundEligibility(label, deps.clock.now(), deps.refundWindowDays);
  if (!eligibility.refundable) throw new AppError(eligibility.code, eligibility.message);
  const claimed = await deps.refunds.claim(label.id, { userId: actor.userId, byAdmin: actor.byAdmin });
  if (!claimed) {
    // Someone asked at the same moment: answer where their refund stands.
    const now = await deps.refunds.find(label.id);
    if (now?.refund?.status === 'requested') return driveRequested(deps, now);
    if (now?.refund?.status === 'refunded') return { label: now, creditedCents: 0 };
    throw new AppError('ORDERS_LABEL_NOT_REFUNDABLE', REFUND_MESSAGES.notBought);
  }
  try {
    return await drive(deps, claimed, 'void');
  } finally {
    await deps.refunds.release(claimed.id);
  }
}

function replyOf(outcome: Outcome): RefundLabelReply {
  const { label, creditedCents } = outcome;
  const status = label.refund?.status ?? 'requested';
  const message =
    status === 'refunded'
      ? REFUND_MESSAGES.refunded(centsToDollars(label.priceCents).toFixed(2))
      : status === 'rejected'
        ? REFUND_MESSAGES.rejected(label.refund?.reason ?? '')
        : outcome.unreachable
          ? REFUND_MESSAGES.carrierUnavailable
          : REFUND_MESSAGES.requested;
  return {
    message,
    labelId: label.id,
    refundStatus: status,
    refundReason: label.refund?.reason ?? null,
    credited: centsToDollars(creditedCents),
  };
}

/** POST /api/orders/labels/{labelId}/refund: the owner's (or an admin's) request for one label, and the label after it. */
export async function refundLabel(
  deps: RefundDeps,
  actor: RefundActor,
  labelId: string,
): Promise<{ reply: RefundLabelReply; label: RefundableLabel }> {
  const outcome = await refundOne(deps, actor, labelId);
  return { reply: replyOf(outcome), label: outcome.label };
}

/** How many of a batch's refunds run at once: the carrier pool paces them further. */
const BATCH_CONCURRENCY = 8;

/**
 * POST /api/orders/bulk/refund/{orderId}: the named labels of a batch, or every unused one. Each is its own refund
 * (the same flow as one label); labels that cannot be refunded are counted as skipped, not refused. The labels are
 * claimed in one conditional write, so two requests at once each take their own and answer for those alone; a
 * refund already requested is driven on only by whoever takes its hold. The order's files are written once, after
 * the last of its refunds (an order left generating them by a crash meanwhile is the sweeper's).
 */
export async function requestBatchRefund(
  deps: RefundDeps,
  auth: AuthContext,
  orderId: string,
  labelIds?: readonly string[],
): Promise<BatchRefundReply> {
  await visibleOrder(deps, auth, orderId);
  const actor = actorOf(auth);
  const rows = await deps.refunds.listBatch(orderId);
  const now = deps.clock.now();
  const wanted = labelIds ? new Set(labelIds) : null;
  const named = wanted ? rows.filter((r) => wanted.has(r.id)) : rows;
  const fresh = named.filter((r) => refundEligibility(r, now, deps.refundWindowDays).refundable).map((r) => r.id);
  const waiting = named.filter((r) => r.refund?.status === 'requested').map((r) => r.id);
  const claimed = [
    ...(fresh.length > 0 ? await deps.refunds.claimMany(fresh, actor) : []).map((label) => ({ label, ask: 'void' })),
    ...(waiting.length > 0 ? await deps.refunds.takeWaiting(waiting) : []).map((label) => ({
      label,
      ask: 'requested',
    })),
  ] as { label: RefundableLabel; ask: 'void' | 'requested' }[];
  // Named labels that are not the order's, cannot be refunded or are another request's are skipped; with no names,
  // only the unused labels this request claimed are asked.
  const skipped = wanted ? wanted.size - claimed.length : 0;
  const counts = { refunded: 0, pending: 0, rejected: 0 };
  let creditedCents = 0;
  const filesLater: FilesLater = new Map();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < claimed.length; i = next++) {
      const { label, ask } = claimed[i] as (typeof claimed)[0];
      let outcome: Outcome;
      try {
        outcome =
          ask === 'void' ? await drive(deps, label, 'void', filesLater) : await driveRequested(deps, label, filesLater);
      } finally {
        await deps.refunds.release(label.id);
      }
      creditedCents += outcome.creditedCents;
      const status = outcome.label.refund?.status;
      if (status === 'refunded') counts.refunded++;
      else if (status === 'rejected') counts.rejected++;
      else counts.pending++;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, claimed.length) }, worker));
  } finally {
    for (const order of filesLater.values()) await regenerateAfterRowRefund(deps, order);
  }
  const tally = { ...counts, skipped };
  return {
    message: REFUND_MESSAGES.batch(tally, centsToDollars(creditedCents).toFixed(2)),
    asked: claimed.length + skipped,
    ...tally,
    credited: centsToDollars(creditedCents),
  };
}

/** GET /api/orders/bulk/labels/{orderId}: the batch's labels with where each one's refund stands. */
export async function listBatchLabels(
  deps: Pick<RefundDeps, 'refunds' | 'bulk' | 'clock' | 'refundWindowDays'>,
  auth: AuthContext,
  orderId: string,
): Promise<{ labels: BatchLabel[] }> {
  await visibleOrder(deps, auth, orderId);
  const now = deps.clock.now();
  const labels = (await deps.refunds.listBatch(orderId)).map(
    (l): BatchLabel => ({
      _id: l.id,
      row: l.rowIndex === null ? null : l.rowIndex + 1,
      status: l.status,
      serviceName: l.serviceName,
      receiverName: l.receiver.name,
      receiverPlace: placeOf(l.receiver),
      trackingNumber: l.trackingNumber,
      price: centsToDollars(l.priceCents),
      ...refundView(l, now, deps.refundWindowDays),
      trackingStage: labelTrackingStage(l),
    }),
  );
  return { labels };
}

/**
 * One round of the status job: refunds still waiting for their carrier are sent again (never answered: a crash, an
 * outage) or asked about (under review), and settled when confirmed. Each row is taken by one replica at a time and
 * then left alone for `recheckMs`.
 */
export async function checkRefunds(
  deps: RefundDeps,
  opts: { recheckMs: number; limit?: number },
): Promise<{ checked: number; refunded: number; rejected: number; waiting: number }> {
  const due = await deps.refunds.takeDue(opts.limit ?? 50, opts.recheckMs);
  const report = { checked: due.length, refunded: 0, rejected: 0, waiting: 0 };
  for (const label of due) {
    let outcome: Outcome;
    try {
      outcome = await driveRequested(deps, label);
    } finally {
      await deps.refunds.release(label.id);
    }
    const status = outcome.label.refund?.status;
    if (status === 'refunded') report.refunded++;
    else if (status === 'rejected') report.rejected++;
    else report.waiting++;
  }
  return report;
}
