import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createStackApi } from '../src/testing/start-stack';
import { artifactPath } from './browser';
import { type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// Deleting a row of a loaded order file asks first (the table's confirmation dialog) and works from the keyboard.
let stack: SharedStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(), sharedBrowser()]);
});

afterAll(async () => {
  await browser?.close();
});

const HEADER =
  'From Name,From Street 1,From City,From State,From Zip,To Name,To Street 1,To City,To State,To Zip,Length,Width,Height,Weight';
const line = (to: string, i: number) =>
  `Jane Shipper,1 Main St,Springfield,IL,62701,${to},${i + 1} Oak Ave,Austin,TX,73301,10,8,4,2`;
const RECIPIENTS = ['Bob Buyer', 'Carla Client', 'Dana Dealer'];

test('a bulk row is deleted only after the confirmation, with the keyboard alone', async () => {
  const email = `bulk-delete-${randomUUID()}@example.com`;
  const password = 'delete-rows-1';
  await createStackApi(stack.url)('/api/auth/register', {
    method: 'POST',
    body: { name: 'Rowan Rows', email, password, confirmPassword: password },
  });
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${stack.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/main/dashboard');

  await page.goto(`${stack.url}/main/bulk-order`);
  await page.getByRole('heading', { name: 'Bulk Order Items' }).waitFor();
  await page.locator('input[type="file"]').setInputFiles({
    name: 'orders.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from([HEADER, ...RECIPIENTS.map(line)].join('\n')),
  });
  await page.getByText('File Uploaded successfully.').first().waitFor();
  const recipients = () => page.locator('tbody tr[data-row-id] td[data-field="ToRecipientName"]').allTextContents();
  await expect.poll(recipients).toEqual(RECIPIENTS);

  // Focus the Delete button of row 2 and open the dialog with Enter: Cancel has the focus, Escape keeps the row.
  await page.getByRole('button', { name: 'Delete row 2' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Delete row 2' });
  await dialog.getByText('Are you sure you want to delete this item?').waitFor();
  await expect
    .poll(() => dialog.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement))
    .toBe(true);
  await page.screenshot({ path: await artifactPath('bulk-row-delete-confirm.png') });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await recipients()).toEqual(RECIPIENTS);

  // Enter, Tab to Confirm, Enter: the row goes and focus is on the Delete button of the row that took its place.
  await page.keyboard.press('Enter');
  await dialog.waitFor();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
  await expect.poll(recipients).toEqual(['Bob Buyer', 'Dana Dealer']);
  await page.getByText('Row deleted successfully!').waitFor();
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Delete row 2');
  expect(await page.getByTestId('bulk-count').textContent()).toBe('2');
  await page.screenshot({ path: await artifactPath('bulk-row-deleted.png') });
  await context.close();
});
