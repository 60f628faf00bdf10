import { startPeriodicJob } from '@flatship/kit';
import type { Clock, DomainLogger } from '../domain/ports';
import { type ReconcileOptions, reconcilePendingLabels } from '../domain/reconcile-pending-labels';
import type { DomainDeps } from '../routes/deps';

/**
 * Runs the pending-label reconciler at start and then every `intervalMs`.
 * Runs never overlap within a process; across replicas, purchase locks keep them off each other's rows.
 */
export function startReconciler(
  deps: DomainDeps & { clock: Clock; logger: DomainLogger },
  intervalMs: number,
  opts: ReconcileOptions = {},
): { stop(): Promise<void> } {
  return startPeriodicJob({
    intervalMs,
    runAtStart: true,
    logger: deps.logger,
    failedMessage: 'reconciling pending labels failed',
    run: async () => {
      const report = await reconcilePendingLabels(deps, opts);
      if (report.completed + report.cancelled + report.stillPending > 0) {
        deps.logger.info({ ...report }, 'pending labels reconciled');
      }
    },
  });
}
