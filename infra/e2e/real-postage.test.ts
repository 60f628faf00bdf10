import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCarrierSet, easyPostSettings, type LabelAddress } from '@flatship/carriers';
import { type FakeEasyPost, type FakeUsps, startFakeEasyPost, startFakeUsps } from '@flatship/carriers/testing';
import type { BulkOrderItem, CarrierRoutesReply } from '@flatship/proto';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectSocket, runTimedOrder } from '../bench/bulk/order';
import { amazonRows } from '../bench/bulk/rows';
import { isProcessAlive } from '../src/net';
import type { Secrets } from '../src/state';
import { createStackApi, type RunningStack, registerFundedCustomer, startStack } from '../src/testing/start-stack';
import { eventually, readRunFile } from '../test/helpers';
import { artifactPath, logIn, newContext } from './browser';
import { sharedBrowser } from './shared-stack';

// Real postage end to end: the product sells USPS labels bought from USPS's own Labels API and from EasyPost, each
// answered by its fake on loopback (services/carriers/src/testing), through every service and the label worker as
// `make start` runs them. An admin switches Ground Advantage to EasyPost on the dashboard; a customer buys single
// labels and a 200-row order; the label worker is killed between buying and settling; then labels it bought are
// voided and put on SCAN forms at the carrier that sold them.

/** The mixed-carrier order's rows: enough of both services to show each row routed to its carrier. */
const ORDER_ROWS = 200;

const SENDER: LabelAddress = {
  name: 'Harbor Goods Fulfillment',
  company: 'Harbor Goods LLC',
  street1: '100 Congress Ave',
  street2: 'Suite 200',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  country: 'US',
};

let usps: FakeUsps;
let easypost: FakeEasyPost;
let stack: RunningStack;
let browser: Browser;
let socket: Socket;
let customer: { id: string; token: string };
const api = <T>(path: string, init?: Parameters<ReturnType<typeof createStackApi>>[1]) =>
  createStackApi(stack.url)<T>(path, init);

/** The carrier accounts, as an operator sets them (README, "Selling real postage"), pointed at the fakes. */
const carrierEnv = () => ({
  CARRIERS: 'usps,easypost',
  USPS_API_BASE_URL: usps.url,
  USPS_CLIENT_ID: usps.credentials.clientId,
  USPS_CLIENT_SECRET: usps.credentials.clientSecret,
  USPS_CRID: usps.credentials.crid,
  USPS_MID: usps.credentials.mid,
  USPS_MANIFEST_MID: usps.credentials.manifestMid,
  USPS_EPS_ACCOUNT: usps.credentials.epsAccount,
  EASYPOST_API_KEY: easypost.testKey,
  EASYPOST_API_BASE_URL: easypost.url,
});

/** Purchases asked of either fake so far: USPS label requests (replays included), EasyPost shipments created or read. */
const asks = () =>
  usps.count('label') +
  easypost.requests.filter(
    (q) =>
      (q.method === 'POST' && q.path === '/v2/shipments') ||
      (q.method === 'GET' && /^\/v2\/shipments\/[^/]+$/.test(q.path)),
  ).length;

/** Labels bought from either fake so far: a replayed USPS key and a looked-up EasyPost shipment are not sales. */
const purchases = () => usps.purchases + easypost.buys;

beforeAll(async () => {
  [usps, easypost, browser] = await Promise.all([
    startFakeUsps({ balanceCents: 100_000_000 }),
    startFakeEasyPost({ balance: '100000.00000' }),
    sharedBrowser(),
  ]);
  // A killed worker's partitions are free again once its leases run out: 3 s here rather than the default 10 s.
  stack = await startStack({
    env: {
      ...carrierEnv(),
      BUS_LEASE_TIMEOUT_MS: '3000',
      // Refunds waiting for their carrier are asked about at once, not every minute.
      REFUND_CHECK_INTERVAL_MS: '200',
      REFUND_RECHECK_MS: '0',
    },
  });
  customer = await registerFundedCustomer(
    createStackApi(stack.url),
    { email: stack.adminEmail, password: stack.adminPassword },
    { email: `postage-${Date.now()}@example.com`, password: 'real-postage-42', balance: 20_000 },
  );
  socket = await connectSocket(stack.url, customer.token);
});
afterAll(async () => {
  socket?.close();
  await browser?.close();
  await stack?.stop();
  await Promise.all([usps?.close(), easypost?.close()]);
});

/** A connection to the stack's database, as its superuser. */
async function connect(): Promise<pg.Client> {
  const secrets = JSON.parse(await readFile(join(stack.dataDir, 'secrets.json'), 'utf8')) as Secrets;
  const { postgres } = await readRunFile(stack.dataDir);
  const client = new pg.Client({
    connectionString: `postgres://postgres:${encodeURIComponent(secrets.pgPassword)}@127.0.0.1:${postgres.port}/flatship`,
  });
  await client.connect();
  return client;
}

/** Statements on the stack's database, as its superuser. */
async function withDb<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

interface LabelRow {
  id: string;
  status: string;
  service_name: string;
  tracking_number: string;
  carrier_id: string;
  carrier_ref: string | null;
  carrier_cost_cents: number | null;
  created_at: Date;
}

const labelsOf = (orderId: string) =>
  withDb(
    async (db) =>
      (
        await db.query<LabelRow>(
          `select id, status, service_name, tracking_number, carrier_id, carrier_ref, carrier_cost_cents, created_at
             from orders.labels where bulk_order_id = $1 order by id`,
          [orderId],
        )
      ).rows,
  );

/** A single label as the Create Label page sends it. */
function singleLabel(item: BulkOrderItem) {
  const { order_id: _orderId, ...sender } = item.sender as BulkOrderItem['sender'] & { order_id?: string };
  return {
    user_id: customer.id,
    service_name: item.service_name,
    courier: 'usps',
    sender,
    receiver: item.receiver,
    package: item.package,
  };
}

describe('real postage on USPS and EasyPost', () => {
  test('an admin switches Ground Advantage to EasyPost, with USPS standing by, on the dashboard', async () => {
    const { context, page } = await newContext(browser);
    try {
      await logIn(page, stack.url, stack.adminEmail, stack.adminPassword);
      await page.goto(`${stack.url}/admin/dashboard`);
      const first = page.getByRole('combobox', { name: 'USPS Ground Advantage: sold by' });
      await first.selectOption({ label: 'USPS via EasyPost' });
      await page
        .getByRole('combobox', { name: 'USPS Ground Advantage: when it cannot sell' })
        .selectOption({ label: 'USPS' });
      await page.getByRole('button', { name: 'Save carriers' }).click();
      await page.getByText('Saved. New purchases follow it within a few seconds.').waitFor();
      await page.screenshot({ path: await artifactPath('real-postage-sold-by.png'), fullPage: true });
    } finally {
      await context.close();
    }
    const admin = await api<{ token: string }>('/api/auth/login', {
      method: 'POST',
      body: { email: stack.adminEmail, password: stack.adminPassword },
    });
    const { services } = await api<CarrierRoutesReply>('/api/admin/carriers/routes', { token: admin.token });
    const route = (uid: string) => services.find((s) => s.uid === uid)?.carriers.map((c) => c.id);
    expect(route('usps_ground_advantage')).toEqual(['easypost', 'usps']);
    expect(route('usps_priority_mail')).toEqual(['usps', 'easypost']);
    // A route the enabled carriers cannot follow is refused, naming why.
    const refused = await fetch(`${stack.url}/api/admin/carriers/routes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', token: admin.token },
      body: JSON.stringify({ services: [{ uid: 'usps_priority_mail', carriers: ['sandbox-usps'] }] }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'The route cannot be used: carrier sandbox-usps is not enabled (CARRIERS=usps,easypost).',
    );
  });

  test('single labels: Priority Mail from USPS, Ground Advantage from EasyPost, each bought once with its cost', async () => {
    const [priority, ground] = amazonRows(2, 7).sort((a) => (a.service_name === 'USPS Priority Mail' ? -1 : 1));
    const before = { usps: usps.purchases, easypost: easypost.buys };
    for (const item of [priority, ground] as BulkOrderItem[]) {
      const res = await api<{ data: { orderId: string; pdfName: string; tracking_number: string } }>('/api/orders/v2', {
        method: 'POST',
        token: customer.token,
        body: singleLabel(item),
      });
      const pdf = await readFile(join(stack.dataDir, 'files', 'labels', customer.id, res.data.pdfName));
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const [row] = await withDb(
        async (db) =>
          (
            await db.query<LabelRow>(
              'select carrier_id, carrier_cost_cents, tracking_number from orders.labels where id = $1',
              [res.data.orderId],
            )
          ).rows,
      );
      expect(row?.carrier_id).toBe(item.service_name === 'USPS Priority Mail' ? 'usps' : 'easypost');
      expect(row?.carrier_cost_cents).toBeGreaterThan(0);
      expect(row?.tracking_number).toBe(res.data.tracking_number);
    }
    expect({ usps: usps.purchases - before.usps, easypost: easypost.buys - before.easypost }).toEqual({
      usps: 1,
      easypost: 1,
    });
  });

  test(`a ${ORDER_ROWS}-row order: every label bought once, each from the carrier its service is routed to`, async () => {
    const before = purchases();
    const order = await runTimedOrder(createStackApi(stack.url), socket, {
      userId: customer.id,
      token: customer.token,
      orderData: amazonRows(ORDER_ROWS, 11),
      source: 'amazon',
      fileName: 'amazon-real-postage.txt',
      timeoutMs: 240_000,
    });
    expect(order.last).toMatchObject({ status: 'completed', processedCount: ORDER_ROWS, failedCount: 0 });
    const rows = await labelsOf(order.orderId);
    expect(rows).toHaveLength(ORDER_ROWS);
    expect(rows.filter((r) => !(r.status === 'completed' && (r.carrier_cost_cents ?? 0) > 0))).toEqual([]);
    for (const r of rows) expect(r.carrier_id).toBe(r.service_name === 'USPS Ground Advantage' ? 'easypost' : 'usps');
    expect(new Set(rows.map((r) => r.tracking_number)).size).toBe(ORDER_ROWS);
    expect(purchases() - before).toBe(ORDER_ROWS);
  }, 300_000);

  test('the label worker killed between buying and settling: the restarted worker finishes the order and buys nothing twice', async () => {
    const before = purchases();
    const asksBefore = asks();
    // Every settlement of this customer's orders after the first waits for a lock this test holds: the worker goes on
    // buying while its settlement waits, and is killed with labels bought and not yet recorded.
    const hold = `hold_${customer.id.replace(/-/g, '')}`;
    await withDb((db) =>
      db.query(`
        create function orders.${hold}() returns trigger language plpgsql as $$
        begin
          perform pg_advisory_xact_lock_shared(4243, hashtext(old.user_id::text));
          return new;
        end $$;
        create trigger ${hold} before update on orders.bulk_orders for each row
          when (old.user_id = '${customer.id}' and old.processed_count + old.failed_count > 0)
          execute function orders.${hold}();`),
    );
    const gate = await connect();
    await gate.query('begin');
    await gate.query('select pg_advisory_xact_lock(4243, hashtext($1))', [customer.id]);
    let open = false;
    const release = async () => {
      if (open) return;
      open = true;
      await gate.query('commit');
      await gate.end();
    };
    try {
      const running = runTimedOrder(createStackApi(stack.url), socket, {
        userId: customer.id,
        token: customer.token,
        orderData: amazonRows(120, 13),
        source: 'amazon',
        fileName: 'amazon-crash.txt',
        timeoutMs: 240_000,
      });
      running.catch(() => {});
      await eventually(
        async () =>
          (
            await withDb((db) =>
              db.query<{ n: number }>(
                "select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = 4243 and not granted",
              ),
            )
          ).rows[0]?.n || undefined,
        60_000,
        'a settlement held at the gate',
      );
      const bought = purchases() - before;
      const worker = (await readRunFile(stack.dataDir)).services['label-worker']?.pid;
      if (!worker) throw new Error('the label worker is not running');
      process.kill(worker, 'SIGKILL');
      await eventually(async () => !isProcessAlive(worker) || undefined, 10_000, 'the label worker to die');
      await release();
      const settled = await withDb(
        async (db) =>
          (
            await db.query<{ n: number }>(
              `select count(*)::int as n from orders.labels l join orders.bulk_orders o on o.id = l.bulk_order_id
                where o.user_id = $1 and o.file_name = 'amazon-crash.txt' and l.status = 'completed'`,
              [customer.id],
            )
          ).rows[0]?.n ?? 0,
      );
      // Killed between buying and settling: labels were bought that the order had not recorded.
      expect(bought).toBeGreaterThan(settled);

      const order = await running;
      expect(order.last).toMatchObject({ status: 'completed', processedCount: 120, failedCount: 0 });
      const rows = await labelsOf(order.orderId);
      expect(rows.filter((r) => r.status === 'completed')).toHaveLength(120);
      // Each bought once: the retried USPS keys were replays, the retried EasyPost rows found their shipments.
      expect(purchases() - before).toBe(120);
      // The restarted worker did ask again for labels the killed one had bought: USPS answered the replayed keys with
      // the labels it had sold, EasyPost's shipments were read back instead of bought.
      expect(asks() - asksBefore).toBeGreaterThan(120);
      for (const r of rows.filter((x) => x.carrier_id === 'easypost'))
        expect(easypost.buysOf(r.carrier_ref as string)).toBe(1);
    } finally {
      await release();
      await withDb((db) => db.query(`drop trigger ${hold} on orders.bulk_orders; drop function orders.${hold}();`));
    }
  }, 300_000);

  test('labels the stack bought are refunded by their customer at the carrier that sold them, and put on SCAN forms', async () => {
    const rows = await withDb(
      async (db) =>
        (
          await db.query<LabelRow>(
            `select l.id, l.status, l.service_name, l.tracking_number, l.carrier_id, l.carrier_ref,
                    l.carrier_cost_cents, l.created_at
               from orders.labels l join orders.bulk_orders o on o.id = l.bulk_order_id
              where o.user_id = $1 and o.file_name = 'amazon-real-postage.txt' and l.status = 'completed'
              order by l.id`,
            [customer.id],
          )
        ).rows,
    );
    const byUsps = rows.filter((r) => r.carrier_id === 'usps');
    const byEasyPost = rows.filter((r) => r.carrier_id === 'easypost');
    expect(byUsps.length).toBeGreaterThan(20);
    expect(byEasyPost.length).toBeGreaterThan(20);
    const env = carrierEnv();
    const carriers = createCarrierSet(env.CARRIERS, {
      usps: env,
      easypost: easyPostSettings({ EASYPOST_API_KEY: env.EASYPOST_API_KEY, EASYPOST_API_BASE_URL: easypost.url }),
    });
    // After the customer's refunds: a label already on a SCAN form, voided at the port.
    const voidOf = (r: LabelRow) => ({
      idempotencyKey: r.id,
      trackingNumber: r.tracking_number,
      carrierId: r.carrier_id,
      purchasedAt: r.created_at,
      ...(r.carrier_ref ? { carrierRef: r.carrier_ref } : {}),
    });
    try {
      // The customer refunds one label of each carrier. USPS cancels a label not yet on a form at once; EasyPost
      // takes the request, and the refund status job credits it when EasyPost says refunded.
      const refund = (r: LabelRow) =>
        api<{ refundStatus: string; credited: number }>(`/api/orders/labels/${r.id}/refund`, {
          method: 'POST',
          token: customer.token,
          body: {},
        });
      const uspsLabel = byUsps[0] as LabelRow;
      const easyPostLabel = byEasyPost[0] as LabelRow;
      expect(await refund(uspsLabel)).toMatchObject({ refundStatus: 'refunded' });
      expect(await refund(easyPostLabel)).toMatchObject({ refundStatus: 'requested', credited: 0 });
      const refundOf = (id: string) =>
        withDb(
          async (db) => (await db.query('select status, refund_status from orders.labels where id = $1', [id])).rows[0],
        );
      await expect
        .poll(() => refundOf(easyPostLabel.id), { timeout: 20_000 })
        .toEqual({
          status: 'void',
          refund_status: 'refunded',
        });
      expect(await refundOf(uspsLabel.id)).toEqual({ status: 'void', refund_status: 'refunded' });
      expect(
        easypost.requests.filter((q) => q.method === 'POST' && q.path.includes(`${easyPostLabel.carrier_ref}/refund`)),
      ).toHaveLength(1);
      // Each credited once, under the label's own key.
      const credits = await withDb(
        async (db) =>
          (
            await db.query(
              `select idempotency_key from payments.ledger_entries where user_id = $1 and idempotency_key like 'refund:%'`,
              [customer.id],
            )
          ).rows,
      );
      expect(credits.map((c) => c.idempotency_key).sort()).toEqual(
        [`refund:${uspsLabel.id}`, `refund:${easyPostLabel.id}`].sort(),
      );

      // One PS Form 5630 at each carrier for twenty of the rest.
      for (const [id, labels] of [
        ['usps', byUsps.slice(1, 21)],
        ['easypost', byEasyPost.slice(1, 21)],
      ] as const) {
        const form = await carriers.adapter(id)?.createScanForm?.({
          idempotencyKey: `scan-${id}-${customer.id}`,
          from: SENDER,
          shipDate: new Date(),
          labels: labels.map((r) => ({
            trackingNumber: r.tracking_number,
            ...(r.carrier_ref ? { carrierRef: r.carrier_ref } : {}),
          })),
        });
        if (!form?.ok) throw new Error(`no SCAN form from ${id}: ${JSON.stringify(form)}`);
        expect(form.pdf.subarray(0, 5).toString()).toBe('%PDF-');
        expect([...form.trackingNumbers].sort()).toEqual(labels.map((r) => r.tracking_number).sort());
      }
      // The USPS labels on the form went to USPS's systems: voiding one now is a refund request, not a cancel.
      expect(await carriers.voidLabel?.(voidOf(byUsps[1] as LabelRow))).toMatchObject({ ok: true, status: 'pending' });
    } finally {
      await carriers.close();
    }
  });
});
