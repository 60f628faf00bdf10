import { type EventBus, type Knex, type Outbox, requestIdHeaders } from '@flatship/kit';
import {
  type BulkWorkerDeps,
  type CarrierPort,
  createBulkWorkerDeps,
  type FileStore,
  type LedgerPort,
} from '@flatship/orders/worker';
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

/** The orders domain wired for the worker (through orders' worker entry), with live progress throttled onto the bus. */
export function createWorkerDeps(p: WorkerPorts): BulkWorkerDeps & { progress: ProgressThrottle } {
  const progress = createProgressThrottle(
    // Sent from a timer started inside the batch, so still under the submit's request id.
    (event) => p.bus.publish(TOPICS.bulkProgress, [{ key: event.orderId, value: event, headers: requestIdHeaders() }]),
    p.progressIntervalMs,
    p.logger,
  );
  return { ...createBulkWorkerDeps({ ...p, progress }), progress };
}
