import { Gauge, type Registry } from 'prom-client';

export const CONSUMER_LAG_METRIC = 'flatship_bus_consumer_lag';

/**
 * `flatship_bus_consumer_lag{group,topic,partition}`: messages in a partition
 * past the group's committed offset, for the partitions this process owns.
 * One gauge per registry, shared by every subscription of the process.
 */
export function consumerLagGauge(registry: Registry | undefined): Gauge<'group' | 'topic' | 'partition'> | undefined {
  if (!registry) return undefined;
  const existing = registry.getSingleMetric(CONSUMER_LAG_METRIC);
  if (existing) return existing as Gauge<'group' | 'topic' | 'partition'>;
  return new Gauge({
    name: CONSUMER_LAG_METRIC,
    help: 'Messages published to a partition that the consumer group has not yet committed',
    labelNames: ['group', 'topic', 'partition'],
    registers: [registry],
  });
}
