import type { EventBus, Subscription } from '@flatship/kit/bus';
import { type BulkWorkerDeps, processBulkLabels } from '@flatship/orders/worker';
import { type LabelRequestedEvent, LabelRequestedEventSchema, TOPICS } from '@flatship/proto';

/** One consumer group for every replica: each `label.requested` is handled by one of them. */
export const LABEL_WORKER_GROUP = 'label-worker';

/**
 * Consumes `label.requested` in batches: up to `batchSize` waiting messages of
 * a partition are bought together and settled in one transaction, up to
 * `concurrency` partitions at once. A batch that throws (payments down, the
 * database gone) comes again, for as long as it takes: the use case records a
 * row's own failure on the row, so it throws only when something it needs is
 * away, and it is idempotent per row. An event that fails the schema goes to
 * `label.requested.dlq`, since redelivering it would never make it valid.
 */
export function startLabelWorker(
  bus: Pick<EventBus, 'subscribe'>,
  deps: BulkWorkerDeps,
  opts: { concurrency: number; batchSize: number },
): Promise<Subscription> {
  return bus.subscribe({
    group: LABEL_WORKER_GROUP,
    topics: [TOPICS.labelRequested],
    concurrency: opts.concurrency,
    maxBatchSize: opts.batchSize,
    schema: LabelRequestedEventSchema,
    maxAttempts: Number.POSITIVE_INFINITY,
    batchHandler: async (messages) => {
      await processBulkLabels(
        deps,
        messages.map((m) => m.value as LabelRequestedEvent),
      );
    },
  });
}
