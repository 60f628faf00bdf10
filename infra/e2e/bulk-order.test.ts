import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ApiCall, createStackApi, startStack } from '../src/testing/start-stack';
import { artifactPath } from './browser';
import { sharedBrowser, sharedStack } from './shared-stack';

// The Amazon sample turned into labels in the browser: upload, fix a flagged row,
// submit, watch the live window, download the three files and check what is in them.
const SAMPLE = fileURLToPath(
  new URL('../../services/order-files/test/fixtures/amazon-unshipped-sample.txt', import.meta.url),
);

/** What these tests use of a stack: the shared one, or one of their own with other carrier settings. */
type Stack = { url: string; adminEmail: string; adminPassword: string };
let browser: Browser;

beforeAll(async () => {
  browser = await sharedBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const api = <T>(stack: Stack, path: string, init?: ApiCall) => createStackApi(stack.url)<T>(path, init);

/** A funded seller with a saved sender address and presets for every SKU of the sample but one. */
async function seller(stack: Stack) {
  const email = `seller-${randomUUID()}@example.com`;
  const password = 'bulk-labels-77';
  const { token, user } = await api<{ token: string; user: { _id: string } }>(stack, '/api/auth/register', {
    method: 'POST',
    body: { name: 'Sam Seller', email, password, confirmPassword: password },
  });
  const admin = await api<{ token: string }>(stack, '/api/auth/login', {
    method: 'POST',
    body: { email: stack.adminEmail, password: stack.adminPassword },
  });
  await api(stack, `/api/auth/users/details/${user._id}`, {
    method: 'POST',
    token: admin.token,
    body: { balance: 500 },
  });
  await api(stack, `/api/auth/save-address/${user._id}`, {
    method: 'POST',
    token,
    body: {
      address_id: 'Warehouse',
      name: 'Sam Seller',
      street: '100 Congress Ave',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      country: 'US',
    },
  });
  const preset = (sku: string) => ({ sku, maxQty: 4, weight: 2, length: 10, width: 8, height: 4, description: sku });
  // CANDLE-CED-8OZ has no preset, so its row (first: SKU rows sort by SKU) is flagged.
  const skus = [
    'CANDLE-LAV-8OZ',
    'MUG-11OZ-BLU',
    'MUG-11OZ-WHT',
    'MUG-15OZ-BLK',
    'TEE-BLK-L',
    'TEE-BLK-M',
    'TEE-WHT-XL',
  ];
  await api(stack, `/api/auth/add-sku/${user._id}`, { method: 'POST', token, body: { parsedData: skus.map(preset) } });
  return { id: user._id, email, password };
}

interface SignedIn {
  context: BrowserContext;
  page: Page;
  /** The URLs of the WebSockets the page opened. */
  sockets: string[];
  /** What the browser said it refused under the Content Security Policy. */
  cspRefusals: string[];
}

async function signIn(stack: Stack, who: { email: string; password: string }): Promise<SignedIn> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const sockets: string[] = [];
  const cspRefusals: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) cspRefusals.push(m.text());
  });
  await page.goto(`${stack.url}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/main/dashboard');
  return { context, page, sockets, cspRefusals };
}

/** Loads the sample, fixes the flagged row, picks a service and submits. */
async function submitSample(page: Page, stack: Stack) {
  await page.goto(`${stack.url}/main/bulk-order`);
  await page.getByRole('heading', { name: 'Bulk Order Items' }).waitFor();
  await page.locator('input[type="file"]').setInputFiles(SAMPLE);
  await page.getByText('File Uploaded successfully.').first().waitFor();
  await page.getByText('1 row(s) have validation errors. Please check the table and fix them.').first().waitFor();
  await page.screenshot({ path: await artifactPath('bulk-loaded.png') });

  await page.getByRole('button', { name: 'Edit row 1', exact: true }).click();
  const dimensions: [string, string][] = [
    ['Length', '6'],
    ['Width', '6'],
    ['Height', '8'],
    ['Weight', '3'],
  ];
  for (const [label, value] of dimensions) {
    await page.getByLabel(`${label}, row 1`, { exact: true }).fill(value);
  }
  await page.getByRole('button', { name: 'Save' }).first().click();

  await page.getByLabel('Service', { exact: true }).selectOption({ label: 'USPS Ground Advantage' });
  await expect.poll(() => page.getByText('$65.00').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Submit' }).click();
}

async function download(page: Page, name: string): Promise<{ fileName: string; path: string }> {
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name, exact: true }).click(),
  ]);
  const path = await artifactPath(`bulk-${dl.suggestedFilename()}`);
  await dl.saveAs(path);
  return { fileName: dl.suggestedFilename(), path };
}

describe('bulk orders from an Amazon file', () => {
  test('become labels, a results CSV and the Amazon confirmation file', async () => {
    const stack = await sharedStack();
    const who = await seller(stack);
    const { context, page, sockets, cspRefusals } = await signIn(stack, who);
    // The live updates come over a WebSocket to the app's own origin, which the CSP allows ('self').
    const socketUrl = `${stack.url.replace(/^http/, 'ws')}/socket.io/`;
    await expect.poll(() => sockets.some((u) => u.startsWith(socketUrl)), { timeout: 20_000 }).toBe(true);
    await submitSample(page, stack);

    const window = page.getByRole('dialog', { name: 'Order Processed Successfully!' });
    await window.waitFor({ timeout: 60_000 });
    expect(cspRefusals).toEqual([]);
    await page.screenshot({ path: await artifactPath('bulk-processed.png') });
    await window.getByText('10 / 10').waitFor();

    // Every file comes through a download link of its own, never with the session token in the URL.
    const session = await page.evaluate(() => localStorage.getItem('token'));
    const fileUrls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/orders/download/')) fileUrls.push(r.url());
    });

    const pdf = await download(page, 'PDF');
    expect(pdf.fileName).toMatch(/^Labels_\d{2}-\d{2}\.pdf$/);
    const info = execFileSync('pdfinfo', [pdf.path]).toString();
    expect(info).toMatch(/Pages:\s+10\b/);
    const text = execFileSync('pdftotext', ['-layout', pdf.path, '-']).toString();
    expect(text).toContain('GRACE WHITFIELD');
    expect(text).toContain('USPS GROUND ADVANTAGE');

    const csv = await download(page, 'Results CSV');
    expect(csv.fileName).toMatch(/^Order_Results_\d{2}-\d{2}\.csv$/);
    const csvText = await readFile(csv.path, 'utf8');
    const csvLines = csvText.trim().split(/\r?\n/);
    expect(csvLines).toHaveLength(11);
    expect(csvText).toContain('Grace Whitfield');
    expect(csvText).toMatch(/\b\d{22}\b/);

    const tsv = await download(page, 'Auto-Confirm');
    expect(tsv.fileName).toMatch(/^Auto_Confirm_\d{2}-\d{2}\.tsv$/);
    const rows = (await readFile(tsv.path, 'utf8'))
      .trim()
      .split(/\r?\n/)
      .map((l) => l.split('\t'));
    expect(rows[0]).toEqual([
      'order-id',
      'order-item-id',
      'quantity',
      'ship-date',
      'carrier-code',
      'carrier-name',
      'tracking-number',
      'ship-method',
    ]);
    const grace = rows.find((r) => r[0] === '112-6641098-3390217');
    expect(grace?.[3]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(grace?.[4]).toBe('USPS');
    expect(grace?.[6]).toMatch(/^\d{22}$/);

    expect(fileUrls.map((u) => new URL(u).pathname.split('/')[4])).toEqual(['pdf', 'result-csv', 'auto-csv']);
    for (const u of fileUrls) {
      const token = new URL(u).searchParams.get('token');
      expect(token).toBeTruthy();
      expect(token).not.toBe(session);
    }
    await context.close();

    // An admin saves the same order's labels from Order Label Management, through a link of their own (the
    // seller's orders only: other files' orders are on the shared stack too).
    const admin = await signIn(stack, { email: stack.adminEmail, password: stack.adminPassword });
    await admin.page.goto(`${stack.url}/admin/order-label-management?userId=${who.id}`);
    await admin.page.getByRole('tab', { name: 'Bulk orders' }).click();
    const [saved] = await Promise.all([
      admin.page.waitForEvent('download'),
      admin.page.getByRole('button', { name: 'Labels PDF' }).first().click(),
    ]);
    expect(saved.url()).toMatch(/\/api\/orders\/download\/pdf\/[0-9a-f-]{36}\?token=/);
    const adminCopy = await artifactPath('bulk-admin-labels.pdf');
    await saved.saveAs(adminCopy);
    expect(execFileSync('pdfinfo', [adminCopy]).toString()).toMatch(/Pages:\s+10\b/);
    await admin.context.close();
  });

  test('unused labels are refunded from the progress window, one and then the rest, and the balance comes back once', async () => {
    const stack = await sharedStack();
    const who = await seller(stack);
    const { context, page } = await signIn(stack, who);
    await submitSample(page, stack);
    const window = page.getByRole('dialog', { name: 'Order Processed Successfully!' });
    await window.waitFor({ timeout: 60_000 });
    await window.getByText('10 / 10').waitFor();

    await window.getByRole('button', { name: 'Labels & Refunds' }).click();
    const labels = page.getByRole('dialog', { name: 'Labels of this batch' });
    await labels.getByRole('cell', { name: /Grace Whitfield/ }).waitFor();
    await expect.poll(() => labels.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(10);
    await page.screenshot({ path: await artifactPath('batch-labels.png') });

    // One label, from its row.
    const grace = labels.getByRole('row', { name: /Grace Whitfield/ });
    await grace.getByRole('button', { name: 'Refund', exact: true }).click();
    const askOne = page.getByRole('dialog', { name: 'Refund label' });
    await askOne.getByText('Refund this unused label ($6.50)?', { exact: false }).waitFor();
    await askOne.getByRole('button', { name: 'Request refund' }).click();
    await page.getByText('Refunded. $6.50 is back on the balance.').first().waitFor();
    await grace.getByText('Refunded').waitFor();

    // Every unused one left, after asking.
    await labels.getByRole('button', { name: 'Refund all unused (9)' }).click();
    const askAll = page.getByRole('dialog', { name: 'Refund unused labels' });
    await askAll.getByText('Refund 9 unused labels ($58.50)?', { exact: false }).waitFor();
    await page.screenshot({ path: await artifactPath('batch-refund-confirm.png') });
    await askAll.getByRole('button', { name: 'Request refunds' }).click();
    await page.getByText('9 refunded ($58.50 back on the balance)').first().waitFor();
    await labels.getByRole('button', { name: 'Refund all unused (0)' }).waitFor();
    await expect.poll(() => labels.getByText('Refunded', { exact: true }).count()).toBe(10);
    await page.screenshot({ path: await artifactPath('batch-labels-refunded.png') });
    await labels.getByRole('button', { name: 'Close', exact: true }).click();

    // The whole charge is back, once; the order counts every row as refunded.
    await page.goto(`${stack.url}/main/dashboard`);
    await page.getByText('$500.00').first().waitFor();
    // The order's count follows the refunds' events: Batch Orders shows it once they are in, after a reload if need be.
    await expect
      .poll(
        async () => {
          await page.goto(`${stack.url}/main/batch-orders`);
          // The seller's one order, listed under the header row.
          await page.getByRole('row').nth(1).waitFor();
          return page.getByText('10 refunded').count();
        },
        { timeout: 90_000 },
      )
      .toBeGreaterThan(0);
    await context.close();
  });

  test('with carrier failures offer a retry that recovers the failed labels', async () => {
    // Half of the sandbox purchases fail; a retry uses a new attempt key, so it can succeed.
    const stack = await startStack({ env: { CARRIER_FAILURE_RATE: '0.5' } });
    try {
      const who = await seller(stack);
      const { context, page } = await signIn(stack, who);
      await submitSample(page, stack);

      const window = page.getByRole('dialog', { name: /Order Processed With \d+ Failed Label\(s\)/ });
      await window.waitFor({ timeout: 60_000 }).catch(async (e) => {
        await page.screenshot({ path: await artifactPath('bulk-failures-timeout.png') });
        throw e;
      });
      await window.getByText(/label\(s\) failed to process\. Please check the error logs\./).waitFor();
      await page.screenshot({ path: await artifactPath('bulk-with-failures.png') });

      // Retry until nothing is left (each failed row fails again with probability 0.5). A retry's answer may come
      // before its rows settle (the server waits only so long), so each round waits for where the order ends: the
      // Retry button back for the rows that failed again, or the order done.
      const done = page.getByRole('dialog', { name: 'Order Processed Successfully!' });
      const retry = page.getByRole('button', { name: /^Retry \d+ Failed Label\(s\)$/ });
      for (let attempt = 0; attempt < 12; attempt++) {
        await retry.or(done).first().waitFor({ timeout: 60_000 });
        if ((await done.count()) > 0) break;
        await retry.click();
        await page.getByRole('button', { name: 'Retrying...' }).waitFor({ state: 'detached', timeout: 60_000 });
      }
      await done.waitFor({ timeout: 60_000 });
      await context.close();
    } finally {
      await stack.stop();
    }
    // A stack of its own started, then an order and its retries in the browser: minutes on a busy machine.
  }, 300_000);
});
