import type { EventBus } from '@flatship/kit/bus';
import { TOPICS } from '@flatship/proto';
import { factOf } from '../domain/rankings/label-events';
import type { LabelFact, RankingsStore } from '../domain/rankings/ports';

export interface LabelEventFeed {
  subscribe(): Promise<{ close(): Promise<void> }>;
}

/**
 * Feeds `label.purchased` and `label.refunded` into the rankings read model, a partition's waiting events in
 * one transaction. One group shared by every replica: each event is recorded once (or again after a crash,
 * which the store takes as a no-op). Malformed events are skipped with a warning; redelivering them would never
 * make them valid.
 */
export function createRankingsLabelEventFeed(
  bus: Pick<EventBus, 'subscribe'>,
  store: Pick<RankingsStore, 'record'>,
  log: { warn(obj: object, msg?: string): void },
): LabelEventFeed {
  return {
    subscribe: () =>
      bus.subscribe({
        group: 'admin-rankings',
        topics: [TOPICS.labelPurchased, TOPICS.labelRefunded],
        fromBeginning: true,
        maxBatchSize: 500,
        batchHandler: async (messages) => {
          const facts: LabelFact[] = [];
          for (const msg of messages) {
            const fact = factOf(msg.topic, msg.value);
            if (fact) facts.push(fact);
            else log.warn({ topic: msg.topic, key: msg.key, offset: msg.offset }, 'ignoring malformed label event');
          }
          await store.record(facts);
        },
      }),
  };
}
