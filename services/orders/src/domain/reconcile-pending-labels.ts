import { type FulfilDeps, type FulfilOutcome, finishRefund, fulfilLabel, refundAndCancel } from './fulfil-label';
import { MESSAGES } from './messages';
import type { Clock, LabelRecord, PurchaseLocks } from './ports';

export interface ReconcileDeps extends FulfilDeps {
  clock: Clock;
  purchaseLocks: PurchaseLocks;
}

export interface ReconcileOptions {
  /** How long a row this run could not settle (carrier or payments down) waits before the next run tries again. */
  leaseMs?: number;
  /** A charged row whose carrier still fails after this long is refunded instead of retried again. */
  giveUpAfterMs?: number;
  batchSize?: number;
}

export interface ReconcileReport {
  completed: number;
  cancelled: number;
  stillPending: number;
}

/**
 * Settles labels whose purchase was cut off: left pending by a request that
 * died (or that an outage made give the row up). Such a row is one nobody
 * holds (see `PurchaseLocks`): a purchase at work holds its row from before
 * the row exists until it is done, however slow the carrier or payments, and
 * a dead process lets go at once. So there is no waiting period: a row is
 * settled on the first run after its purchase stopped, and never while it runs.
 *
 * A row whose refund had begun is refunded and cancelled. A row never
 * confirmed as charged is refunded (if payments holds a charge for it) and
 * cancelled; a charged row is bought again with the same carrier key, and
 * refunded if the carrier refuses. Running it twice, or on two replicas at
 * once, changes nothing more: each row is held while it is settled, and every
 * step is idempotent.
 */
export async function reconcilePendingLabels(
  deps: ReconcileDeps,
  opts: ReconcileOptions = {},
): Promise<ReconcileReport> {
  const now = deps.clock.now();
  const giveUpAfterMs = opts.giveUpAfterMs ?? 24 * 60 * 60_000;
  const leaseUntil = new Date(now.getTime() + (opts.leaseMs ?? 5 * 60_000));
  const candidates = await deps.labels.listUnheldPending(opts.batchSize ?? 50);
  const report: ReconcileReport = { completed: 0, cancelled: 0, stillPending: 0 };
  for (const candidate of candidates) {
    const hold = await deps.purchaseLocks.tryHold(candidate.id);
    // Someone took it up since the list was read: a retry with its key, or another replica.
    if (!hold) continue;
    let outcome: FulfilOutcome;
    try {
      const label = await deps.labels.lease(candidate.id, leaseUntil);
      if (!label) continue;
      outcome = await settle(deps, label, now.getTime() - label.createdAt.getTime() < giveUpAfterMs);
    } catch (err) {
      deps.logger.error({ err, labelId: candidate.id }, 'could not reconcile label; will try again');
      report.stillPending++;
      continue;
    } finally {
      await hold.release();
    }
    if (outcome.kind === 'completed') report.completed++;
    else if (outcome.kind === 'cancelled') report.cancelled++;
    else report.stillPending++;
    deps.logger.info({ labelId: candidate.id, outcome: outcome.kind }, 'reconciled pending label');
  }
  return report;
}

function settle(deps: ReconcileDeps, label: LabelRecord, keepRetryable: boolean): Promise<FulfilOutcome> {
  if (label.refundStartedAt) return finishRefund(deps, label);
  // Its buyer never heard how it ended, so the key may buy afresh.
  if (!label.chargedAt) {
    return refundAndCancel(deps, label, 'SERVICE_UNAVAILABLE', MESSAGES.abandoned, { retryable: true });
  }
  return fulfilLabel(deps, label, { keepRetryable });
}
