import pg from 'pg';
import { expect, test } from 'vitest';
import { createTestDatabase } from '../src/testing/database';
import { startRestartablePostgres } from '../src/testing/embedded-pg';

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

test('a restartable PostgreSQL refuses connections once killed, and comes back on the same port with every committed row', async () => {
  const server = await startRestartablePostgres();
  try {
    const db = await createTestDatabase('restart', server.adminUrl);
    const run = async (sql: string) => {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        return (await c.query(sql)).rows;
      } finally {
        await c.end();
      }
    };
    await run('create table t (n int); insert into t values (1), (2)');
    await server.kill();
    await expect(run('select 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await server.start();
    expect(await run('select n from t order by n')).toEqual([{ n: 1 }, { n: 2 }]);
  } finally {
    await server.stop();
  }
}, 30_000);
