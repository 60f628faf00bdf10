import { startPeriodicJob } from '@flatship/kit';
import { checkRefunds, type RefundDeps } from '../domain/refunds';

/**
 * The refund status job: every `intervalMs`, refunds still waiting for their carrier are sent again or asked about,
 * each at most once per `recheckMs`, and credited when the carrier confirms. Replicas share the work row by row.
 */
export function startRefundChecker(
  deps: RefundDeps,
  opts: { intervalMs: number; recheckMs: number },
): { stop(): Promise<void> } {
  return startPeriodicJob({
    intervalMs: opts.intervalMs,
    runAtStart: true,
    logger: deps.logger,
    failedMessage: 'checking refunds failed',
    run: async () => {
      const report = await checkRefunds(deps, { recheckMs: opts.recheckMs });
      if (report.checked > 0) deps.logger.info({ ...report }, 'refunds checked with their carriers');
    },
  });
}
