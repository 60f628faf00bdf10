/**
 * The one entry the label worker uses into the orders context.
 *
 * The label worker is a separately scaled process of orders (DESIGN.md §6): it
 * buys the labels a bulk order queued and writes the order's files, on the
 * orders schema, through the orders domain. Everything it needs of orders is
 * here, so it never reaches into orders' repositories, migrations or outbox
 * wiring, and what the two share can change in one package.
 */
import { createTransactor, type Knex, migrate, type Outbox } from '@flatship/kit';
import { createBulkRepo } from './db/bulk-repo';
import { migrations, ORDERS_SCHEMA } from './db/migrations';
import { createEventRecorder, createLabelPurchasedPublisher } from './db/outbox';
import { createPrintSettingsRepo } from './db/print-settings-repo';
import type { BulkWorkerDeps } from './domain/bulk/deps';
import type { CarrierPort, FileStore, LedgerPort, QuotePort } from './domain/ports';

export { createLocalFileStore } from './adapters/local-file-store';
export { createPaymentsLedger } from './adapters/payments-ledger';
export { createCarrierMemory } from './db/carrier-memory';
export { createCarrierRateSlots } from './db/carrier-rate-slots';
export { createCarrierRouteStore } from './db/carrier-routes';
export { progressOf } from './domain/bulk/bulk-view';
export type { BulkDeps, BulkWorkerDeps } from './domain/bulk/deps';
export type { BulkOrderRecord, ProgressNotifier } from './domain/bulk/ports';
export { processBulkLabels } from './domain/bulk/process-bulk-label';
export { resumeBulkOrder, sweepStalledBulkOrders } from './domain/bulk/resume-bulk-order';
export type { CarrierPort, FileStore, LedgerPort } from './domain/ports';
export { ORDERS_SCHEMA };

/** Brings the orders schema up to date; whichever of orders and the worker starts first applies the migrations. */
export async function prepareOrdersDatabase(db: Knex): Promise<string[]> {
  return migrate(db, ORDERS_SCHEMA, migrations);
}

export interface BulkWorkerPorts {
  /** Connected to the orders schema. */
  db: Knex;
  /** The orders outbox, relayed by the worker too. */
  outbox: Outbox;
  ledger: LedgerPort;
  carrier: CarrierPort;
  files: FileStore;
  logger: BulkWorkerDeps['logger'];
  progress: BulkWorkerDeps['progress'];
  /** Pauses between carrier attempts that failed in a way that may pass (default 250 ms, then 1 s). */
  carrierRetryDelaysMs?: number[];
}

const noQuotes: QuotePort = {
  quote() {
    throw new Error('the label worker never prices: rows carry the price they were charged');
  },
};

/** The orders domain wired for buying queued bulk labels and writing their files. */
export function createBulkWorkerDeps(p: BulkWorkerPorts): BulkWorkerDeps {
  return {
    bulk: createBulkRepo(p.db),
    transactor: createTransactor(p.db),
    quotes: noQuotes,
    ledger: p.ledger,
    files: p.files,
    events: createEventRecorder(p.outbox),
    logger: p.logger,
    carrier: p.carrier,
    publishLabelPurchased: createLabelPurchasedPublisher(p.outbox),
    progress: p.progress,
    carrierRetryDelaysMs: p.carrierRetryDelaysMs ?? [250, 1000],
    printSettings: createPrintSettingsRepo(p.db),
  };
}
