import { type BulkDeps, sweepStalledBulkOrders } from '@flatship/orders';

/**
 * Every `intervalMs`, resumes bulk orders that made no progress for
 * `stallMs` (a crashed worker, a lost event, files never written). Runs never
 * overlap in a process; across replicas the order lease keeps them apart.
 */
export function startSweeper(
  deps: BulkDeps,
  opts: { stallMs: number; intervalMs: number; now?: () => Date },
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = sweepStalledBulkOrders({ ...deps, now: opts.now ?? (() => new Date()) }, { stallMs: opts.stallMs })
      .then(() => undefined)
      .catch((err: unknown) => deps.logger.error({ err }, 'sweeping stalled bulk orders failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
