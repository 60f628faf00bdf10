import type { Migration } from '@flatship/kit';

/**
 * What the carrier said of a saved address when it was saved (`address_check`, the AddressCheck as orders answered
 * it), and whether that was "deliverable as it is" (`verified`): a label from a verified address needs no new check.
 * Addresses saved before have neither.
 */
export const addAddressCheck: Migration = {
  name: '0008_address_check',
  async up(db) {
    await db.raw(`
      alter table addresses
        add column address_check jsonb,
        add column verified boolean not null default false,
        add column checked_at timestamptz`);
  },
};
