import type { Knex } from '@flatship/kit';
import { TOPICS } from '@flatship/proto';
import type { PublishUserChanged } from '../domain/ports';
import { fromTx } from './transactor';

/**
 * Writes `user.changed` into this schema's outbox table inside the caller's
 * transaction; the relay carries it to the bus after commit, so an event
 * exists exactly when its change does.
 */
export function createOutboxUserChangedPublisher(): PublishUserChanged {
  return async (tx, event) => {
    const trx = fromTx(tx) as Knex.Transaction;
    await trx('outbox').insert({ topic: TOPICS.userChanged, key: event.id, value: JSON.stringify(event) });
  };
}
