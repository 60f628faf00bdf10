import { randomUUID } from 'node:crypto';
import { createDb, type Knex, migrate } from '@flatship/kit';
import { createTestDatabase } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrations, ORDERS_SCHEMA } from '../src/db/migrations';

// Orders a refund left behind before refunded rows were counted: the migration that adds the count recounts them
// from their rows, so that the sweeper can then finish them.
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
beforeAll(async () => {
  tdb = await createTestDatabase('orders_refunded_count');
  db = createDb(tdb.url, ORDERS_SCHEMA, { max: 2 });
});
afterAll(async () => {
  await db?.destroy();
  await tdb?.drop();
});

async function order(counts: { total: number; processed: number; failed: number }, status: string): Promise<string> {
  const id = randomUUID();
  await db('bulk_orders').insert({
    id,
    user_id: randomUUID(),
    status,
    total_count: counts.total,
    processed_count: counts.processed,
    failed_count: counts.failed,
    submitted_at: new Date(),
  });
  return id;
}

async function row(orderId: string, rowIndex: number, status: 'completed' | 'cancelled' | 'void') {
  const bought = status !== 'cancelled';
  await db('labels').insert({
    id: randomUUID(),
    user_id: randomUUID(),
    bulk_order_id: orderId,
    row_index: rowIndex,
    status,
    courier: 'usps',
    service_uid: 'usps_priority_mail',
    service_name: 'USPS Priority Mail',
    sender: {},
    receiver: {},
    package: {},
    price_cents: 895,
    charge_key: `bulk:${orderId}`,
    tracking_number: bought ? `9400${rowIndex}` : null,
    pdf_name: bought ? `${randomUUID()}.pdf` : null,
    refunded: status !== 'completed',
    ...(status === 'void' ? { voided_at: new Date(), voided_by: randomUUID() } : {}),
  });
}

test('recounts the orders holding refunded rows and leaves the others as they were', async () => {
  const before = migrations.findIndex((m) => m.name === '0009_bulk_refunded_count');
  await migrate(db, ORDERS_SCHEMA, migrations.slice(0, before));

  // Finished, then a row refunded: the refund never recounted it, so it still counts two bought.
  const finished = await order({ total: 2, processed: 2, failed: 0 }, 'completed');
  await row(finished, 0, 'void');
  await row(finished, 1, 'completed');
  // Refunded, then a retry of the failed row that failed again: stuck short of its total.
  const stuck = await order({ total: 2, processed: 0, failed: 1 }, 'retrying_failed');
  await row(stuck, 0, 'void');
  await row(stuck, 1, 'cancelled');
  // No refund: left alone, even with counts a sweep has yet to correct.
  const untouched = await order({ total: 3, processed: 1, failed: 0 }, 'processing');
  await row(untouched, 0, 'completed');
  await row(untouched, 1, 'completed');

  expect(await migrate(db, ORDERS_SCHEMA, migrations.slice(0, before + 1))).toEqual(['0009_bulk_refunded_count']);
  const counts = async (id: string) =>
    db('bulk_orders').where({ id }).first('status', 'processed_count', 'failed_count', 'refunded_count');
  expect(await counts(finished)).toEqual({
    status: 'completed',
    processed_count: 1,
    failed_count: 0,
    refunded_count: 1,
  });
  expect(await counts(stuck)).toEqual({
    status: 'retrying_failed',
    processed_count: 0,
    failed_count: 1,
    refunded_count: 1,
  });
  expect(await counts(untouched)).toEqual({
    status: 'processing',
    processed_count: 1,
    failed_count: 0,
    refunded_count: 0,
  });
});
