import { type Static, Type } from 'typebox';
import { Format } from 'typebox/format';

/** The id of anything the services create (users, labels, bulk orders, services, addresses): a UUID. */
export const IdSchema = Type.String({ format: 'uuid' });
export type Id = Static<typeof IdSchema>;

/**
 * The check `IdSchema` makes, for ids that arrive past a route schema (tokens, events, other services'
 * calls, a repository's own guard): anything else names nothing, and must not reach a uuid column.
 */
export const isId = (value: string): boolean => Format.IsUuid(value);
