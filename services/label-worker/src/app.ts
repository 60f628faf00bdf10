import { observePurchases } from '@flatship/carriers';
import type { createLogger } from '@flatship/kit';
import {
  createServiceApp,
  currentRequestId,
  databaseReadiness,
  flatshipMetrics,
  type Knex,
  type ServiceApp,
} from '@flatship/kit';
import type { EventBus, Subscription } from '@flatship/kit/bus';
import type { BulkWorkerDeps } from '@flatship/orders/worker';
import type { ProgressThrottle } from './progress-throttle';
import { startSweeper } from './sweeper';
import { startLabelWorker } from './worker';

export interface LabelWorkerAppDeps {
  logger: ReturnType<typeof createLogger> | false;
  /** Connected to the orders schema; readiness checks it. */
  db: Knex;
  bus: Pick<EventBus, 'subscribe'>;
  /** The orders domain wired for the worker (`createWorkerDeps`). */
  worker: BulkWorkerDeps & { progress: ProgressThrottle };
  /** Partitions of label.requested worked on at once, and messages bought and settled together. */
  concurrency: number;
  batchSize: number;
  /** An order without progress for this long is resumed by the sweeper, which looks every `sweepIntervalMs`. */
  stallMs: number;
  sweepIntervalMs: number;
}

/**
 * The label worker as a service: health, readiness and metrics over HTTP like
 * every other, and, once ready, the consumer of label.requested and the sweeper
 * of stalled orders. Builds everything from `deps` and starts nothing until
 * the app is ready; closing it finishes the rows in hand and the last progress
 * before the partitions are given up.
 */
export async function buildWorkerApp(deps: LabelWorkerAppDeps): Promise<ServiceApp> {
  const app = createServiceApp({
    name: 'label-worker',
    logger: deps.logger,
    readiness: [databaseReadiness(deps.db)],
  });
  const metrics = flatshipMetrics(app.metrics);
  // Every purchase timed and counted, and every order's duration observed as it completes.
  const worker: LabelWorkerAppDeps['worker'] = {
    ...deps.worker,
    carrier: observePurchases(deps.worker.carrier, (o) => metrics.carrierPurchase('bulk', o)),
    onOrderFinished: (order) => {
      metrics.bulkOrderFinished(order);
      // Called inside the batch that settled the last row, so under the request id of the submit.
      const reqId = currentRequestId();
      app.log.info({ ...(reqId ? { reqId } : {}), orderId: order.id, status: order.status }, 'bulk order finished');
    },
  };
  let subscription: Subscription | undefined;
  let sweeper: { stop(): Promise<void> } | undefined;
  app.addHook('onReady', async () => {
    subscription = await startLabelWorker(deps.bus, worker, {
      concurrency: deps.concurrency,
      batchSize: deps.batchSize,
    });
    sweeper = startSweeper(worker, { stallMs: deps.stallMs, intervalMs: deps.sweepIntervalMs });
  });
  app.addHook('onClose', async () => {
    await sweeper?.stop();
    // Rows in hand are finished and committed before the partitions are given up.
    await subscription?.close();
    await worker.progress.flush();
  });
  return app;
}
