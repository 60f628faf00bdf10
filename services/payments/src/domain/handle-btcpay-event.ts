import type { WebhookEvent } from '@flatship/proto';
import { type SyncDepositDeps, type SyncOutcome, setDepositStatus, syncDeposit } from './sync-deposit';

/** Events whose type alone says the new status; the signed delivery is trusted for that, never for money. */
const STATUS_OF_EVENT: Record<string, string> = {
  InvoiceReceivedPayment: 'Processing',
  InvoiceProcessing: 'Processing',
  InvoiceExpired: 'Expired',
  InvoiceInvalid: 'Invalid',
};

/**
 * Applies one verified BTCPay webhook delivery. Deliveries may repeat, race
 * and arrive out of order; a settlement is read back from the provider and
 * credited once, and a settled deposit never changes again.
 */
export async function handleBtcpayEvent(deps: SyncDepositDeps, event: WebhookEvent): Promise<SyncOutcome | 'ignored'> {
  const log = { invoiceId: event.invoiceId, type: event.type, deliveryId: event.deliveryId };
  if (event.storeId !== deps.provider.storeId) {
    deps.logger.warn({ ...log, storeId: event.storeId }, 'webhook for another store; ignored');
    return 'other_store';
  }
  if (event.type === 'InvoiceSettled') return syncDeposit(deps, event.invoiceId);

  const status = STATUS_OF_EVENT[event.type];
  if (!status) return 'ignored';
  const deposit = await deps.deposits.findByInvoiceId(event.invoiceId);
  if (!deposit) {
    deps.logger.warn(log, 'webhook for an invoice with no deposit; ignored');
    return 'unknown_invoice';
  }
  return setDepositStatus(deps, event.invoiceId, status);
}
