import { startPeriodicJob } from '@flatship/kit';
import { checkTracking, type TrackingDeps, type TrackingPolicy } from '../domain/tracking';

/**
 * The tracking job: every `intervalMs`, up to `batch` labels whose parcel is due a look are asked of their carrier
 * (so a replica makes at most `batch` tracking calls per interval), each label at most as often as `policy` allows.
 * Replicas share the work row by row.
 */
export function startTrackingChecker(
  deps: TrackingDeps,
  opts: { intervalMs: number; batch: number; policy: TrackingPolicy },
): { stop(): Promise<void> } {
  return startPeriodicJob({
    intervalMs: opts.intervalMs,
    runAtStart: true,
    logger: deps.logger,
    failedMessage: 'checking tracking failed',
    run: async () => {
      const round = await checkTracking(deps, opts.policy, opts.batch);
      if (round.checked > 0) deps.logger.info({ ...round }, 'tracking asked of the carriers');
    },
  });
}
