import { randomUUID } from 'node:crypto';
import { AppError, retryWhileDatabaseUnavailable } from '@flatship/kit';
import type { ErrorCode } from '@flatship/proto';
import { buyLabel, refundCharge, refundKeyFor } from './buy-and-refund';

import { labelFileKey } from './files';
import { keepCarrierZpl, purchaseFormatsFor, zplFileKey } from './label-formats';
import { MESSAGES } from './messages';
import type {
  CarrierLabelRequest,
  CarrierLabelResult,
  CarrierPort,
  DomainLogger,
  FileStore,
  LabelPurchase,
  LabelRecord,
  LabelsRepo,
  LedgerPort,
  PublishLabelPurchased,
  Transactor,
} from './ports';
import type { PrintSettingsRepo } from './print-settings';

// Callers that give back a late charge use the same single-label refund key.
export { refundKeyFor };

export interface FulfilDeps {
  labels: LabelsRepo;
  carrier: CarrierPort;
  ledger: LedgerPort;
  files: FileStore;
  transactor: Transactor;
  publishLabelPurchased: PublishLabelPurchased;
  logger: DomainLogger;
  /** Pauses between carrier attempts that failed in a retryable way; [] means one attempt. */
  carrierRetryDelaysMs?: number[];
  /** The buyers' print settings: a ZPL printer's labels are bought with the carrier's ZPL too. */
  printSettings?: PrintSettingsRepo;
}

export type FulfilOutcome =
  | { kind: 'completed'; label: LabelRecord }
  | { kind: 'cancelled'; label: LabelRecord; errorCode: ErrorCode; message: string }
  /** Nothing final yet (a retryable carrier failure, or a refund payments could not take now); the reconciler goes on. */
  | { kind: 'pending'; errorCode: ErrorCode; message: string; retryable: boolean };

/** How long recording a bought label waits for a database that is away (restarting) before giving up. */
const DATABASE_WAIT_MS = 15_000;

export function carrierRequestFor(label: LabelRecord): CarrierLabelRequest {
  const { parcel } = label;
  return {
    // The label id: a retry after a crash buys the same label rather than a second one.
    idempotencyKey: label.id,
    serviceUid: label.serviceUid,
    from: label.sender,
    to: label.receiver,
    parcel: {
      length: parcel.length,
      width: parcel.width,
      height: parcel.height,
      weightLb: parcel.weightLb,
      ...(parcel.description ? { description: parcel.description } : {}),
    },
    references: {
      orderId: label.id,
      ...(parcel.quantity !== undefined ? { quantity: String(parcel.quantity) } : {}),
      ...(parcel.sku ? { sku: parcel.sku } : {}),
    },
  };
}

/**
 * Returns a charged label's money and cancels it. Idempotent: the refund key is
 * fixed per label, and a label that was never charged (payments knows no such
 * charge) is simply cancelled. `retryable` says the failure may pass, so the
 * purchase's idempotency key may be used again for a new one.
 *
 * The row says its refund has begun before any money moves, so a crash between
 * the refund and the cancellation leaves a row that can only be refunded and
 * cancelled by whoever finishes it, never completed or charged again.
 */
export async function refundAndCancel(
  deps: Pick<FulfilDeps, 'labels' | 'ledger' | 'logger'>,
  label: LabelRecord,
  errorCode: ErrorCode,
  message: string,
  opts: { retryable: boolean },
): Promise<FulfilOutcome> {
  if (!(await deps.labels.startRefund(label.id, { errorCode, error: message, retryable: opts.retryable }))) {
    return settledOutcome(deps, label.id);
  }
  let refunded: boolean;
  try {
    refunded = await refundCharge(deps, {
      userId: label.userId,
      amountCents: label.priceCents,
      key: refundKeyFor(label.id),
      chargeKey: label.chargeKey,
      memo: `Refund of label ${label.id}`,
    });
  } catch (err) {
    // The row stays pending with its refund begun, so the reconciler refunds it later.
    deps.logger.error({ err, labelId: label.id }, 'refund failed; left for the reconciler');
    return { kind: 'pending', errorCode, message, retryable: false };
  }
  const cancelled = await deps.labels.cancel(label.id, {
    errorCode,
    error: message,
    refunded,
    retryable: opts.retryable,
  });
  if (cancelled) return { kind: 'cancelled', label: cancelled, errorCode, message };
  return settledOutcome(deps, label.id);
}

/**
 * Finishes a row whose refund was begun by someone who did not get to cancel it
 * (a crash, or payments down at the time), as that someone meant it to end.
 */
export function finishRefund(
  deps: Pick<FulfilDeps, 'labels' | 'ledger' | 'logger'>,
  label: LabelRecord,
): Promise<FulfilOutcome> {
  return refundAndCancel(deps, label, label.errorCode ?? 'SERVICE_UNAVAILABLE', label.error ?? MESSAGES.abandoned, {
    retryable: label.retryable,
  });
}

/** What a row became when someone else moved it on first (or is moving it on). */
export async function settledOutcome(deps: Pick<FulfilDeps, 'labels'>, id: string): Promise<FulfilOutcome> {
  const now = await deps.labels.findById(id);
  if (now?.status === 'completed') return { kind: 'completed', label: now };
  if (now?.status === 'cancelled') {
    return {
      kind: 'cancelled',
      label: now,
      errorCode: now.errorCode ?? 'ORDERS_CARRIER_FAILED',
      message: now.error ?? MESSAGES.abandoned,
    };
  }
  if (now?.status === 'pending') {
    return { kind: 'pending', errorCode: 'ORDERS_IN_PROGRESS', message: MESSAGES.inProgress, retryable: false };
  }
  throw new AppError('INTERNAL', `label ${id} vanished while being finished`);
}

/**
 * Buys the label for a pending row that has been charged, stores its PDF and
 * completes the row with `label.purchased` in the same transaction; a carrier
 * refusal refunds and cancels. The caller holds the purchase (`PurchaseLocks`).
 * Even so, safe to run twice for one row: the carrier key is the label id, and
 * only one completion or cancellation can win (never a completion once a
 * refund has begun).
 * `keepRetryable` leaves a row whose carrier failure may pass pending for a later
 * attempt; without it such a row is refunded and cancelled too, because its buyer
 * is being told it failed.
 */
export async function fulfilLabel(
  deps: FulfilDeps,
  label: LabelRecord,
  opts: { keepRetryable: boolean },
): Promise<FulfilOutcome> {
  const formats = await purchaseFormatsFor(deps, label.userId);
  const result = await buyLabel(deps, label.id, { ...carrierRequestFor(label), ...formats });
  if (!result.ok) {
    if (result.retryable && opts.keepRetryable) {
      await deps.labels.noteError(label.id, { errorCode: 'ORDERS_CARRIER_FAILED', error: result.message });
      return { kind: 'pending', errorCode: 'ORDERS_CARRIER_FAILED', message: result.message, retryable: true };
    }
    return refundAndCancel(deps, label, 'ORDERS_CARRIER_FAILED', result.message, { retryable: result.retryable });
  }

  const pdfName = `${randomUUID()}.pdf`;
  const key = labelFileKey(label.userId, pdfName);
  await deps.files.put(key, result.pdf);
  await keepCarrierZpl(deps.files, { userId: label.userId, pdfName }, result.zpl);
  // The label is bought and paid for: a database that is away for a moment must not turn that into a failure
  // (or leave it to the reconciler). Completing again is harmless: only a pending row can be completed.
  const completed = await retryWhileDatabaseUnavailable(
    () =>
      deps.transactor.run(async (tx) => {
        const done = await deps.labels.complete(
          label.id,
          { trackingNumber: result.trackingNumber, pdfName, purchase: purchaseOf(result) },
          tx,
        );
        if (done) await deps.publishLabelPurchased(tx, [done]);
        return done;
      }),
    { forMs: DATABASE_WAIT_MS },
  );
  if (completed) return { kind: 'completed', label: completed };
  const outcome = await settledOutcome(deps, label.id);
  // An attempt whose COMMIT reply was lost may have completed the row with this very file.
  if (outcome.kind !== 'completed' || outcome.label.pdfName !== pdfName) {
    for (const unused of [key, zplFileKey(label.userId, pdfName)]) {
      await deps.files
        .remove(unused)
        .catch((err: unknown) => deps.logger.warn({ err, key: unused }, 'could not remove unused file'));
    }
  }
  return outcome;
}

/** What the carrier said about the label it sold, as the row keeps it. */
export function purchaseOf(label: Extract<CarrierLabelResult, { ok: true }>): LabelPurchase {
  return {
    carrierId: label.carrierId ?? null,
    costCents: label.costCents ?? null,
    ref: label.carrierRef ?? null,
    sku: label.carrierSku ?? null,
  };
}
