import { type FulfilDeps, type FulfilOutcome, finishRefund, fulfilLabel, refundAndCancel } from './fulfil-label';
import { MESSAGES } from './messages';
import type { Clock } from './ports';

export interface ReconcileDeps extends FulfilDeps {
  clock: Clock;
}

export interface ReconcileOptions {
  /** Rows untouched for this long are assumed abandoned by the request that created them. */
  staleAfterMs?: number;
  /** How long one run may hold a row before another run may take it. */
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
 * Settles labels left pending by a request that died between charging and
 * buying. A row whose refund had begun is refunded and cancelled. A row never
 * confirmed as charged is refunded (if payments holds a
 * charge for it) and cancelled; a charged row is bought again with the same
 * carrier key, and refunded if the carrier refuses. Running it twice, or on
 * two replicas at once, changes nothing more: rows are leased, and every step
 * is idempotent.
 */
export async function reconcilePendingLabels(
  deps: ReconcileDeps,
  opts: ReconcileOptions = {},
): Promise<ReconcileReport> {
  const now = deps.clock.now();
  const staleAfterMs = opts.staleAfterMs ?? 2 * 60_000;
  const giveUpAfterMs = opts.giveUpAfterMs ?? 24 * 60 * 60_000;
  const rows = await deps.labels.leaseStalePending(
    new Date(now.getTime() - staleAfterMs),
    new Date(now.getTime() + (opts.leaseMs ?? 5 * 60_000)),
    opts.batchSize ?? 50,
  );
  const report: ReconcileReport = { completed: 0, cancelled: 0, stillPending: 0 };
  for (const label of rows) {
    let outcome: FulfilOutcome;
    try {
      if (label.refundStartedAt) {
        // Cut off between its refund and its cancellation: it ends as its request meant it to.
        outcome = await finishRefund(deps, label);
      } else if (!label.chargedAt) {
        // Its buyer never heard how it ended, so the key may buy afresh.
        outcome = await refundAndCancel(deps, label, 'SERVICE_UNAVAILABLE', MESSAGES.abandoned, { retryable: true });
      } else {
        const keepRetryable = now.getTime() - label.createdAt.getTime() < giveUpAfterMs;
        outcome = await fulfilLabel(deps, label, { keepRetryable });
      }
    } catch (err) {
      deps.logger.error({ err, labelId: label.id }, 'could not reconcile label; will try again');
      report.stillPending++;
      continue;
    }
    if (outcome.kind === 'completed') report.completed++;
    else if (outcome.kind === 'cancelled') report.cancelled++;
    else report.stillPending++;
    deps.logger.info({ labelId: label.id, outcome: outcome.kind }, 'reconciled pending label');
  }
  return report;
}
