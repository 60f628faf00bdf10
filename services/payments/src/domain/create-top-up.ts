import type { TopUpReply } from '@flatship/proto';
import type { DepositsRepo, DomainLogger, PaymentProvider } from './ports';
import { assertUserId } from './rules';

/** How long the payer has to pay an invoice before BTCPay expires it. */
export const TOP_UP_EXPIRATION_MINUTES = 60;
/** The only currency balances are kept in; a settled invoice in another one is never credited. */
export const DEPOSIT_CURRENCY = 'USD';

export interface CreateTopUpDeps {
  provider: PaymentProvider;
  deposits: DepositsRepo;
  logger: DomainLogger;
}

/**
 * Opens a top-up invoice (the payer chooses the amount) for the user and
 * records it as a deposit at once, so it shows in the history as soon as the
 * payment page opens and a settlement always finds its row. When the
 * provider fails nothing is recorded.
 */
export async function createTopUp(deps: CreateTopUpDeps, userId: string): Promise<TopUpReply> {
  assertUserId(userId);
  const invoice = await deps.provider.createInvoice({
    currency: DEPOSIT_CURRENCY,
    metadata: { userId },
    checkout: { expirationMinutes: TOP_UP_EXPIRATION_MINUTES },
  });
  await deps.deposits.insert({ userId, invoiceId: invoice.id, amountCents: 0, status: invoice.status });
  deps.logger.info({ userId, invoiceId: invoice.id }, 'top-up invoice created');
  return { id: invoice.id, checkoutLink: invoice.checkoutLink };
}
