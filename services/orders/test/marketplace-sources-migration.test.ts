import { randomUUID } from 'node:crypto';
import { createDb, type Knex, migrate } from '@flatship/kit';
import { createTestDatabase } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrations, ORDERS_SCHEMA } from '../src/db/migrations';

// A database made before marketplaces were plugins knew three sources by name; after 0018 it takes any
// marketplace id the registry adds, and still refuses what is no id.
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
beforeAll(async () => {
  tdb = await createTestDatabase('orders_marketplace_sources');
  db = createDb(tdb.url, ORDERS_SCHEMA, { max: 2 });
});
afterAll(async () => {
  await db?.destroy();
  await tdb?.drop();
});

const insert = (source: string) => db('bulk_orders').insert({ id: randomUUID(), user_id: randomUUID(), source });

test('a new marketplace id is refused before 0018 and taken after; what is no id is refused', async () => {
  const before = migrations.findIndex((m) => m.name === '0018_marketplace_sources');
  await migrate(db, ORDERS_SCHEMA, migrations.slice(0, before));
  await insert('amazon');
  await expect(insert('tiktok-shop')).rejects.toThrow(/bulk_orders_source_check/);

  expect(await migrate(db, ORDERS_SCHEMA, migrations.slice(0, before + 1))).toEqual(['0018_marketplace_sources']);
  await insert('tiktok-shop');
  await insert('shopify');
  for (const bad of ['', 'Shopify', 'ebay; drop table labels', '-ebay', 'x'.repeat(41)]) {
    await expect(insert(bad), bad).rejects.toThrow(/bulk_orders_source_check/);
  }
  expect(await db('bulk_orders').count<{ count: string }[]>('* as count')).toEqual([{ count: '3' }]);
});
