import { fromTx } from '@flatship/kit';
import type { Outbox } from '@flatship/kit/bus';
import { TOPICS } from '@flatship/proto';
import type { PublishDepositSettled } from '../domain/ports';

/**
 * Records `deposit.settled` in the outbox inside the crediting transaction; the relay carries it to the bus after
 * commit, so the event exists exactly when the credit does. Keyed by user id, so one user's deposits stay in order.
 * Without an outbox (some tests) deposits are credited unannounced, and no referral bonus follows.
 */
export function createDepositSettledPublisher(outbox?: Outbox): PublishDepositSettled {
  return async (tx, event) => {
    if (!outbox) return;
    const trx = fromTx(tx);
    if (!trx) throw new Error('deposit.settled must be published inside a transaction');
    await outbox.add(trx, TOPICS.depositSettled, [{ key: event.userId, value: event }]);
  };
}
