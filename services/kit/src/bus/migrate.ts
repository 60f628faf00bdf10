import type { Knex } from 'knex';
import { ensureSchema } from '../db';
import { checkSchemaName } from './pg-support';

/**
 * Creates the bus schema. Idempotent, and serialised by an advisory lock
 * because concurrent `CREATE ... IF NOT EXISTS` can still collide on the
 * catalogue's unique indexes when several services start together.
 */
export async function migrateBus(db: Knex, schema = 'bus'): Promise<void> {
  const s = checkSchemaName(schema);
  await db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`flatship.bus.migrate:${s}`]);
    await ensureSchema(trx, s);
    await trx.raw(`
      create table if not exists "${s}".meta (
        key text primary key,
        value text not null
      )`);
    // Identifies this database to an outbox that wants to append to the log in its own transaction.
    await trx.raw(
      `insert into "${s}".meta (key, value) values ('instance', gen_random_uuid()::text) on conflict do nothing`,
    );
    await trx.raw(`
      create table if not exists "${s}".topics (
        topic text primary key,
        partitions integer not null check (partitions > 0),
        created_at timestamptz not null default now()
      )`);
    // One row per partition; the row lock taken by incrementing next_offset is what makes offsets commit in order.
    await trx.raw(`
      create table if not exists "${s}".partitions (
        topic text not null references "${s}".topics (topic),
        partition integer not null,
        next_offset bigint not null default 0,
        primary key (topic, partition)
      )`);
    await trx.raw(`
      create table if not exists "${s}".messages (
        topic text not null,
        partition integer not null,
        "offset" bigint not null,
        key text not null,
        value jsonb,
        headers jsonb not null default '{}',
        created_at timestamptz not null default now(),
        primary key (topic, partition, "offset")
      )`);
    await trx.raw(`
      create table if not exists "${s}".members (
        group_id text not null,
        member_id text not null,
        expires_at timestamptz not null,
        primary key (group_id, member_id)
      )`);
    await trx.raw(`
      create table if not exists "${s}".leases (
        group_id text not null,
        topic text not null,
        partition integer not null,
        member_id text not null,
        expires_at timestamptz not null,
        primary key (group_id, topic, partition)
      )`);
    await trx.raw(`create index if not exists leases_member on "${s}".leases (group_id, member_id)`);
    // next_offset is the first offset the group has not yet processed, as in Kafka.
    await trx.raw(`
      create table if not exists "${s}".offsets (
        group_id text not null,
        topic text not null,
        partition integer not null,
        next_offset bigint not null,
        updated_at timestamptz not null default now(),
        primary key (group_id, topic, partition)
      )`);
  });
}

/**
 * Creates `<schema>.outbox`. Call it from a service migration (it accepts the
 * migration's transaction) or at start-up; it is idempotent.
 */
export async function migrateOutbox(db: Knex, schema: string): Promise<void> {
  const s = checkSchemaName(schema);
  await db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`flatship.outbox.migrate:${s}`]);
    await ensureSchema(trx, s);
    await trx.raw(`
      create table if not exists "${s}".outbox (
        id bigserial primary key,
        topic text not null,
        key text not null,
        value jsonb,
        headers jsonb not null default '{}',
        created_at timestamptz not null default now()
      )`);
  });
}
