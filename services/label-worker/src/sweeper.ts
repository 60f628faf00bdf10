import { startPeriodicJob } from '@flatship/kit';
import { type BulkDeps, sweepStalledBulkOrders } from '@flatship/orders/worker';

/**
 * Every `intervalMs`, resumes bulk orders that made no progress for
 * `stallMs` (a crashed worker, a lost event, files never written). Runs never
 * overlap in a process; across replicas the order lease keeps them apart.
 */
export function startSweeper(
  deps: BulkDeps,
  opts: { stallMs: number; intervalMs: number; now?: () => Date },
): { stop(): Promise<void> } {
  return startPeriodicJob({
    intervalMs: opts.intervalMs,
    logger: deps.logger,
    failedMessage: 'sweeping stalled bulk orders failed',
    run: async () => {
      await sweepStalledBulkOrders({ ...deps, now: opts.now ?? (() => new Date()) }, { stallMs: opts.stallMs });
    },
  });
}
