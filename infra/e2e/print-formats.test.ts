import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createStackApi } from '../src/testing/start-stack';
import { artifactPath } from './browser';
import { type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// The print setting in the browser: chosen on the Account page, then a single label and a batch's labels
// file downloaded as ZPL (the labels in row order), and as letter pages with two labels each.
const SAMPLE = fileURLToPath(
  new URL('../../services/order-files/test/fixtures/amazon-unshipped-sample.txt', import.meta.url),
);
const SKUS = [
  'CANDLE-CED-8OZ',
  'CANDLE-LAV-8OZ',
  'MUG-11OZ-BLU',
  'MUG-11OZ-WHT',
  'MUG-15OZ-BLK',
  'TEE-BLK-L',
  'TEE-BLK-M',
  'TEE-WHT-XL',
];

let browser: Browser;
beforeAll(async () => {
  browser = await sharedBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A funded seller with a sender address and a preset for every SKU of the sample (no row is flagged). */
async function seller(stack: SharedStack) {
  const api = createStackApi(stack.url);
  const email = `printer-${randomUUID()}@example.com`;
  const password = 'print-labels-77';
  const { token, user } = await api<{ token: string; user: { _id: string } }>('/api/auth/register', {
    method: 'POST',
    body: { name: 'Pat Printer', email, password, confirmPassword: password },
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
      name: 'Pat Printer',
      street: '100 Congress Ave',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      country: 'US',
    },
  });
  const preset = (sku: string) => ({ sku, maxQty: 4, weight: 2, length: 10, width: 8, height: 4, description: sku });
  await api(`/api/auth/add-sku/${user._id}`, { method: 'POST', token, body: { parsedData: SKUS.map(preset) } });
  // One single label, bought as the Order Label page buys it.
  await api('/api/orders/v2', {
    method: 'POST',
    token,
    body: {
      user_id: user._id,
      service_name: 'USPS Priority Mail',
      manifested: false,
      courier: 'usps',
      sender: {
        sender_name: 'Pat Printer',
        sender_phone: '',
        sender_company: '',
        sender_address1: '100 Congress Ave',
        sender_address2: '',
        sender_city: 'Austin',
        sender_state_province: 'TX',
        sender_zip_postal: '78701',
        sender_country: 'US',
      },
      receiver: {
        receiver_name: 'Rita Receiver',
        receiver_phone: '',
        receiver_company: '',
        receiver_address1: '2 Side Ave',
        receiver_address2: '',
        receiver_city: 'Los Angeles',
        receiver_state_province: 'CA',
        receiver_zip_postal: '90001',
        receiver_country: 'US',
      },
      package: {
        package_length: 10,
        package_width: 8,
        package_height: 4,
        package_weight: 2,
        package_weight_unit: 'LB',
        package_description: 'Books',
        package_reference1: '1',
        package_reference2: 'SKU-1',
      },
    },
  });
  return { email, password };
}

async function choosePrintFormat(page: Page, url: string, name: RegExp, screenshot?: string) {
  await page.goto(`${url}/main/account`);
  const printing = page.getByRole('region', { name: 'Printing' });
  await printing.getByRole('radio', { name }).check();
  await printing.getByRole('button', { name: 'Save print setting' }).click();
  await printing.getByRole('status').getByText('Print setting saved').waitFor();
  if (screenshot) {
    await printing.scrollIntoViewIfNeeded();
    await page.screenshot({ path: await artifactPath(screenshot) });
  }
}

async function saved(page: Page, click: () => Promise<void>): Promise<{ fileName: string; path: string }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await artifactPath(`print-${dl.suggestedFilename()}`);
  await dl.saveAs(path);
  return { fileName: dl.suggestedFilename(), path };
}

const zplBlocks = (zpl: string) => zpl.match(/\^XA[\s\S]*?\^XZ/g) ?? [];
/** The tracking number in a sandbox label's IMpb barcode field. */
const barcodeTracking = (block: string) => /\^FD>;>8420\d{5}>8(\d+)\^FS/.exec(block)?.[1];

describe('print formats', () => {
  test('ZPL for a single label and a batch in row order, then letter pages two labels each', async () => {
    const stack = await sharedStack();
    const who = await seller(stack);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${stack.url}/login`);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/main/dashboard');

    await choosePrintFormat(page, stack.url, /4x6 ZPL \(203 dpi\)/, 'account-print-setting.png');

    // The single label (bought before the setting changed), from Orders: saved as a .zpl, not opened in a tab.
    await page.goto(`${stack.url}/main/orders`);
    const zplButton = page.getByRole('button', { name: /^ZPL label for \d+$/ });
    const tracking = ((await zplButton.getAttribute('aria-label')) ?? '').replace('ZPL label for ', '');
    const single = await saved(page, () => zplButton.click());
    expect(single.fileName).toBe(`label-${tracking}.zpl`);
    const singleBlocks = zplBlocks(await readFile(single.path, 'utf8'));
    expect(singleBlocks).toHaveLength(1);
    // Bought as a PDF before the setting changed: the carrier's PDF, rasterised for a 203 dpi printer.
    expect(singleBlocks[0]).toContain('^PW812');
    expect(singleBlocks[0]).toContain('^GFA,124236,124236,102,');

    // A batch bought now: its labels come with the carrier's own ZPL. The progress window's labels button says
    // ZPL and saves them in row order.
    await page.goto(`${stack.url}/main/bulk-order`);
    await page.getByRole('heading', { name: 'Bulk Order Items' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles(SAMPLE);
    await page.getByText('File Uploaded successfully.').first().waitFor();
    await page.getByLabel('Service', { exact: true }).selectOption({ label: 'USPS Ground Advantage' });
    await page.getByRole('button', { name: 'Submit' }).click();
    const window = page.getByRole('dialog', { name: 'Order Processed Successfully!' });
    await window.waitFor({ timeout: 60_000 });
    await window.getByText('10 / 10').waitFor();
    await page.screenshot({ path: await artifactPath('print-progress-window-zpl.png') });
    const merged = await saved(page, () => window.getByRole('button', { name: 'ZPL', exact: true }).click());
    expect(merged.fileName).toMatch(/^Labels_\d{2}-\d{2}\.zpl$/);
    const blocks = zplBlocks(await readFile(merged.path, 'utf8'));
    expect(blocks).toHaveLength(10);
    // Row order: the results CSV lists the rows in order, each with its tracking number.
    const csv = await saved(page, () => window.getByRole('button', { name: 'Results CSV', exact: true }).click());
    const csvTracking = [...(await readFile(csv.path, 'utf8')).matchAll(/\b(\d{22})\b/g)].map((m) => m[1]);
    expect(csvTracking).toHaveLength(10);
    expect(blocks.map(barcodeTracking)).toEqual(csvTracking);
    await window.getByRole('button', { name: 'Close progress window' }).click();

    // Letter 2-up, from Batch Orders: 10 labels on 5 letter pages.
    await choosePrintFormat(page, stack.url, /Letter PDF, 2 labels per page/);
    await page.goto(`${stack.url}/main/batch-orders`);
    const letter = await saved(page, () =>
      page.getByRole('button', { name: 'PDF (Letter)', exact: true }).first().click(),
    );
    expect(letter.fileName).toMatch(/^Labels_\d{2}-\d{2}\.pdf$/);
    const info = execFileSync('pdfinfo', [letter.path], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+5\n/);
    expect(info).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
    // The first page as a person would print it (kept to look at): both its labels' barcodes scan, in row order.
    const png = letter.path.replace(/\.pdf$/, '');
    execFileSync('pdftoppm', ['-png', '-r', '300', '-f', '1', '-l', '1', '-singlefile', letter.path, png]);
    const scanned = execFileSync('zbarimg', ['--quiet', '--raw', `${png}.png`], { encoding: 'latin1' });
    const onPage = scanned
      .trim()
      .split('\n')
      .map((code) => code.slice(-22));
    expect(onPage.sort()).toEqual(csvTracking.slice(0, 2).sort());
    await context.close();
  });
});
