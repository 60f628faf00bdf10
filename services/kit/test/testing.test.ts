import pg from 'pg';
import { expect, test } from 'vitest';
import { createTestDatabase } from '../src/testing/database';

test('a test database is a real, empty PostgreSQL database', async () => {
  const db = await createTestDatabase();
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  const { rows } = await c.query(
    "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
  );
  await c.end();
  await db.drop();
  expect(rows[0].n).toBe(0);
});
