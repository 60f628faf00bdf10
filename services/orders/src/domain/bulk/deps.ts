import type {
  CarrierPort,
  DomainLogger,
  FileStore,
  LedgerPort,
  PublishLabelPurchased,
  QuotePort,
  Transactor,
} from '../ports';
import type { PrintSettingsRepo } from '../print-settings';
import type { BulkOrderRecord, BulkRepo, EventRecorder, ProgressNotifier } from './ports';

/** What the bulk use cases of the orders service need. */
export interface BulkDeps {
  bulk: BulkRepo;
  transactor: Transactor;
  quotes: QuotePort;
  ledger: LedgerPort;
  files: FileStore;
  events: EventRecorder;
  logger: DomainLogger;
  /** The couriers labels may be bought from (the enabled carriers); the default courier when absent. */
  couriers?: readonly string[];
  /** Told once when an order reaches its final status, as it commits (the bulk order duration metric). */
  onOrderFinished?: (order: BulkOrderRecord) => void;
}

/** What the label worker needs on top: the carrier, and the live progress feed. */
export interface BulkWorkerDeps extends BulkDeps {
  carrier: CarrierPort;
  publishLabelPurchased: PublishLabelPurchased;
  progress: ProgressNotifier;
  /** Pauses between carrier attempts that failed in a way that may pass; [] means one attempt. */
  carrierRetryDelaysMs?: number[];
  /** The buyers' print settings: a ZPL printer's labels are bought with the carrier's ZPL too. */
  printSettings?: PrintSettingsRepo;
}

export const orderChargeKey = (orderId: string) => `bulk:${orderId}`;
export const retryChargeKey = (orderId: string, n: number) => `bulk-retry:${orderId}:${n}`;
export const rowRefundKey = (labelId: string, attempt: number) => `bulk-refund:${labelId}:${attempt}`;
export const abandonRefundKey = (orderId: string) => `bulk-abandon:${orderId}`;
/** The carrier key of a row's attempt: the label id for the first, so a redelivered purchase buys nothing new. */
export const carrierKeyOf = (labelId: string, attempt: number) => (attempt === 0 ? labelId : `${labelId}:${attempt}`);
