import { type PeriodicJob, startPeriodicJob } from '@flatship/kit';
import type { DomainLogger } from '../domain/ports';
import type { ReconcileReport } from '../domain/reconcile-deposits';

export type DepositReconciler = PeriodicJob;

/**
 * Runs the reconciliation every `intervalMs`, one run at a time (a slow
 * provider never stacks runs up). Several replicas may run it at once: the
 * use case is idempotent, so that costs only extra reads.
 */
export function startDepositReconciler(opts: {
  intervalMs: number;
  run: () => Promise<ReconcileReport>;
  logger: DomainLogger;
}): DepositReconciler {
  return startPeriodicJob({
    intervalMs: opts.intervalMs,
    logger: opts.logger,
    failedMessage: 'deposit reconciliation failed',
    run: async () => {
      const report = await opts.run();
      const changed = report.checked - (report.outcomes.unchanged ?? 0);
      if (changed > 0 || report.failed > 0) opts.logger.info({ ...report }, 'deposits reconciled');
    },
  });
}
