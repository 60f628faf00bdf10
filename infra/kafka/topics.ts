import { TOPICS, type Topic } from '@flatship/proto';

/** One Kafka topic as the cluster must have it. */
export interface TopicDeclaration {
  name: string;
  partitions: number;
  /** How long messages are kept (`retention.ms`). */
  retentionMs: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Dead letters are kept long enough for someone to look at them after a long weekend. */
export const DEAD_LETTER_RETENTION_MS = 14 * DAY;
export const DEAD_LETTER_PARTITIONS = 1;

/**
 * Every topic of the bus, declared once. A partition count is fixed once the
 * topic exists: raising it would move keys to other partitions and break the
 * order per key, so it is changed only with the topic emptied. label.requested
 * caps how many label workers (times their LABEL_WORKER_CONCURRENCY) buy at once.
 */
export const TOPIC_DECLARATIONS: Record<Topic, Omit<TopicDeclaration, 'name'>> = {
  // Work for the label workers; an order's rows wait here while the workers are busy or away.
  [TOPICS.labelRequested]: { partitions: 8, retentionMs: 7 * DAY },
  // Progress only matters while someone watches the order; a client that joins is sent the current state.
  [TOPICS.bulkProgress]: { partitions: 4, retentionMs: 1 * HOUR },
  // Read models (admin rankings, users) can be rebuilt from these.
  [TOPICS.labelPurchased]: { partitions: 4, retentionMs: 30 * DAY },
  [TOPICS.labelRefunded]: { partitions: 4, retentionMs: 30 * DAY },
  [TOPICS.userChanged]: { partitions: 4, retentionMs: 30 * DAY },
  [TOPICS.accountChanged]: { partitions: 4, retentionMs: 30 * DAY },
  [TOPICS.impersonationAction]: { partitions: 4, retentionMs: 30 * DAY },
  // Payments' referral bonus consumer acts on these; kept long enough to outlast any outage of it.
  [TOPICS.depositSettled]: { partitions: 4, retentionMs: 30 * DAY },
};

/** The dead-letter topic of a topic (as the bus names it). */
export const deadLetterTopicOf = (topic: string): string => `${topic}.dlq`;

/**
 * Every topic the cluster needs: each declared topic and its dead-letter
 * topic. `labelRequestedPartitions` overrides the label.requested count (the
 * LABEL_REQUESTED_PARTITIONS setting orders and the workers share).
 */
export function declaredTopics(opts: { labelRequestedPartitions?: number } = {}): TopicDeclaration[] {
  const out: TopicDeclaration[] = [];
  for (const [name, declared] of Object.entries(TOPIC_DECLARATIONS)) {
    const partitions =
      name === TOPICS.labelRequested && opts.labelRequestedPartitions
        ? opts.labelRequestedPartitions
        : declared.partitions;
    out.push({ name, partitions, retentionMs: declared.retentionMs });
    out.push({
      name: deadLetterTopicOf(name),
      partitions: DEAD_LETTER_PARTITIONS,
      retentionMs: DEAD_LETTER_RETENTION_MS,
    });
  }
  return out;
}
