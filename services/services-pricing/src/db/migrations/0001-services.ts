import type { Migration } from '@flatship/kit';

// Price lists are stored whole, as jsonb arrays of {fromWeight, toWeight, priceCents} (integer pounds and
// cents): a list is only ever read and replaced as one value, and validated as one by the domain before
// every write. The checks below are a last line of defence, not the rules.
const PRICES_CHECK = `check (jsonb_typeof(prices) = 'array' and jsonb_array_length(prices) > 0)`;

export const createServices: Migration = {
  name: '0001_services',
  async up(db) {
    await db.raw(`
      create table raw_services (
        id uuid primary key default gen_random_uuid(),
        uid text not null constraint raw_services_uid_key unique,
        name text not null,
        category text not null,
        carrier text not null,
        max_weight integer not null constraint raw_services_max_weight_check check (max_weight >= 1),
        status text not null constraint raw_services_status_check check (status in ('active', 'inactive')),
        -- Where the carrier lists it: every service list is shown in the carrier's order.
        position integer not null default 0,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    await db.raw(`
      create table default_services (
        id uuid primary key default gen_random_uuid(),
        uid text not null constraint default_services_uid_key unique references raw_services (uid),
        name text not null constraint default_services_name_check check (btrim(name) <> ''),
        category text not null,
        max_weight integer not null constraint default_services_max_weight_check check (max_weight >= 1),
        enabled boolean not null default true,
        prices jsonb not null constraint default_services_prices_check ${PRICES_CHECK},
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    await db.raw(`
      create table user_services (
        id uuid primary key default gen_random_uuid(),
        user_id text not null,
        uid text not null references raw_services (uid),
        name text not null constraint user_services_name_check check (btrim(name) <> ''),
        category text not null,
        max_weight integer not null constraint user_services_max_weight_check check (max_weight >= 1),
        enabled boolean not null default true,
        prices jsonb not null constraint user_services_prices_check ${PRICES_CHECK},
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint user_services_user_uid_key unique (user_id, uid)
      )`);
    await db.raw('create index user_services_uid_idx on user_services (uid)');
  },
};
