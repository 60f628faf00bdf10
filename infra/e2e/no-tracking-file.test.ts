import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createStackApi } from '../src/testing/start-stack';
import { artifactPath } from './browser';
import { type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// A Shopify export bought in the browser: where an Amazon order offers its Auto-Confirm file, the progress window
// and Batch Orders say that Shopify takes no tracking file. An Etsy file re-saved by Excel loads repaired.
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
  const skus = ['mug-11oz-wht', 'mug-15oz-blu', 'tote-canvas'];
  await api(`/api/auth/add-sku/${user._id}`, { method: 'POST', token, body: { parsedData: skus.map(preset) } });
  return { email, password };
}

describe('a marketplace that takes no tracking file', () => {
  test('a Shopify export is bought, and the progress window and Batch Orders say Shopify takes no tracking file', async () => {
    const stack = await sharedStack();
    const who = await seller(stack);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${stack.url}/login`);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/main/dashboard');

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
