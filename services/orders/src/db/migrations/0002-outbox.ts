import type { Migration } from '@flatship/kit';
import { migrateOutbox } from '@flatship/kit/bus';
import { ORDERS_SCHEMA } from './schema';

/** Events written in the same transaction as the change they announce, relayed to the bus after commit. */
export const createOutbox: Migration = {
  name: '0002_outbox',
  up: (db) => migrateOutbox(db, ORDERS_SCHEMA),
};
