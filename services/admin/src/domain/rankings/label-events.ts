import { LabelPurchasedEventSchema, LabelRefundedEventSchema, TOPICS } from '@flatship/proto';
import { Value } from 'typebox/value';
import type { LabelFact } from './ports';

/** The rankings fact an event of `label.purchased` or `label.refunded` carries; undefined for anything malformed. */
export function factOf(topic: string, value: unknown): LabelFact | undefined {
  if (topic === TOPICS.labelPurchased && Value.Check(LabelPurchasedEventSchema, value)) {
    if (Number.isNaN(Date.parse(value.createdAt))) return undefined;
    return {
      kind: 'purchased',
      labelId: value.labelId,
      userId: value.userId,
      priceCents: value.priceCents,
      ...(value.carrierCostCents === undefined ? {} : { costCents: value.carrierCostCents }),
      at: value.createdAt,
    };
  }
  if (topic === TOPICS.labelRefunded && Value.Check(LabelRefundedEventSchema, value)) {
    if (Number.isNaN(Date.parse(value.refundedAt))) return undefined;
    return {
      kind: 'refunded',
      labelId: value.labelId,
      userId: value.userId,
      priceCents: value.priceCents,
      at: value.refundedAt,
    };
  }
  return undefined;
}
