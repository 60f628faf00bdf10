import type { Knex } from '@flatship/kit';
import type { EventBus, Outbox } from '@flatship/kit/bus';
import {
  type BulkWorkerDeps,
  type CarrierPort,
  createBulkRepo,
  createEventRecorder,
  createLabelPurchasedPublisher,
  createTransactor,
  type FileStore,
  type LedgerPort,
  type QuotePort,
} from '@flatship/orders';
import { TOPICS } from '@flatship/proto';
import { createProgressThrottle, type ProgressThrottle } from './progress-throttle';

export interface WorkerPorts {
  db: Knex;
  bus: Pick<EventBus, 'publish'>;
  outbox: Outbox;
  ledger: LedgerPort;
  carrier: CarrierPort;
  files: FileStore;
  logger: BulkWorkerDeps['logger'];
  progressIntervalMs: number;
  carrierRetryDelaysMs?: number[];
}

const noQuotes: QuotePort = {
  quote() {
    throw new Error('the label worker never prices: rows carry the price they were charged');
  },
};

/** The orders domain wired for the worker: same schema, same outbox, its own carrier and progress feed. */
export function createWorkerDeps(p: WorkerPorts): BulkWorkerDeps & { progress: ProgressThrottle } {
  const progress = createProgressThrottle(
    (event) => p.bus.publish(TOPICS.bulkProgress, [{ key: event.orderId, value: event }]),
    p.progressIntervalMs,
    p.logger,
  );
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
    progress,
    carrierRetryDelaysMs: p.carrierRetryDelaysMs ?? [250, 1000],
  };
}
