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
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = reconcilePendingLabels(deps, opts)
      .then((report) => {
        if (report.completed + report.cancelled + report.stillPending > 0) {
          deps.logger.info({ ...report }, 'pending labels reconciled');
        }
      })
      .catch((err: unknown) => deps.logger.error({ err }, 'reconciling pending labels failed'))
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
