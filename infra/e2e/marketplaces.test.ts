import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createStackApi } from '../src/testing/start-stack';
import { artifactPath } from './browser';
import { type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// A Shopify export bought in the browser: where an Amazon order offers its Auto-Confirm file, the progress window
// and Batch Orders say that Shopify takes no tracking file. An Etsy file re-saved by Excel loads repaired. And one
// file of each new marketplace loads on the bulk page, recognised by its columns.
const fixture = (name: string) =>
  fileURLToPath(new URL(`../../services/order-files/test/fixtures/${name}`, import.meta.url));
const SHOPIFY_NOTE = 'Shopify takes no tracking file: mark orders shipped in Shopify (or with a Shopify app).';

let browser: Browser;
beforeAll(async () => {
  browser = await sharedBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A funded seller with a saved sender address and presets for the fixtures' SKUs. */
async function seller(stack: SharedStack) {
  const api = createStackApi(stack.url);
  const email = `seller-${randomUUID()}@example.com`;
  const password = 'bulk-labels-77';
  const { token, user } = await api<{ token: string; user: { _id: string } }>('/api/auth/register', {
    method: 'POST',
    body: { name: 'Sam Seller', email, password, confirmPassword: password },
  });
  const admin = await api<{ token: string }>('/api/auth/login', {
    method: 'POST',
    body: { email: stack.adminEmail, password: stack.adminPassword },
  });
  await api(`/api/auth/users/details/${user._id}`, { method: 'POST', token: admin.token, body: { balance: 500 } });
  await api(`/api/auth/save-address/${user._id}`, {
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
  const skus = ['mug-11oz-wht', 'mug-15oz-blu', 'tote-canvas', 'TEE-BLK-M', 'TEE-BLK-L', 'CANDLE-LAV-8OZ'];
  await api(`/api/auth/add-sku/${user._id}`, { method: 'POST', token, body: { parsedData: skus.map(preset) } });
  return { email, password };
}

async function signIn(stack: SharedStack, who: { email: string; password: string }) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${stack.url}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/main/dashboard');
  return { context, page };
}

describe('a marketplace that takes no tracking file', () => {
  test('a Shopify export is bought, and the progress window and Batch Orders say Shopify takes no tracking file', async () => {
    const stack = await sharedStack();
    const who = await seller(stack);
    const { context, page } = await signIn(stack, who);

    await page.goto(`${stack.url}/main/bulk-order`);
    await page.getByRole('heading', { name: 'Bulk Order Items' }).waitFor();
    // An Etsy file re-saved by Excel: tab-delimited Windows-1252, its mojibake and 4-digit ZIPs repaired.
    await page.locator('input[type="file"]').setInputFiles(fixture('etsy/EtsySoldOrders-excel.txt'));
    await page.getByText('File Uploaded successfully.').first().waitFor();
    await page.getByText('José Muñoz').first().waitFor();
    await page.getByText('07042').first().waitFor();
    await page.screenshot({ path: await artifactPath('etsy-loaded.png') });

    await page.getByRole('button', { name: 'Reset' }).click();
    await page.locator('input[type="file"]').setInputFiles(fixture('shopify/orders_export.csv'));
    await page.getByText('Mara Quinn').first().waitFor();
    await page.screenshot({ path: await artifactPath('shopify-loaded.png') });
    await page.getByLabel('Service', { exact: true }).selectOption({ label: 'USPS Ground Advantage' });
    await page.getByRole('button', { name: 'Submit' }).click();

    const window = page.getByRole('dialog', { name: 'Order Processed Successfully!' });
    await window.waitFor({ timeout: 60_000 });
    await window.getByText(SHOPIFY_NOTE).waitFor();
    expect(await window.getByRole('button', { name: 'Auto-Confirm' }).count()).toBe(0);
    await window.getByRole('button', { name: 'Results CSV' }).waitFor();
    await page.screenshot({ path: await artifactPath('bulk-progress-no-tracking-file.png') });

    await window.getByRole('button', { name: 'Close progress window' }).click();
    await page.goto(`${stack.url}/main/batch-orders`);
    const row = page.getByRole('table', { name: 'Batch Orders List' }).getByRole('row').nth(1);
    await row.getByText(SHOPIFY_NOTE).waitFor();
    expect(await row.getByRole('button', { name: 'Auto Confirm' }).count()).toBe(0);
    await page.screenshot({ path: await artifactPath('batch-orders-no-tracking-file.png'), fullPage: true });
    await context.close();
  });
});

describe('one file of each new marketplace', () => {
  test('Shopify, Etsy, eBay and TikTok Shop (CSV and xlsx) exports load on the bulk page as their rows', async () => {
    const stack = await sharedStack();
    const who = await seller(stack);
    const { context, page } = await signIn(stack, who);
    await page.goto(`${stack.url}/main/bulk-order`);
    await page.getByRole('heading', { name: 'Bulk Order Items' }).waitFor();
    await page
      .getByText(
        'Supports .csv / Amazon .txt, Walmart .xlsx, TikTok Shop .csv/.xlsx, eBay .csv, Shopify .csv and Etsy .csv',
      )
      .waitFor();

    const files: { file: string; rows: number; says: string[]; shot: string }[] = [
      {
        file: 'shopify/orders_export.csv',
        rows: 4,
        says: ['2 line item(s) that need no shipping were left out', '1 line item(s) already fulfilled were left out'],
        shot: 'marketplace-shopify.png',
      },
      {
        file: 'etsy/EtsySoldOrders-excel.txt',
        rows: 2,
        says: ['José Muñoz', 'Zoë Brandt'],
        shot: 'marketplace-etsy.png',
      },
      {
        file: 'ebay/ebay-orders-82.csv',
        rows: 4,
        says: ['Order(s) 12-10234-40004 already have a Shipped On Date and were left out.'],
        shot: 'marketplace-ebay.png',
      },
      { file: 'tiktok/tiktok-orders.csv', rows: 4, says: [], shot: 'marketplace-tiktok-csv.png' },
      { file: 'tiktok/tiktok-orders.xlsx', rows: 4, says: [], shot: 'marketplace-tiktok-xlsx.png' },
    ];
    for (const { file, rows, says, shot } of files) {
      await page.locator('input[type="file"]').setInputFiles(fixture(file));
      await page.getByText('File Uploaded successfully.').first().waitFor();
      for (const text of says) await page.getByText(text, { exact: false }).first().waitFor();
      await expect.poll(() => page.locator('tbody tr').count(), { message: file }).toBe(rows);
      await page.screenshot({ path: await artifactPath(shot), fullPage: true });
      await page.getByRole('button', { name: 'Reset' }).click();
      await expect.poll(() => page.locator('tbody tr').count()).toBe(0);
    }
    await context.close();
  });
});
