import type { Logger } from '../domain/ports';
import type { ReconcileReport } from '../domain/reconcile-deposits';

export interface DepositReconciler {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the reconciliation every `intervalMs`, one run at a time (a slow
 * provider never stacks runs up). Several replicas may run it at once: the
 * use case is idempotent, so that costs only extra reads.
 */
export function startDepositReconciler(opts: {
  intervalMs: number;
  run: () => Promise<ReconcileReport>;
  logger: Logger;
}): DepositReconciler {
  let current: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (current || stopped) return;
    current = opts
      .run()
      .then((report) => {
        const changed = report.checked - (report.outcomes.unchanged ?? 0);
        if (changed > 0 || report.failed > 0) opts.logger.info({ ...report }, 'deposits reconciled');
      })
      .catch((e: unknown) => opts.logger.error({ err: e }, 'deposit reconciliation failed'))
      .finally(() => {
        current = null;
      });
  };
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
