import type { Outbox } from '@flatship/kit/bus';
import { type LabelPurchasedEvent, TOPICS } from '@flatship/proto';
import type { PublishLabelPurchased } from '../domain/ports';
import { fromTx } from './transactor';

/**
 * Records `label.purchased` in the outbox inside the completing transaction,
 * so the event exists exactly when the completed label does. Keyed by user id
 * so one user's purchases stay in order.
 */
export function createLabelPurchasedPublisher(outbox: Outbox): PublishLabelPurchased {
  return async (tx, label) => {
    const trx = fromTx(tx);
    if (!trx) throw new Error('label.purchased must be published inside a transaction');
    const event: LabelPurchasedEvent = {
      userId: label.userId,
      labelId: label.id,
      ...(label.bulkOrderId ? { bulkOrderId: label.bulkOrderId } : {}),
      serviceUid: label.serviceUid,
      serviceName: label.serviceName,
      priceCents: label.priceCents,
      createdAt: label.createdAt.toISOString(),
    };
    await outbox.add(trx, TOPICS.labelPurchased, [{ key: label.userId, value: event }]);
  };
}
