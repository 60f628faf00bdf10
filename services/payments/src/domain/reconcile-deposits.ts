import type { SyncDepositDeps, SyncOutcome } from './sync-deposit';
import { syncDeposit } from './sync-deposit';

/** Younger invoices are left to their webhooks, which normally arrive within seconds. */
export const RECONCILE_MIN_AGE_MS = 60_000;
/** Older ones have long expired at BTCPay (invoices live an hour); re-reading them forever helps nobody. */
export const RECONCILE_MAX_AGE_MS = 2 * 24 * 60 * 60 * 1000;
const BATCH = 200;

export interface ReconcileReport {
  checked: number;
  failed: number;
  outcomes: Partial<Record<SyncOutcome, number>>;
}

/**
 * Catches up on lost webhooks: re-reads every deposit still New or
 * Processing (between a minute and two days old) from the provider and
 * applies it exactly as a webhook would, so a paid invoice is credited even
 * when no delivery ever arrived. One invoice failing does not stop the rest.
 */
export async function reconcileDeposits(deps: SyncDepositDeps): Promise<ReconcileReport> {
  const now = deps.clock.now().getTime();
  const open = await deps.deposits.listOpen({
    createdAfter: new Date(now - RECONCILE_MAX_AGE_MS),
    createdBefore: new Date(now - RECONCILE_MIN_AGE_MS),
    limit: BATCH,
  });
  const report: ReconcileReport = { checked: 0, failed: 0, outcomes: {} };
  for (const deposit of open) {
    report.checked++;
    try {
      const outcome = await syncDeposit(deps, deposit.invoiceId);
      report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
    } catch (e) {
      report.failed++;
      deps.logger.warn({ err: e, invoiceId: deposit.invoiceId }, 'could not reconcile deposit');
    }
  }
  return report;
}
