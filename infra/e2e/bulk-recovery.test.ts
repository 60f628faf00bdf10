import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { amazonRows } from '../bench/bulk/rows';
import type { Secrets } from '../src/state';
import { type ApiCall, createStackApi, registerFundedCustomer } from '../src/testing/start-stack';
import { eventually, readRunFile } from '../test/helpers';
import { artifactPath } from './browser';
import { type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// A bulk order with a label an admin refunded, then left stuck generating its files: the customer sees the
// refund counted and brings the order back with Force Recovery on Batch Orders; an admin does the same for
// another order from the admin's bulk order list.

let stack: SharedStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(), sharedBrowser()]);
});
afterAll(async () => {
  await browser?.close();
});

const api = <T>(path: string, init?: ApiCall) => createStackApi(stack.url)<T>(path, init);

/** A statement on the stack's own database. */
async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const secrets = JSON.parse(await readFile(join(stack.dataDir, 'secrets.json'), 'utf8')) as Secrets;
  const run = await readRunFile(stack.dataDir);
  const client = new pg.Client({
    connectionString: `postgres://postgres:${encodeURIComponent(secrets.pgPassword)}@127.0.0.1:${run.postgres.port}/flatship`,
  });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function adminToken(): Promise<string> {
  return (
    await api<{ token: string }>('/api/auth/login', {
      method: 'POST',
      body: { email: stack.adminEmail, password: stack.adminPassword },
    })
  ).token;
}

/** A finished order of `rows` Ground Advantage labels. */
async function finishedOrder(customer: { id: string; token: string }, rows: number, seed: number): Promise<string> {
  const { data } = await api<{ data: { orderId: string } }>('/api/orders/bulk/init', {
    method: 'POST',
    token: customer.token,
    body: { userId: customer.id },
  });
  const orderData = amazonRows(rows, seed).map((r) => ({ ...r, service_name: 'USPS Ground Advantage' }));
  await api(`/api/orders/bulk/process/${customer.id}`, {
    method: 'POST',
    token: customer.token,
    body: { orderId: data.orderId, orderData, source: 'amazon', fileName: `orders-${seed}.txt` },
  });
  await eventually(
    async () => {
      const [o] = await query<{ status: string }>('select status from orders.bulk_orders where id = $1', [
        data.orderId,
      ]);
      return o?.status === 'completed' ? o : undefined;
    },
    60_000,
    'the order to complete',
  );
  return data.orderId;
}

/** As a worker that died writing the order's files leaves it (the sweeper is kept away for the test's length). */
async function leaveStuck(userId: string, orderId: string) {
  await query(
    `update orders.bulk_orders
        set status = 'generating_files', pdf_name = null, result_csv_name = null, auto_confirm_name = null,
            last_progress_at = now() + interval '1 hour'
      where id = $1`,
    [orderId],
  );
  await rm(join(stack.dataDir, 'files', 'bulk', userId, orderId), { recursive: true, force: true });
}

async function signIn(email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${stack.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/main/') || url.pathname.startsWith('/admin/'));
  return page;
}

test('a refunded label is counted and left out, and a stuck order is recovered from Batch Orders and from the admin list', async () => {
  const email = `recover-${randomUUID()}@example.com`;
  const password = 'recover-labels-9';
  const customer = await registerFundedCustomer(
    createStackApi(stack.url),
    { email: stack.adminEmail, password: stack.adminPassword },
    { email, password, balance: 200 },
  );
  const first = await finishedOrder(customer, 2, 1);
  const second = await finishedOrder(customer, 2, 2);

  // The admin refunds the first order's first label: its PDF is refused from then on.
  const admin = await adminToken();
  const rows = await api<{ labels: { _id: string; row: number; pdfName: string }[] }>(
    `/api/orders/admin/labels?bulkOrderId=${first}`,
    { token: admin },
  );
  const refunded = rows.labels.find((l) => l.row === 1);
  if (!refunded) throw new Error('row 1 not found');
  await api(`/api/orders/admin/labels/${refunded._id}/refund`, { method: 'POST', token: admin });
  const voidPdf = await fetch(`${stack.url}/api/orders/download/v2/${refunded.pdfName}`, {
    headers: { token: customer.token },
  });
  expect(voidPdf.status).toBe(410);
  expect(((await voidPdf.json()) as { code: string }).code).toBe('ORDERS_LABEL_VOID');

  await leaveStuck(customer.id, first);
  await leaveStuck(customer.id, second);

  // The customer: the stuck order offers Force Recovery, and the refund is counted.
  const page = await signIn(email, password);
  await page.goto(`${stack.url}/main/batch-orders`);
  const table = page.getByRole('table', { name: 'Batch Orders List' });
  const stuck = table.getByRole('row').filter({ hasText: '1 refunded' });
  await stuck.getByText('Files Generation Stuck - Use Force Recovery').waitFor();
  await page.screenshot({ path: await artifactPath('batch-orders-stuck.png'), fullPage: true });
  await stuck.getByRole('button', { name: 'Force Recovery' }).click();
  await page.getByText('Order recovered. Its files are ready to download.').first().waitFor();
  await stuck.getByText('Completed', { exact: true }).waitFor();
  await page.screenshot({ path: await artifactPath('batch-orders-recovered.png'), fullPage: true });

  // Its merged labels hold the one label still valid; the results CSV says the other was refunded.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    stuck.getByRole('button', { name: 'PDF', exact: true }).click(),
  ]);
  const pdfPath = await artifactPath(`recovered-${download.suggestedFilename()}`);
  await download.saveAs(pdfPath);
  expect(execFileSync('pdfinfo', [pdfPath]).toString()).toMatch(/Pages:\s+1\b/);
  const csv = await fetch(`${stack.url}/api/orders/download/result-csv/${first}`, {
    headers: { token: customer.token },
  });
  const lines = (await csv.text()).trim().split(/\r?\n/);
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(',refunded,');
  expect(lines[2]).toContain(',success,');

  // Its labels file lost: the progress window opens on the order, its refund counted, and writes the files again.
  await rm(join(stack.dataDir, 'files', 'bulk', customer.id, first, 'labels.pdf'));
  await stuck.getByRole('button', { name: 'PDF', exact: true }).click();
  const window = page.getByRole('dialog');
  await window.getByText('File not found').waitFor();
  await expect.poll(() => window.getByText('Refunded').locator('..').textContent()).toBe('Refunded1');
  await window.getByText('1 / 2').waitFor();
  await page.screenshot({ path: await artifactPath('bulk-progress-refunded.png') });
  await window.getByRole('button', { name: 'Retry File Generation' }).click();
  await expect
    .poll(
      async () =>
        (await fetch(`${stack.url}/api/orders/download/pdf/${first}`, { headers: { token: customer.token } })).status,
    )
    .toBe(200);
  await page.context().close();

  // The admin recovers the customer's other order from the admin's bulk order list.
  const adminPage = await signIn(stack.adminEmail, stack.adminPassword);
  await adminPage.goto(`${stack.url}/admin/order-label-management?userId=${customer.id}`);
  await adminPage.getByRole('tab', { name: 'Bulk orders' }).click();
  const orders = adminPage.getByRole('table', { name: 'Bulk orders' });
  const other = orders.getByRole('row').filter({ hasText: 'orders-2.txt' });
  await other.getByText('Files generation stuck').waitFor();
  await adminPage.screenshot({ path: await artifactPath('admin-bulk-stuck.png'), fullPage: true });
  await other.getByRole('button', { name: 'Force Recovery of bulk order orders-2.txt' }).click();
  await adminPage.getByText('Order recovered. Its files are ready to download.').first().waitFor();
  await other.getByRole('button', { name: 'Labels PDF' }).waitFor();
  await adminPage.screenshot({ path: await artifactPath('admin-bulk-recovered.png'), fullPage: true });
  await adminPage.context().close();

  const statuses = await query<{ id: string; status: string; refunded_count: number }>(
    'select id, status, refunded_count from orders.bulk_orders where id = any($1::uuid[])',
    [[first, second]],
  );
  expect(Object.fromEntries(statuses.map((o) => [o.id, [o.status, o.refunded_count]]))).toEqual({
    [first]: ['completed', 1],
    [second]: ['completed', 0],
  });
});
