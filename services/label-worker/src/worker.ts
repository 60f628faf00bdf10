import { REQUEST_ID_HEADER, runWithRequestId } from '@flatship/kit';
import type { BusMessage, EventBus, Subscription } from '@flatship/kit/bus';
import { type BulkWorkerDeps, processBulkLabels } from '@flatship/orders/worker';
import { type LabelRequestedEvent, LabelRequestedEventSchema, TOPICS } from '@flatship/proto';

type WorkerLogger = BulkWorkerDeps['logger'];

/** `logger` with `bindings` on every line (pino's child logger when it is one). */
function withBindings(logger: WorkerLogger, bindings: Record<string, unknown>): WorkerLogger {
  const pinoLike = logger as WorkerLogger & { child?: (b: Record<string, unknown>) => WorkerLogger };
  if (typeof pinoLike.child === 'function') return pinoLike.child(bindings);
  return {
    info: (obj, msg) => logger.info({ ...bindings, ...obj }, msg),
    warn: (obj, msg) => logger.warn({ ...bindings, ...obj }, msg),
    error: (obj, msg) => logger.error({ ...bindings, ...obj }, msg),
  };
}

/**
 * The request ids of a batch's messages (the submit that queued them, set by
 * the gateway): `reqId` like the services' request log lines when they share
 * one, which is the usual case, `reqIds` when a batch mixes orders.
 */
function requestIdsOf(messages: BusMessage[]): string[] {
  return [...new Set(messages.map((m) => m.headers[REQUEST_ID_HEADER]).filter((id): id is string => !!id))];
}

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
      const requestIds = requestIdsOf(messages);
      const logger = withBindings(
        deps.logger,
        requestIds.length === 1 ? { reqId: requestIds[0] } : requestIds.length > 1 ? { reqIds: requestIds } : {},
      );
      // The subscription's schema has checked every value (a malformed one went to the dead-letter topic).
      const events = messages.map((m) => m.value as LabelRequestedEvent);
      const first = messages[0];
      const started = Date.now();
      // Under the submit's request id, the events this batch records and the calls it makes carry it on.
      await runWithRequestId(requestIds.length === 1 ? requestIds[0] : undefined, () =>
        processBulkLabels({ ...deps, logger }, events),
      );
      logger.info(
        {
          orderIds: [...new Set(events.map((e) => e.bulkOrderId))],
          labels: events.length,
          partition: first?.partition,
          offsets: first ? `${first.offset}-${messages[messages.length - 1]?.offset}` : undefined,
          ms: Date.now() - started,
        },
        'label batch settled',
      );
    },
  });
}
