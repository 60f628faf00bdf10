import type { Migration } from '@flatship/kit';

export const createAddresses: Migration = {
  name: '0003_addresses',
  async up(db) {
    // No '?' in this SQL: knex.raw reads it as a parameter placeholder.
    await db.raw(`
      create table addresses (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references users (id) on delete cascade,
        address_id text not null constraint addresses_address_id_check check (address_id <> ''),
        name text not null,
        company text not null default '',
        phone text not null default '',
        street text not null,
        street2 text not null default '',
        city text not null,
        state text not null constraint addresses_state_check check (state ~ '^[A-Z]{2}$'),
        zip text not null constraint addresses_zip_check check (zip ~ '^[0-9]{5}(-[0-9]{4}){0,1}$'),
        country text not null constraint addresses_country_check check (country = 'US'),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    // People type their labels in any case, so "Warehouse" and "warehouse" would be one address to them. lower()
    // here matches JavaScript's toLowerCase() for the labels that matter (ASCII); the index, not a prior read,
    // settles two saves racing for one label.
    await db.raw('create unique index addresses_user_address_id_key on addresses (user_id, lower(address_id))');
    await db.raw('create index addresses_user_created_idx on addresses (user_id, created_at, id)');
  },
};
