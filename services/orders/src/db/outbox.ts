import { fromTx } from '@flatship/kit';
import type { Outbox } from '@flatship/kit/bus';
import { type LabelPurchasedEvent, TOPICS } from '@flatship/proto';
import type { PublishLabelRefunded } from '../domain/admin-orders';
import type { EventRecorder } from '../domain/bulk/ports';
import type { PublishLabelPurchased, Tx } from '../domain/ports';

/**
 * Records `label.purchased` in the outbox inside the completing transaction,
 * so the event exists exactly when the completed label does. Keyed by user id
 * so one user's purchases stay in order.
 */
export function createLabelPurchasedPublisher(outbox: Outbox): PublishLabelPurchased {
  return async (tx, labels) => {
    const trx = fromTx(tx);
    if (!trx) throw new Error('label.purchased must be published inside a transaction');
    if (labels.length === 0) return;
    await outbox.add(
      trx,
      TOPICS.labelPurchased,
      labels.map((label) => {
        const event: LabelPurchasedEvent = {
          userId: label.userId,
          labelId: label.id,
          ...(label.bulkOrderId ? { bulkOrderId: label.bulkOrderId } : {}),
          serviceUid: label.serviceUid,
          serviceName: label.serviceName,
          priceCents: label.priceCents,
          createdAt: label.createdAt.toISOString(),
          ...(label.purchase?.carrierId ? { carrierId: label.purchase.carrierId } : {}),
          ...(label.purchase?.costCents != null ? { carrierCostCents: label.purchase.costCents } : {}),
        };
        return { key: label.userId, value: event };
      }),
    );
  };
}

/** `label.requested` (keyed by label id) and `bulk.progress` (keyed by order id) in the caller's transaction. */
export function createEventRecorder(outbox: Outbox): EventRecorder {
  const trxOf = (tx: Tx) => {
    const trx = fromTx(tx);
    if (!trx) throw new Error('events must be recorded inside a transaction');
    return trx;
  };
  return {
    async labelRequested(tx, events) {
      for (let i = 0; i < events.length; i += 1000) {
        await outbox.add(
          trxOf(tx),
          TOPICS.labelRequested,
          events.slice(i, i + 1000).map((e) => ({ key: e.labelId, value: e })),
        );
      }
    },
    async progress(tx, event) {
      await outbox.add(trxOf(tx), TOPICS.bulkProgress, [{ key: event.orderId, value: event }]);
    },
  };
}

/** Records `label.refunded` (keyed by user id) in the caller's transaction: a bought label given back. */
export function createLabelRefundedPublisher(outbox: Outbox): PublishLabelRefunded {
  return async (tx, event) => {
    const trx = fromTx(tx);
    if (!trx) throw new Error('label.refunded must be published inside a transaction');
    await outbox.add(trx, TOPICS.labelRefunded, [{ key: event.userId, value: event }]);
  };
}
