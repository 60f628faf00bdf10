import { afterAll, expect, test } from 'vitest';
import { createDb, migrate } from '../src/db';
import { createTestDatabase } from '../src/testing/database';

const tdb = await createTestDatabase();
const db = createDb(tdb.url, 'demo');
afterAll(async () => {
  await db.destroy();
  await tdb.drop();
});

const migrations = [
  { name: '0001_things', up: (k: typeof db) => k.schema.createTable('things', (t) => t.increments('id')) },
  { name: '0002_more', up: (k: typeof db) => k.schema.alterTable('things', (t) => t.text('label')) },
];

test('migrations create the schema, run once each, and concurrent starts do not race', async () => {
  const results = await Promise.all([migrate(db, 'demo', migrations), migrate(db, 'demo', migrations)]);
  expect(results.flat().sort()).toEqual(['0001_things', '0002_more']);
  await db('things').insert({ label: 'x' });
  expect(await db('things').select('label')).toEqual([{ label: 'x' }]);
  expect(await migrate(db, 'demo', migrations)).toEqual([]);
});
