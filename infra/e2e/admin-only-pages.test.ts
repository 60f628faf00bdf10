import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ApiCall, createStackApi } from '../src/testing/start-stack';
import { artifactPath, logIn, newContext } from './browser';
import { type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// Pages for some roles only: an admin sees the carrier balance on the dashboard (warned when it runs low), and
// a customer who opens an admin page or the Invites page by its address lands on their own dashboard, told why.
// The shared stack's sandbox carrier reports $42.50, below the default warning threshold ($100): see SHARED_STACK_ENV.
let stack: SharedStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(), sharedBrowser()]);
});

afterAll(async () => {
  await browser?.close();
});

const call = <T>(path: string, init?: ApiCall) => createStackApi(stack.url)<T>(path, init);

test('an admin sees the carrier balance on the dashboard, with a warning once it is below the threshold', async () => {
  const { context, page } = await newContext(browser);
  await logIn(page, stack.url, stack.adminEmail, stack.adminPassword);
  await page.goto(`${stack.url}/admin/dashboard`);
  const card = page.getByRole('region', { name: 'Carrier balance' });
  await card.getByText('$42.50').waitFor();
  await card
    .getByText(
      'Carrier balance is low: below $100.00. Top up the carrier account, or label purchases will start to fail.',
    )
    .waitFor();
  await page.getByText('Recent Activity').waitFor();
  await page.screenshot({ path: await artifactPath('admin-carrier-balance-low.png'), fullPage: true });
  await context.close();
});

test('a customer who opens the Invites page or an admin page by its address lands on their dashboard, told why', async () => {
  const email = `plain-${randomUUID()}@example.com`;
  const password = 'plain-user-1';
  const { token } = await call<{ token: string }>('/api/auth/register', {
    method: 'POST',
    body: { name: 'Pat Plain', email, password, confirmPassword: password },
  });
  // The server holds the same lines.
  await expect(call('/api/auth/api/balance', { token })).rejects.toThrow('→ 403');

  const { context, page } = await newContext(browser);
  await logIn(page, stack.url, email, password);
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400) refused.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });

  const cases = [
    { path: '/main/invite', message: 'Invites are available to friends and admins.', shot: 'guard-invite.png' },
    { path: '/main/admin', message: 'That page is for admins only.', shot: 'guard-main-admin.png' },
    { path: '/admin/user-management', message: 'That page is for admins only.', shot: 'guard-admin.png' },
  ];
  for (const { path, message, shot } of cases) {
    await page.goto(`${stack.url}${path}`);
    await page.waitForURL(`${stack.url}/main/dashboard`);
    await page.getByRole('status').filter({ hasText: message }).waitFor();
    await page.getByText('Welcome back, Pat Plain').waitFor();
    await page.screenshot({ path: await artifactPath(shot), fullPage: true });
  }
  // The pages were never shown, so none of their calls was made and refused.
  expect(refused).toEqual([]);
  await context.close();
});
