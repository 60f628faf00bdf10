import type { EventBus, Subscription } from '@flatship/kit/bus';
import { type BulkWorkerDeps, processBulkLabels } from '@flatship/orders/worker';
import { type LabelRequestedEvent, LabelRequestedEventSchema, TOPICS } from '@flatship/proto';
import { Value } from 'typebox/value';

/** One consumer group for every replica: each `label.requested` is handled by one of them. */
export const LABEL_WORKER_GROUP = 'label-worker';

/**
 * Consumes `label.requested` in batches: up to `batchSize` waiting messages of
 * a partition are bought together and settled in one transaction, up to
 * `concurrency` partitions at once. A batch that throws (payments down, the
 * database gone) comes again; the use case is idempotent per row.
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
    batchHandler: async (messages) => {
      const events: LabelRequestedEvent[] = [];
      for (const msg of messages) {
        if (Value.Check(LabelRequestedEventSchema, msg.value)) events.push(msg.value);
        // Redelivering a malformed event would never make it valid; skip it loudly.
        else deps.logger.error({ key: msg.key, offset: msg.offset }, 'ignoring malformed label.requested event');
      }
      await processBulkLabels(deps, events);
    },
  });
}
