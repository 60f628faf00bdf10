import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { amazonRows } from '../bench/bulk/rows';
import { REPO_ROOT } from '../src/paths';
import type { Secrets } from '../src/state';
import {
  type ApiCall,
  createStackApi,
  logTails,
  type RunningStack,
  registerFundedCustomer,
  startStack,
} from '../src/testing/start-stack';
import { eventually, readRunFile } from './helpers';

// PostgreSQL killed outright in the middle of a bulk order: the launcher
// restarts it, every service reconnects by itself, and the order finishes with
// every label bought once and the ledger exact. Nobody restarts anything by hand.

const ROWS = 150;
const buildWeb = existsSync(join(REPO_ROOT, 'web', 'dist', 'index.html')) ? 'never' : 'auto';

describe('a PostgreSQL crash in the middle of a bulk order', () => {
  let stack: RunningStack;

  beforeAll(async () => {
    // Slow the sandbox carrier a little so the crash lands while labels are being bought.
    stack = await startStack({ env: { BUILD_WEB: buildWeb, CARRIER_LATENCY_MS: '20' } });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  const api = <T>(path: string, init?: ApiCall) => createStackApi(stack.url)<T>(path, init);

  /** A query on the stack's own database, with a fresh connection (the server may have just come back). */
  async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    const secrets = JSON.parse(await readFile(join(stack.dataDir, 'secrets.json'), 'utf8')) as Secrets;
    const run = await readRunFile(stack.dataDir);
    const client = new pg.Client({
      connectionString: `postgres://postgres:${encodeURIComponent(secrets.pgPassword)}@127.0.0.1:${run.postgres.port}/flatship`,
      connectionTimeoutMillis: 2000,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end().catch(() => {});
    }
  }

  test('the order finishes, no label is bought twice, and the ledger is exact', async () => {
    const funded = 5000;
    const { id: userId, token } = await registerFundedCustomer(
      createStackApi(stack.url),
      { email: stack.adminEmail, password: stack.adminPassword },
      { email: `crash-${Date.now()}@example.com`, password: 'steady-parcels-7', balance: funded },
    );

    const { data } = await api<{ data: { orderId: string } }>('/api/orders/bulk/init', {
      method: 'POST',
      token,
      body: { userId: userId },
    });
    const { orderId } = data;
    await api(`/api/orders/bulk/process/${userId}`, {
      method: 'POST',
      token,
      body: { orderId, orderData: amazonRows(ROWS, 7), source: 'amazon', fileName: 'amazon-orders.txt' },
    });

    // Mid-order: some labels bought, not all.
    const processedAtCrash = await eventually(
      async () => {
        const [row] = await query<{ processed_count: number }>(
          'select processed_count from orders.bulk_orders where id = $1',
          [orderId],
        );
        return row && row.processed_count > 0 ? row.processed_count : undefined;
      },
      30_000,
      'the first labels of the order',
    );
    expect(processedAtCrash).toBeLessThan(ROWS);
    const before = await readRunFile(stack.dataDir);
    process.kill(before.postgres.pid, 'SIGKILL');

    try {
      await stack.launcher.waitFor(/postgres restarted/, 30_000);
      await eventually(
        async () => {
          const [row] = await query<{ status: string }>('select status from orders.bulk_orders where id = $1', [
            orderId,
          ]).catch(() => []);
          return row && ['completed', 'completed_with_errors'].includes(row.status) ? row : undefined;
        },
        120_000,
        'the order to finish after the crash',
      );
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${stack.launcher.output()}\n${await logTails(stack.dataDir, 20)}`);
    }

    // No service needed restarting: the same processes carried on.
    const after = await readRunFile(stack.dataDir);
    expect(after.postgres.pid).not.toBe(before.postgres.pid);
    for (const [name, { pid }] of Object.entries(before.services)) expect(after.services[name]?.pid, name).toBe(pid);

    const [order] = await query<{ status: string; processed_count: number; failed_count: number; cost_cents: number }>(
      'select status, processed_count, failed_count, cost_cents from orders.bulk_orders where id = $1',
      [orderId],
    );
    expect(order).toMatchObject({ status: 'completed', processed_count: ROWS, failed_count: 0 });
    const labels = await query<{ status: string; tracking_number: string | null; price_cents: number }>(
      'select status, tracking_number, price_cents from orders.labels where bulk_order_id = $1',
      [orderId],
    );
    expect(labels).toHaveLength(ROWS);
    expect(labels.every((l) => l.status === 'completed' && l.tracking_number)).toBe(true);
    expect(new Set(labels.map((l) => l.tracking_number)).size).toBe(ROWS);
    const cost = labels.reduce((sum, l) => sum + l.price_cents, 0);
    expect(order!.cost_cents).toBe(cost);

    // One charge for the order, no refund (nothing failed), and the balance is what the ledger sums to.
    const entries = await query<{ kind: string; amount_cents: string }>(
      'select kind, amount_cents from payments.ledger_entries where user_id = $1 order by created_at',
      [userId],
    );
    expect(entries.map((e) => [e.kind, Number(e.amount_cents)])).toEqual([
      ['admin_adjustment', funded * 100],
      ['label_charge', -cost],
    ]);
    const [account] = await query<{ balance_cents: string }>(
      'select balance_cents from payments.accounts where user_id = $1',
      [userId],
    );
    expect(Number(account!.balance_cents)).toBe(funded * 100 - cost);

    const files = await api<{ pdf: boolean; resultCSV: boolean; autoConfirm: boolean }>(
      `/api/orders/bulk/files/${orderId}`,
      { token },
    );
    expect(files).toMatchObject({ pdf: true, resultCSV: true, autoConfirm: true });
  }, 240_000);
});
