import { readFileSync } from 'node:fs';
import { type BulkFilesReply, isTerminalBulkStatus, type OrderProgress } from '@flatship/proto';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { amazonRows } from '../bench/bulk/rows';
import { sleep } from '../src/net';
import { type DistributedStack, startDistributedStack } from '../src/testing/distributed';
import { createStackApi, registerFundedCustomer } from '../src/testing/start-stack';

// The product as it runs in production, on one machine: the Kafka bus (librdkafka's mock
// cluster), one database role per service, two label-worker and two gateway replicas
// behind a round-robin front. Three 200-row orders: one watched from the other gateway,
// one that loses a worker to SIGKILL, one during a rolling restart of every process.

const ROWS = 200;
/** Funds all three orders at the dearest service ($8.95 a label) with room to spare. */
const FUNDED_DOLLARS = 3 * ROWS * 9 + 100;
const ORDER_TIMEOUT_MS = 120_000;

let stack: DistributedStack;
let db: pg.Client;
let customer: { id: string; token: string };

beforeAll(async () => {
  stack = await startDistributedStack({
    workers: 2,
    gateways: 2,
    logLevel: 'info',
    // The sweeper resumes an order that made no progress for this long (production: 60 s), so an
    // order whose rows a killed worker held is picked up within the test's time.
    env: { BULK_STALL_MS: '10000' },
  });
  db = new pg.Client({ connectionString: stack.databaseAdminUrl });
  await db.connect();

  customer = await registerFundedCustomer(
    createStackApi(stack.url),
    { email: stack.adminEmail, password: stack.adminPassword },
    { email: `distributed-${Date.now()}@example.com`, password: 'harbor-parcels-42', balance: FUNDED_DOLLARS },
  );
}, 240_000);

afterAll(async () => {
  await db?.end();
  await stack?.stop();
}, 120_000);

function connect(url: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => reject(new Error(`socket.io connection to ${url} refused: ${err.message}`)));
  });
}

function joinRoom(socket: Socket, orderId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.emit('joinOrderRoom', `order_${orderId}`, (ack: { ok: boolean; message?: string }) =>
      ack.ok ? resolve() : reject(new Error(`joinOrderRoom refused: ${ack.message}`)),
    );
  });
}

/** Creates a bulk order and submits `ROWS` rows through `gatewayUrl`; answers at once with its id. */
async function submitOrder(gatewayUrl: string, seed: number, beforeSubmit?: (orderId: string) => Promise<void>) {
  const api = createStackApi(gatewayUrl);
  const { data } = await api<{ data: { orderId: string } }>('/api/orders/bulk/init', {
    method: 'POST',
    token: customer.token,
    body: { userId: customer.id },
  });
  await beforeSubmit?.(data.orderId);
  await api(`/api/orders/bulk/process/${customer.id}`, {
    method: 'POST',
    token: customer.token,
    body: {
      orderId: data.orderId,
      orderData: amazonRows(ROWS, seed),
      source: 'amazon',
      fileName: `amazon-orders-${seed}.txt`,
    },
  });
  return data.orderId;
}

/** Every orderProgress event of `orderId` the socket receives, and the final one (terminal status with files). */
function watch(socket: Socket, orderId: string) {
  const events: OrderProgress[] = [];
  let onEvent = () => {};
  const final = new Promise<OrderProgress>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no final progress for order ${orderId} within ${ORDER_TIMEOUT_MS / 1000} s`)),
      ORDER_TIMEOUT_MS,
    );
    onEvent = () => {
      const last = events.at(-1)!;
      if (isTerminalBulkStatus(last.status) && last.fileData?.pdfName) {
        clearTimeout(timer);
        resolve(last);
      }
    };
  });
  socket.on('orderProgress', (p: OrderProgress) => {
    if (p.orderId !== orderId) return;
    events.push(p);
    onEvent();
  });
  return { events, final };
}

/** CPU seconds (user + system) a process of the stack has used so far, from /proc. */
function cpuSeconds(name: string): number {
  const pid = stack.processes.get(name)?.child?.pid;
  if (!pid) return 0;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function orderStatus(orderId: string) {
  const { rows } = await db.query<{ status: string; processed_count: number; failed_count: number }>(
    'select status, processed_count, failed_count from orders.bulk_orders where id = $1',
    [orderId],
  );
  return rows[0];
}

/** Polls the database until the order reaches a terminal status (used where no socket can watch all along). */
async function untilFinished(orderId: string, timeoutMs = ORDER_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await orderStatus(orderId);
    if (row && isTerminalBulkStatus(row.status as OrderProgress['status'])) return row;
    if (Date.now() > deadline) throw new Error(`order ${orderId} still ${row?.status} after ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/** One label per row, each bought once: its own tracking number and PDF, nothing pending, nothing failed. */
async function expectEveryRowBoughtOnce(orderId: string) {
  const { rows } = await db.query(
    `select count(*)::int as rows,
            count(*) filter (where status = 'completed')::int as completed,
            count(distinct tracking_number)::int as tracking_numbers,
            count(distinct pdf_name)::int as pdfs,
            count(distinct row_index)::int as row_indexes
       from orders.labels where bulk_order_id = $1`,
    [orderId],
  );
  expect(rows[0]).toEqual({ rows: ROWS, completed: ROWS, tracking_numbers: ROWS, pdfs: ROWS, row_indexes: ROWS });
  const order = await orderStatus(orderId);
  expect(order).toEqual({ status: 'completed', processed_count: ROWS, failed_count: 0 });
  const files = await createStackApi(stack.url)<BulkFilesReply>(`/api/orders/bulk/files/${orderId}`, {
    token: customer.token,
  });
  expect(files).toMatchObject({ pdf: true, resultCSV: true, autoConfirm: true });
}

/**
 * The money adds up across every order so far: the charges less the refunds are exactly the
 * price of the labels bought, and the balance is what was funded less that.
 */
async function expectLedgerExact() {
  const bought = await db.query<{ cents: string }>(
    `select coalesce(sum(price_cents), 0)::text as cents from orders.labels where user_id = $1 and status = 'completed'`,
    [customer.id],
  );
  const ledger = await db.query<{ charged: string; refunded: string; funded: string; entries: string }>(
    `select coalesce(-sum(amount_cents) filter (where kind = 'label_charge'), 0)::text as charged,
            coalesce(sum(amount_cents) filter (where kind = 'label_refund'), 0)::text as refunded,
            coalesce(sum(amount_cents) filter (where kind in ('deposit', 'admin_adjustment')), 0)::text as funded,
            count(*)::text as entries
       from payments.ledger_entries where user_id = $1`,
    [customer.id],
  );
  const account = await db.query<{ balance: string }>(
    'select balance_cents::text as balance from payments.accounts where user_id = $1',
    [customer.id],
  );
  const spent = BigInt(bought.rows[0]!.cents);
  const { charged, refunded, funded } = ledger.rows[0]!;
  expect(spent).toBeGreaterThan(0n);
  expect(BigInt(charged) - BigInt(refunded)).toBe(spent);
  expect(BigInt(funded)).toBe(BigInt(FUNDED_DOLLARS * 100));
  expect(BigInt(account.rows[0]!.balance)).toBe(BigInt(funded) - spent);
}

describe('the distributed topology', () => {
  test('every service runs as its own process on Kafka, each on its own database role', async () => {
    expect(stack.kafkaBrokers?.split(',')).toHaveLength(3);
    expect([...stack.processes.keys()]).toEqual([
      'auth',
      'payments',
      'services-pricing',
      'orders',
      'admin',
      'label-worker-1',
      'label-worker-2',
      'gateway-1',
      'gateway-2',
    ]);
    // Each role owns its schema, and nothing else: here orders' role reaching for payments.
    const orders = new pg.Client({ connectionString: stack.roleUrls.orders });
    await orders.connect();
    try {
      await expect(orders.query('select * from payments.ledger_entries')).rejects.toThrow(
        'permission denied for schema payments',
      );
      const { rows } = await orders.query(
        `select nspname from pg_namespace where nspowner = current_user::regrole order by 1`,
      );
      expect(rows).toEqual([{ nspname: 'orders' }]);
    } finally {
      await orders.end();
    }
  });

  test('an order submitted through one gateway reports its progress to a socket on the other', async () => {
    const [gatewayA, gatewayB] = stack.gatewayUrls as [string, string];
    const socket = await connect(gatewayB, customer.token);
    try {
      let watched: ReturnType<typeof watch> | undefined;
      const orderId = await submitOrder(gatewayA, 1, async (id) => {
        await joinRoom(socket, id);
        watched = watch(socket, id);
      });
      const last = await watched!.final;
      expect(last).toMatchObject({
        orderId,
        status: 'completed',
        processedCount: ROWS,
        failedCount: 0,
        totalCount: ROWS,
      });
      expect(last.fileData).toMatchObject({
        pdfName: expect.stringMatching(/\.pdf$/),
        resultCSVName: expect.stringMatching(/\.csv$/),
        autoConfirmCSVName: expect.stringMatching(/\.(csv|txt|tsv)$/),
      });
      // Progress along the way, not only the end.
      const partial = watched!.events.filter((e) => e.processedCount > 0 && e.processedCount < ROWS);
      expect(partial.length).toBeGreaterThan(0);
      await expectEveryRowBoughtOnce(orderId);
      await expectLedgerExact();
    } finally {
      socket.close();
    }
  });

  test('an order completes although a label worker is killed in the middle of it; no label is bought twice', async () => {
    let victim = 'label-worker-1';
    const socket = await connect(stack.url, customer.token);
    try {
      let watched: ReturnType<typeof watch> | undefined;
      const workers = ['label-worker-1', 'label-worker-2'];
      const cpuBefore = workers.map(cpuSeconds);
      const orderId = await submitOrder(stack.url, 2, async (id) => {
        await joinRoom(socket, id);
        watched = watch(socket, id);
      });
      // Mid-order: some labels bought, most not yet.
      const deadline = Date.now() + 60_000;
      while (!watched!.events.some((e) => e.processedCount >= 50)) {
        if (Date.now() > deadline) throw new Error('the order made no progress within 60 s');
        await sleep(20);
      }
      const killedAt = watched!.events.at(-1)!.processedCount;
      // The replica that is buying this order's labels (the one whose CPU time grew most), so that what
      // it held really has to move to the other.
      const used = workers.map((name, i) => cpuSeconds(name) - cpuBefore[i]!);
      victim = workers[used.indexOf(Math.max(...used))]!;
      const exit = await stack.kill(victim, 'SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      expect(killedAt).toBeLessThan(ROWS);

      const last = await watched!.final;
      expect(last).toMatchObject({ orderId, status: 'completed', processedCount: ROWS, failedCount: 0 });
      await expectEveryRowBoughtOnce(orderId);
      await expectLedgerExact();
    } finally {
      socket.close();
    }
    // Back to two replicas, as the deployment would restart it.
    await stack.start(victim);
  }, 180_000);

  test('a rolling restart of every process during an order loses nothing', async () => {
    const orderId = await submitOrder(stack.url, 3);
    // Workers first, so the order is surely still being bought while they restart.
    const order = [
      'label-worker-1',
      'label-worker-2',
      'orders',
      'payments',
      'services-pricing',
      'auth',
      'admin',
      'gateway-1',
      'gateway-2',
    ];
    const unfinishedAtRestart: string[] = [];
    for (const name of order) {
      const status = (await orderStatus(orderId))?.status;
      if (status && !isTerminalBulkStatus(status as OrderProgress['status'])) unfinishedAtRestart.push(name);
      const exit = await stack.restart(name);
      // A graceful stop: it finished what it had in hand and exited by itself.
      expect({ name, ...exit }).toEqual({ name, code: 0, signal: null });
    }
    expect(unfinishedAtRestart).toContain('label-worker-1');

    await untilFinished(orderId);
    await expectEveryRowBoughtOnce(orderId);
    await expectLedgerExact();
    // Both restarted gateways answer behind the front, which alternates between them.
    const ports = [...stack.processes.values()].filter((p) => p.definition.name === 'gateway').map((p) => p.port);
    const before = ports.map((p) => stack.front.counts.get(p) ?? 0);
    const api = createStackApi(stack.url);
    for (let i = 0; i < 4; i++) await api(`/api/orders/bulk/files/${orderId}`, { token: customer.token });
    expect(ports.map((p, i) => (stack.front.counts.get(p) ?? 0) - before[i]!)).toEqual([2, 2]);
  }, 240_000);
});
