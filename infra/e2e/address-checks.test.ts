import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ApiCall, createStackApi } from '../src/testing/start-stack';
import { artifactPath } from './browser';
import { type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// Addresses checked before paying, on the shared stack with the sandbox carrier, which checks ZIPs against the USPS
// ZIP codes: 350 Fifth Avenue, New York, NY with Brooklyn's ZIP 11201 is corrected to New York's 10001; ZIP 00000
// does not exist. A saved address, a single label and a bulk file each get the correction and take it.
let stack: SharedStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(), sharedBrowser()]);
});
afterAll(async () => {
  await browser?.close();
});

const api = <T>(path: string, init?: ApiCall) => createStackApi(stack.url)<T>(path, init);
const SUGGESTED = /^350 FIFTH AVE, NEW YORK, NY 10001-\d{4}$/;

async function signedInSeller(): Promise<Page> {
  const email = `checker-${randomUUID()}@example.com`;
  const password = 'check-first-42';
  const { user } = await api<{ user: { _id: string } }>('/api/auth/register', {
    method: 'POST',
    body: { name: 'Cora Checker', email, password, confirmPassword: password },
  });
  const admin = await api<{ token: string }>('/api/auth/login', {
    method: 'POST',
    body: { email: stack.adminEmail, password: stack.adminPassword },
  });
  await api(`/api/auth/users/details/${user._id}`, { method: 'POST', token: admin.token, body: { balance: 100 } });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${stack.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/main/dashboard');
  return page;
}

test('a saved address and a single label get "We suggest", and the label is bought to the suggested address', async () => {
  const page = await signedInSeller();

  // A saved address is checked as it is saved: the address book offers the correction.
  await page.goto(`${stack.url}/main/address`);
  await page.getByRole('button', { name: 'Add Address' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Address' });
  for (const [label, value] of [
    ['Address ID', 'Office'],
    ['Name', 'Cora Checker'],
    ['Street', '350 Fifth Avenue'],
    ['City', 'New York'],
    ['ZIP', '11201'],
  ]) {
    await dialog.getByLabel(label as string, { exact: true }).fill(value as string);
  }
  await dialog.getByLabel('State', { exact: true }).selectOption('NY');
  await dialog.getByRole('button', { name: 'Add Address' }).click();
  const checks = page.getByRole('list', { name: 'Address checks' });
  await expect.poll(() => checks.getByText(SUGGESTED).count()).toBe(1);
  await page.screenshot({ path: await artifactPath('address-saved-check.png') });
  await checks.getByRole('button', { name: 'Use suggested' }).click();
  await page.getByText('Address updated to the suggested one').first().waitFor();
  await page.getByRole('cell', { name: /^10001-\d{4}$/ }).waitFor();

  // The single label: the saved (now verified) From address, a To address typed with a ZIP that does not exist.
  await page.goto(`${stack.url}/main/order-label`);
  await page.locator('select#order-service').selectOption({ label: 'USPS Priority Mail' });
  const from = page.getByRole('region', { name: 'From Address' });
  await from.getByRole('combobox', { name: 'Saved address' }).fill('Office');
  await page.keyboard.press('Enter');
  const pkg = page.getByRole('region', { name: 'Package Information' });
  for (const [label, value] of [
    ['Length', '10'],
    ['Width', '8'],
    ['Height', '4'],
    ['Weight (lbs)', '2'],
  ]) {
    await pkg.getByLabel(label as string, { exact: true }).fill(value as string);
  }
  const to = page.getByRole('region', { name: 'To Address' });
  await to.getByLabel('Name', { exact: true }).fill('Dana Receiver');
  await to.getByLabel('Street', { exact: true }).fill('350 Fifth Avenue');
  await to.getByLabel('City', { exact: true }).fill('New York');
  await to.getByRole('combobox', { name: 'State' }).fill('NY');
  await page.keyboard.press('Enter');
  await to.getByLabel('ZIP code', { exact: true }).fill('00000');
  await to.getByRole('alert').getByText('The ZIP code 00000 does not exist.').waitFor();
  await page.screenshot({ path: await artifactPath('single-label-undeliverable.png'), fullPage: true });
  // The From address was saved checked: only the To address is asked about.
  await expect(from.getByText('Checking address…').count()).resolves.toBe(0);

  // With Brooklyn's ZIP the carrier suggests New York's.
  await to.getByLabel('ZIP code', { exact: true }).fill('11201');
  const suggestion = to.getByRole('group', { name: 'Suggested address' });
  await expect.poll(() => suggestion.getByText(SUGGESTED).count()).toBe(1);
  await page.screenshot({ path: await artifactPath('single-label-suggestion.png'), fullPage: true });
  await suggestion.getByRole('button', { name: 'Use suggested' }).click();
  await expect(to.getByLabel('ZIP code', { exact: true }).inputValue()).resolves.toMatch(/^10001-\d{4}$/);
  await to.getByText('Address checked').waitFor();
  await page.getByRole('button', { name: 'Order Label' }).click();
  await page.getByRole('dialog', { name: 'Label Created Successfully!' }).waitFor();
  await page.context().close();
});

test('a bulk file with a row the check corrects: Check addresses, accept the correction, buy', async () => {
  const page = await signedInSeller();
  const header =
    'From Name,From Street 1,From City,From State,From Zip,To Name,To Street 1,To City,To State,To Zip,Length,Width,Height,Weight';
  const row = (name: string, street: string, city: string, state: string, zip: string) =>
    ['Cora Checker', '100 Congress Ave', 'Austin', 'TX', '78701', name, street, city, state, zip, 10, 8, 4, 2].join(
      ',',
    );
  const file = await artifactPath('address-check-orders.csv');
  await writeFile(
    file,
    [
      header,
      row('Ann Austin', '4410 Burnet Rd', 'Austin', 'TX', '78756'),
      row('Ned New York', '350 Fifth Avenue', 'New York', 'NY', '11201'),
      row('Sam Mateo', '2187 Larkspur Ave', 'San Mateo', 'CA', '94401'),
    ].join('\n'),
  );
  await page.goto(`${stack.url}/main/bulk-order`);
  await page.getByRole('heading', { name: 'Bulk Order Items' }).waitFor();
  await page.locator('input[type="file"]').setInputFiles(file);
  await page.getByText('File Uploaded successfully.').first().waitFor();

  await page.getByRole('button', { name: 'Check addresses' }).click();
  const check = page.getByRole('region', { name: 'Address check' });
  await check.getByText('1 corrected, 0 undeliverable').waitFor();
  await expect.poll(() => check.getByText(SUGGESTED).count()).toBe(1);
  await page.screenshot({ path: await artifactPath('bulk-address-check.png'), fullPage: true });
  await check.getByRole('button', { name: 'Accept all corrections (1)' }).click();
  const nedRow = page.locator('tbody tr', { hasText: 'Ned New York' });
  await expect.poll(() => nedRow.locator('td[data-field="ToZipPostal"]').textContent()).toMatch(/^10001-\d{4}$/);

  await page.getByLabel('Service', { exact: true }).selectOption({ label: 'USPS Priority Mail' });
  await page.getByRole('button', { name: 'Submit' }).click();
  const window = page.getByRole('dialog', { name: 'Order Processed Successfully!' });
  await window.waitFor({ timeout: 60_000 });
  await window.getByText('3 / 3').waitFor({ timeout: 60_000 });
  await page.context().close();
});
