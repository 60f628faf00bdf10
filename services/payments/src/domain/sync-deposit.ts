import type { Invoice } from '@flatship/proto';
import { DEPOSIT_CURRENCY } from './create-top-up';
import { parseDepositAmount } from './deposit-amount';
import { moveMoney } from './move-money';
import type {
  Clock,
  DepositRecord,
  DepositsRepo,
  DomainLogger,
  LedgerRepo,
  PaymentProvider,
  PublishDepositSettled,
  Transactor,
} from './ports';

export interface SyncDepositDeps {
  provider: PaymentProvider;
  deposits: DepositsRepo;
  ledger: LedgerRepo;
  transactor: Transactor;
  logger: DomainLogger;
  clock: Clock;
  /** Announces a credited deposit (`deposit.settled`) in the crediting transaction; the referral bonus follows it. */
  publishDepositSettled: PublishDepositSettled;
}

export type SyncOutcome =
  /** Settled now, and the amount credited to the ledger. */
  | 'credited'
  /** Settled now with nothing paid: no ledger entry. */
  | 'settled_empty'
  | 'already_settled'
  | 'status_changed'
  | 'unchanged'
  | 'unknown_invoice'
  | 'other_store'
  /** The provider's invoice does not match the deposit; nothing credited (logged as an error). */
  | 'refused';

/** The idempotency key of a deposit's credit: one per invoice, for good. */
export const depositKey = (invoiceId: string) => `deposit:${invoiceId}`;

/** Statuses BTCPay reports that are stored as they are; Settled has its own path, New changes nothing. */
const PLAIN_STATUSES = new Set(['Processing', 'Expired', 'Invalid']);

/**
 * Brings a deposit up to date with its invoice as the provider reports it
 * now. The provider's word is the only one trusted for money: whoever asks
 * (a webhook, the reconciler), the amount, currency, owner and status are
 * read back from BTCPay here. Safe to run any number of times, concurrently:
 * the deposit row is locked while settling and the credit carries the
 * invoice's idempotency key, so an invoice credits exactly once.
 */
export async function syncDeposit(deps: SyncDepositDeps, invoiceId: string): Promise<SyncOutcome> {
  const deposit = await deps.deposits.findByInvoiceId(invoiceId);
  if (!deposit) {
    deps.logger.warn({ invoiceId }, 'no deposit for this invoice; ignored');
    return 'unknown_invoice';
  }
  if (deposit.status === 'Settled') return 'already_settled';

  const invoice = await deps.provider.getInvoice(invoiceId);
  if (invoice.id !== invoiceId || invoice.storeId !== deps.provider.storeId) {
    deps.logger.error(
      { invoiceId, answeredId: invoice.id, storeId: invoice.storeId },
      'the provider answered with another invoice; deposit left as it is',
    );
    return 'refused';
  }
  if (invoice.status === 'Settled') return settle(deps, deposit, invoice);
  if (PLAIN_STATUSES.has(invoice.status)) return setDepositStatus(deps, invoiceId, invoice.status);
  if (invoice.status !== 'New') deps.logger.warn({ invoiceId, status: invoice.status }, 'unknown invoice status');
  return 'unchanged';
}

/** A status the provider reported; never moves a settled deposit. */
export async function setDepositStatus(
  deps: Pick<SyncDepositDeps, 'deposits' | 'logger'>,
  invoiceId: string,
  status: string,
): Promise<SyncOutcome> {
  const changed = await deps.deposits.setStatus(invoiceId, status);
  if (changed) deps.logger.info({ invoiceId, status }, 'deposit status changed');
  return changed ? 'status_changed' : 'unchanged';
}

async function settle(deps: SyncDepositDeps, deposit: DepositRecord, invoice: Invoice): Promise<SyncOutcome> {
  const invoiceId = invoice.id;
  const refuse = (reason: string, details: object = {}) => {
    deps.logger.error(
      { invoiceId, userId: deposit.userId, reason, ...details },
      'settled invoice refused: nothing credited',
    );
    return 'refused' as const;
  };
  if (invoice.currency !== DEPOSIT_CURRENCY) return refuse('currency', { currency: invoice.currency });
  if (invoice.metadata.userId !== deposit.userId) {
    return refuse('metadata.userId does not match the deposit', { metadataUserId: invoice.metadata.userId });
  }
  const amount = parseDepositAmount(invoice.amount);
  if (!amount.ok) return refuse('amount is not a usable decimal', { amount: invoice.amount });
  if (amount.truncated) {
    deps.logger.warn({ invoiceId, amount: invoice.amount, cents: amount.cents }, 'amount rounded down to the cent');
  }
  const cents = amount.cents;

  return deps.transactor.run(async (tx) => {
    // Concurrent deliveries queue here; the first settles, the rest find it settled.
    const locked = await deps.deposits.lockByInvoiceId(invoiceId, tx);
    if (!locked || locked.status === 'Settled') return 'already_settled' as const;
    if (cents > 0) {
      await moveMoney(
        deps,
        {
          userId: locked.userId,
          key: depositKey(invoiceId),
          isSameMovement: (e) => e.kind === 'deposit' && e.userId === locked.userId && e.amountCents === cents,
          plan: async (balance) => ({
            userId: locked.userId,
            kind: 'deposit',
            amountCents: cents,
            balanceAfterCents: balance + cents,
            key: depositKey(invoiceId),
            reference: invoiceId,
            memo: 'BTCPay top-up',
          }),
        },
        tx,
      );
    }
    const settledAt = deps.clock.now();
    await deps.deposits.settle(invoiceId, cents, settledAt, tx);
    if (cents > 0) {
      await deps.publishDepositSettled(tx, {
        userId: locked.userId,
        invoiceId,
        amountCents: cents,
        settledAt: settledAt.toISOString(),
      });
    }
    deps.logger.info({ invoiceId, userId: locked.userId, cents }, 'deposit settled');
    return cents > 0 ? ('credited' as const) : ('settled_empty' as const);
  });
}
