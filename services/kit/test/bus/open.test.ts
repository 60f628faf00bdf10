import knex, { type Knex } from 'knex';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isPostgresBus, openBus } from '../../src/bus/index';
import { isKafkaBus } from '../../src/bus/kafka-bus';
import { ConfigError } from '../../src/config';
import { createTestDatabase } from '../../src/testing/database';
import { waitFor } from '../../src/testing/index';

const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };

describe('openBus', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Knex;

  beforeAll(async () => {
    database = await createTestDatabase('open_bus');
    db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 4 } });
  });

  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  test('without EVENT_BUS the bus is the postgres log in the service database, migrated on opening', async () => {
    const opened = await openBus({ config: { EVENT_BUS: 'postgres' }, db, logger: silent, name: 'orders' });
    try {
      expect(opened.kind).toBe('postgres');
      expect(opened.sharesDatabase).toBe(true);
      expect(isPostgresBus(opened.bus)).toBe(true);
      const got: unknown[] = [];
      await opened.bus.subscribe({ group: 'g', topics: ['opened'], handler: async (m) => void got.push(m.value) });
      await opened.bus.publish('opened', [{ key: 'k', value: { n: 1 } }]);
      await waitFor('the message', () => got.length === 1);
      expect(got).toEqual([{ n: 1 }]);

      const registry = new Registry();
      opened.registerMetrics(registry);
      await waitFor('the lag gauge', async () => (await registry.metrics()).includes('topic="opened"'));
      expect(await registry.metrics()).toMatch(
        /flatship_bus_consumer_lag\{group="g",topic="opened",partition="\d"\} 0/,
      );
    } finally {
      await opened.close();
    }
  });

  test('BUS_LEASE_TIMEOUT_MS sets how long a postgres bus member holds its partitions without renewing them', async () => {
    const opened = await openBus({
      config: { EVENT_BUS: 'postgres', BUS_LEASE_TIMEOUT_MS: 3000 },
      db,
      logger: silent,
      name: 'orders',
      postgres: { schema: 'bus_lease' },
    });
    try {
      const group = 'short-lease';
      await opened.bus.subscribe({ group, topics: ['leased'], handler: async () => {} });
      // The leases and the membership are renewed a third of it apart, so none ever runs longer than the timeout.
      const { rows } = await db.raw(
        `select max(extract(epoch from expires_at - now()) * 1000) as ms, count(*)::int as n
           from bus_lease.leases where group_id = ?`,
        [group],
      );
      expect(rows[0].n).toBe(4);
      expect(Number(rows[0].ms)).toBeGreaterThan(0);
      expect(Number(rows[0].ms)).toBeLessThanOrEqual(3000);
    } finally {
      await opened.close();
    }
  });

  test('EVENT_BUS=kafka without KAFKA_BROKERS stops the start with a message naming the variable', async () => {
    const opening = openBus({ config: { EVENT_BUS: 'kafka' }, logger: silent, name: 'orders' });
    await expect(opening).rejects.toThrow(ConfigError);
    await expect(opening).rejects.toThrow('KAFKA_BROKERS is required when EVENT_BUS=kafka');
  });

  test('EVENT_BUS=kafka opens the kafka adapter without a database, named after the service', async () => {
    const opened = await openBus({
      config: { EVENT_BUS: 'kafka', KAFKA_BROKERS: ' 127.0.0.1:1 , 127.0.0.1:2' },
      logger: silent,
      name: 'orders',
    });
    expect(opened.kind).toBe('kafka');
    expect(opened.sharesDatabase).toBe(false);
    expect(isKafkaBus(opened.bus)).toBe(true);
    await opened.close();
  });
});
