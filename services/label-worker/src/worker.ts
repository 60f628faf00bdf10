import type { EventBus, Subscription } from '@flatship/kit/bus';
import { type BulkWorkerDeps, processBulkLabel } from '@flatship/orders';
import { LabelRequestedEventSchema, TOPICS } from '@flatship/proto';
import { Value } from 'typebox/value';

/** One consumer group for every replica: each `label.requested` is handled by one of them. */
export const LABEL_WORKER_GROUP = 'label-worker';

/**
 * Consumes `label.requested`: one message at a time per partition, up to
 * `concurrency` partitions at once. A handler that throws (payments down, the
 * database gone) sees the same message again; the use case is idempotent.
 */
export function startLabelWorker(
  bus: Pick<EventBus, 'subscribe'>,
  deps: BulkWorkerDeps,
  opts: { concurrency: number },
): Promise<Subscription> {
  return bus.subscribe({
    group: LABEL_WORKER_GROUP,
    topics: [TOPICS.labelRequested],
    concurrency: opts.concurrency,
    handler: async (msg) => {
      if (!Value.Check(LabelRequestedEventSchema, msg.value)) {
        // Redelivering a malformed event would never make it valid; skip it loudly.
        deps.logger.error({ key: msg.key, offset: msg.offset }, 'ignoring malformed label.requested event');
        return;
      }
      await processBulkLabel(deps, msg.value);
    },
  });
}
