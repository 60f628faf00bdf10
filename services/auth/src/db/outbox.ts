import { fromTx } from '@flatship/kit';
import type { Outbox } from '@flatship/kit/bus';
import { TOPICS } from '@flatship/proto';
import type { PublishUserChanged } from '../domain/ports';

/**
 * Records `user.changed` in the outbox inside the caller's transaction; the
 * relay carries it to the bus after commit, so an event exists exactly when
 * its change does. Keyed by user id so one user's changes stay in order.
 */
export function createUserChangedPublisher(outbox: Outbox): PublishUserChanged {
  return async (tx, event) => {
    const trx = fromTx(tx);
    if (!trx) throw new Error('user.changed must be published inside a transaction');
    await outbox.add(trx, TOPICS.userChanged, [{ key: event.id, value: event }]);
  };
}
