import { randomUUID } from 'node:crypto';
import type { AuditReply } from '@flatship/proto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ApiCall, createStackApi } from '../src/testing/start-stack';
import { artifactPath } from './browser';
import { type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// The admin area driven in a real browser against the whole product: blocking a
// signed-in customer, buying a label for a customer through Login As, and a
// per-user price that the customer's next quote uses.
let stack: SharedStack;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(), sharedBrowser()]);
});

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
});

const api = <T>(path: string, init?: ApiCall) => createStackApi(stack.url)<T>(path, init);

interface Customer {
  id: string;
  name: string;
  email: string;
  password: string;
}

async function registerCustomer(name: string): Promise<Customer> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${randomUUID()}@example.com`;
  const password = 'parcel-post-42';
  const { user } = await api<{ user: { _id: string } }>('/api/auth/register', {
    method: 'POST',
    body: { name, email, password, confirmPassword: password },
  });
  return { id: user._id, name, email, password };
}

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

async function signIn(page: Page, email: string, password: string, landing: string) {
  await page.goto(`${stack.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`**${landing}`);
}

/** The admin on user management with the table narrowed to one customer by the search box. */
async function adminFinds(customer: Customer): Promise<Page> {
  const page = await newPage();
  await signIn(page, stack.adminEmail, stack.adminPassword, '/main/dashboard');
  await page.getByRole('link', { name: 'Admin Panel' }).click();
  await page.waitForURL('**/admin/dashboard');
  await page.getByRole('link', { name: 'User Management' }).click();
  await page.waitForURL('**/admin/user-management');
  await page.getByLabel('Search users').fill(customer.email);
  await page.getByRole('cell', { name: customer.email }).waitFor();
  return page;
}

async function fillTo(page: Page) {
  const to = page.getByRole('region', { name: 'To Address' });
  const from = page.getByRole('region', { name: 'From Address' });
  await from.getByLabel('Name', { exact: true }).fill('Bea Sender');
  await from.getByLabel('Street', { exact: true }).fill('100 Congress Ave');
  await from.getByLabel('City', { exact: true }).fill('Austin');
  await from.getByLabel('ZIP code', { exact: true }).fill('78701');
  await to.getByLabel('Name', { exact: true }).fill('Carl Receiver');
  await to.getByLabel('Street', { exact: true }).fill('1 Market St');
  await to.getByLabel('City', { exact: true }).fill('San Francisco');
  await to.getByLabel('ZIP code', { exact: true }).fill('94105');
}

async function fillPackage(page: Page, weight: string) {
  const pkg = page.getByRole('region', { name: 'Package Information' });
  await pkg.getByLabel('Length', { exact: true }).fill('10');
  await pkg.getByLabel('Width', { exact: true }).fill('8');
  await pkg.getByLabel('Height', { exact: true }).fill('4');
  await pkg.getByLabel('Weight (lbs)', { exact: true }).fill(weight);
}

test('blocking a signed-in customer sends their browser to the login page', async () => {
  const customer = await registerCustomer('Bram Barred');
  const customerPage = await newPage();
  await signIn(customerPage, customer.email, customer.password, '/main/dashboard');
  await customerPage.getByText('No orders found').waitFor();

  const admin = await adminFinds(customer);
  await admin.getByRole('button', { name: `Block ${customer.name}` }).click();
  await admin.getByRole('button', { name: `Allow ${customer.name}` }).waitFor();
  await admin
    .getByRole('row', { name: new RegExp(customer.email) })
    .getByText('Blocked', { exact: true })
    .waitFor();
  await admin.screenshot({ path: await artifactPath('admin-blocked-user.png') });

  // Without the customer doing anything: the gateway closes the blocked user's real-time connection, which the
  // app holds for the whole session, and the app signs out at once.
  // Usually well within a second; the limit leaves room for a loaded test machine.
  await customerPage.waitForURL('**/login', { timeout: 15_000 });
  expect(await customerPage.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await customerPage.screenshot({ path: await artifactPath('blocked-user-at-login.png') });

  // The blocked customer cannot sign in again.
  await customerPage.getByLabel('Email').fill(customer.email);
  await customerPage.getByLabel('Password').fill(customer.password);
  await customerPage.getByRole('button', { name: 'Login' }).click();
  await customerPage
    .getByRole('alert')
    .filter({ hasText: /blocked/i })
    .first()
    .waitFor();
});

test('an admin signed in as a customer buys a label for them, and the audit names both', async () => {
  const customer = await registerCustomer('Ines Impersonated');
  const adminLogin = await api<{ token: string; user: { _id: string } }>('/api/auth/login', {
    method: 'POST',
    body: { email: stack.adminEmail, password: stack.adminPassword },
  });

  const page = await adminFinds(customer);
  // Fund the customer from the balance cell of the table.
  const row = page.getByRole('row', { name: new RegExp(customer.email) });
  await row.getByRole('button', { name: `Edit balance of ${customer.name}` }).click();
  await row.getByLabel(`balance of ${customer.name}`, { exact: true }).fill('25');
  await row.getByRole('button', { name: 'Save', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Save changes' });
  await confirm.getByText(`Set the balance of ${customer.name} to $25.00?`).waitFor();
  await confirm.getByRole('button', { name: 'Save', exact: true }).click();
  await confirm.waitFor({ state: 'hidden' });
  await row.getByText('$25.00').waitFor();

  await page.getByRole('button', { name: `Login as ${customer.name}` }).click();
  await page.waitForURL('**/main/dashboard', { timeout: 15_000 });
  const banner = page.getByRole('region', { name: 'Signed in as another user' });
  await banner.getByText(customer.email).waitFor();
  // The session is short, and the banner says when it ends: the time, with its date when that is tomorrow (a run
  // shortly before midnight).
  await banner.getByText(/This session ends at (\d{2}-\d{2}-\d{4} )?\d{2}:\d{2}\./).waitFor();
  await page.getByText('$25.00').first().waitFor();
  await page.screenshot({ path: await artifactPath('login-as-dashboard.png') });

  await page.getByRole('link', { name: 'Order Label' }).first().click();
  await page.waitForURL('**/main/order-label');
  await page.locator('select#order-service').selectOption({ label: 'USPS Priority Mail' });
  await fillTo(page);
  await fillPackage(page, '3');
  await expect.poll(() => page.getByTestId('label-price').textContent(), { timeout: 10_000 }).toContain('$8.95');
  await page.getByRole('button', { name: 'Order Label' }).click();
  const success = page.getByRole('dialog', { name: 'Label Created Successfully!' });
  await success.getByRole('button', { name: 'Download Label PDF' }).waitFor();
  await page.screenshot({ path: await artifactPath('login-as-label-bought.png') });
  // The label opens through a download link made under the login-as session.
  const [tab, opened] = await Promise.all([
    page.context().waitForEvent('page'),
    page.context().waitForEvent('response', (r) => r.url().includes('/api/orders/download/v2/')),
    success.getByRole('button', { name: 'Download Label PDF' }).click(),
  ]);
  expect(opened.status()).toBe(200);
  expect(opened.headers()['content-type']).toContain('application/pdf');
  await tab.close();
  await success.getByRole('button', { name: 'Close', exact: true }).click();

  // The purchase is in the audit under the admin and the customer.
  const audit = await api<AuditReply>(`/api/admin/audit?userId=${customer.id}`, { token: adminLogin.token });
  const purchase = audit.entries.find((e) => e.method === 'POST' && e.path.startsWith('/api/orders/v2'));
  expect(purchase).toMatchObject({ adminId: adminLogin.user._id, userId: customer.id, userEmail: customer.email });
  expect(purchase?.status).toBeLessThan(300);

  const loginAsToken = await page.evaluate(() => localStorage.getItem('token'));
  await banner.getByRole('button', { name: 'Back to admin' }).click();
  await page.waitForURL('**/admin/user-management');
  await page
    .getByRole('heading', { name: /user management/i })
    .first()
    .waitFor();
  expect(await page.evaluate(() => localStorage.getItem('adminSession'))).toBeNull();
  // Going back ended the Login As token on the server: a copy of it no longer works.
  const verifyWith = (token: string | null) =>
    fetch(`${stack.url}/api/auth/verify`, { headers: token ? { token } : {} }).then((r) => r.status);
  await expect.poll(() => verifyWith(loginAsToken), { timeout: 15_000 }).toBe(401);
  expect(await verifyWith(await page.evaluate(() => localStorage.getItem('token')))).toBe(200);
});

test("a customer's next quote uses the price the admin set for them", async () => {
  const customer = await registerCustomer('Pia Pricelist');
  const admin = await adminFinds(customer);
  await admin.getByRole('button', { name: `Services of ${customer.name}` }).click();
  const overlay = admin.getByRole('dialog', { name: `Services for ${customer.name}` });
  const card = overlay.getByRole('region', { name: 'USPS Priority Mail', exact: true });
  await card.getByLabel('Range 1 price').fill('3.21');
  const [saved] = await Promise.all([
    admin.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/prices')),
    card.getByRole('button', { name: 'Save prices' }).click(),
  ]);
  expect(saved.status()).toBe(200);
  await admin.getByRole('status').filter({ hasText: 'Prices updated successfully' }).waitFor();
  await admin.screenshot({ path: await artifactPath('admin-user-price-saved.png') });

  const page = await newPage();
  await signIn(page, customer.email, customer.password, '/main/dashboard');
  await page.goto(`${stack.url}/main/order-label`);
  await page.locator('select#order-service').selectOption({ label: 'USPS Priority Mail' });
  await fillPackage(page, '3');
  await expect.poll(() => page.getByTestId('label-price').textContent(), { timeout: 10_000 }).toContain('$3.21');
  await page.screenshot({ path: await artifactPath('customer-quote-with-user-price.png'), fullPage: true });
});
