import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bulkItems } from '../../services/orders/test/bulk-support';
import { type ApiCall, createStackApi, registerFundedCustomer } from '../src/testing/start-stack';
import { artifactPath } from './browser';
import { type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// A seller makes SCAN forms in the browser: one for a bulk order's labels from Batch Orders, one for today's single
// labels from Orders, and downloads each: a PS Form 5630 PDF listing exactly those labels.
let stack: SharedStack;
let browser: Browser;
let context: BrowserContext | undefined;
let work: string;

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(), sharedBrowser()]);
  work = await mkdtemp(join(tmpdir(), 'scan-forms-e2e-'));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const api = <T>(path: string, init?: ApiCall) => createStackApi(stack.url)<T>(path, init);
const label = (userId: string, receiver: string) => ({
  user_id: userId,
  service_name: 'USPS Priority Mail',
  sender: {
    sender_name: 'Sid Shipper',
    sender_address1: '1 Main St',
    sender_city: 'Austin',
    sender_state_province: 'TX',
    sender_zip_postal: '73301',
    sender_country: 'US',
  },
  receiver: {
    receiver_name: receiver,
    receiver_address1: '2 Side Ave',
    receiver_city: 'Los Angeles',
    receiver_state_province: 'CA',
    receiver_zip_postal: '90001',
    receiver_country: 'US',
  },
  package: { package_length: 10, package_width: 8, package_height: 4, package_weight: 2, package_weight_unit: 'LB' },
});

/** Opens a form's PDF from its button (a new tab through a download link) and reads its text. */
async function openForm(page: Page, button: ReturnType<Page['getByRole']>, name: string): Promise<string> {
  const [tab, opened] = await Promise.all([
    page.context().waitForEvent('page'),
    page.context().waitForEvent('response', (r) => r.url().includes('/api/orders/download/scan-form/')),
    button.click(),
  ]);
  expect(opened.status()).toBe(200);
  expect(opened.headers()['content-type']).toContain('application/pdf');
  const pdf = await page.request.get(opened.url());
  expect(pdf.status()).toBe(200);
  const body = await pdf.body();
  expect(body.subarray(0, 5).toString()).toBe('%PDF-');
  await tab.close();
  const file = join(work, `${name}.pdf`);
  await writeFile(file, body);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, '');
}

test('a SCAN form from Batch Orders and one from Orders, each a PDF listing its labels', async () => {
  const email = `scan-${randomUUID()}@example.com`;
  const password = 'scan-form-5630';
  const seller = await registerFundedCustomer(
    api,
    { email: stack.adminEmail, password: stack.adminPassword },
    { email, password, balance: 200, name: 'Sid Shipper' },
  );
  const as = { token: seller.token };

  // Three labels in a bulk order, two single labels; all bought before the browser opens.
  const { data } = await api<{ data: { orderId: string } }>('/api/orders/bulk/init', {
    method: 'POST',
    ...as,
    body: { userId: seller.id },
  });
  await api(`/api/orders/bulk/process/${seller.id}`, {
    method: 'POST',
    ...as,
    body: { orderId: data.orderId, orderData: bulkItems(3), fileName: 'scan-forms.csv' },
  });
  const singles: string[] = [];
  for (let i = 0; i < 2; i++) {
    const bought = await api<{ data: { tracking_number: string } }>('/api/orders/v2', {
      method: 'POST',
      ...as,
      body: label(seller.id, `Receiver ${i}`),
    });
    singles.push(bought.data.tracking_number);
  }
  await expect
    .poll(
      async () =>
        (
          await api<{ bulkOrders: { _id: string; status: string }[] }>(`/api/orders/bulk/${seller.id}`, as)
        ).bulkOrders.find((o) => o._id === data.orderId)?.status,
      { timeout: 60_000, interval: 250 },
    )
    .toBe('completed');
  const batchLabels = (
    await api<{ labels: { trackingNumber: string | null }[] }>(`/api/orders/bulk/labels/${data.orderId}`, as)
  ).labels.map((l) => l.trackingNumber as string);
  expect(batchLabels).toHaveLength(3);

  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${stack.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/main/dashboard');

  // Batch Orders: the order offers "Create SCAN form" for its 3 labels; once made, its form is there to download.
  await page.goto(`${stack.url}/main/batch-orders`);
  const create = page.getByRole('button', { name: 'Create SCAN form', exact: true });
  await create.waitFor();
  await page.screenshot({ path: await artifactPath('scan-forms-batch-orders-before.png'), fullPage: true });
  await create.click();
  await page.getByText('SCAN form created for 3 labels.').waitFor();
  const batchForm = page.getByRole('button', { name: /^Download SCAN form SF\d{12} \(3 labels\)$/ });
  await batchForm.waitFor();
  await expect.poll(() => create.count()).toBe(0);
  await page.screenshot({ path: await artifactPath('scan-forms-batch-orders-after.png'), fullPage: true });
  const batchText = await openForm(page, batchForm, 'batch');
  expect(batchText).toContain('PSForm5630');
  for (const t of batchLabels) expect(batchText.replace(/\s/g, '')).toContain(t);
  for (const t of singles) expect(batchText.replace(/\s/g, '')).not.toContain(t);

  // Orders: one form for today's two single labels (the batch's are on their own form already).
  await page.goto(`${stack.url}/main/orders`);
  const today = page.getByRole('button', { name: 'Create SCAN form for today (2 labels)' });
  await today.waitFor();
  await page.screenshot({ path: await artifactPath('scan-forms-orders-before.png'), fullPage: true });
  await today.click();
  await page.getByText('SCAN form created for 2 labels.').waitFor();
  const list = page.getByRole('list', { name: "Today's SCAN forms" });
  await list.waitFor();
  await page.getByRole('button', { name: 'Create SCAN form for today (0 labels)' }).waitFor();
  await page.screenshot({ path: await artifactPath('scan-forms-orders-after.png'), fullPage: true });
  const dayText = await openForm(
    page,
    list.getByRole('button', { name: /^Download SCAN form SF\d{12} \(2 labels\)$/ }),
    'day',
  );
  for (const t of singles) expect(dayText.replace(/\s/g, '')).toContain(t);
  for (const t of batchLabels) expect(dayText.replace(/\s/g, '')).not.toContain(t);

  // On a phone: the panel and its list wrap to the width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await list.waitFor();
  await page.screenshot({ path: await artifactPath('scan-forms-orders-mobile.png'), fullPage: true });
  await context.close();
  context = undefined;
});
