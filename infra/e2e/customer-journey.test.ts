import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactPath } from './browser';
import { type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// The whole product as `make start` runs it, driven through a real browser.
let stack: SharedStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(), sharedBrowser()]);
});

afterAll(async () => {
  await browser?.close();
});

async function newPage(width = 1280, height = 800): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

describe('a newcomer', () => {
  const email = `newcomer-${randomUUID()}@example.com`;
  const name = 'Rosa <b>Parcel</b> & Sons';
  const password = 'correct-horse-9';

  test('goes from the landing page to their dashboard, logs out, and sees the server message for a wrong password', async () => {
    const page = await newPage();
    await page.goto(stack.url);
    await page.getByRole('button', { name: 'Get Started' }).first().waitFor();
    await page.screenshot({ path: await artifactPath('landing.png'), fullPage: true });

    await page.getByRole('button', { name: 'Get Started' }).first().click();
    await page.waitForURL('**/register');
    await page.getByRole('heading', { name: 'Create an Account' }).waitFor();

    await page.getByLabel(/^name/i).fill(name);
    await page.getByLabel(/^email/i).fill(email);
    await page.getByLabel(/^password/i).fill(password);
    await page.getByLabel(/confirm/i).fill(password);
    await page.getByRole('button', { name: /register|create|sign up/i }).click();

    await page.waitForURL('**/onboarding');
    await page.getByText('Welcome to Our Platform!').waitFor();
    await page.getByRole('button', { name: 'Skip for now' }).first().click();

    await page.waitForURL('**/main/dashboard');
    // The name is rendered as text: the HTML in it must not become markup.
    await page.getByRole('heading', { name: `Welcome back, ${name}` }).waitFor();
    expect(await page.locator('b', { hasText: 'Parcel' }).count()).toBe(0);
    await page.getByText('No orders found').waitFor();
    await page.screenshot({ path: await artifactPath('dashboard.png'), fullPage: true });

    // Logout from the avatar menu.
    await page.getByRole('button', { name: /account menu|avatar|user menu/i }).click();
    await page
      .getByRole('menuitem', { name: 'Logout' })
      .or(page.getByRole('button', { name: 'Logout' }))
      .first()
      .click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // The guard sends a signed-out visitor back to /login.
    await page.goto(`${stack.url}/main/dashboard`);
    await page.waitForURL('**/login');

    await page.getByLabel(/email/i).fill(email);
    await page.getByLabel(/password/i).fill('not-the-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Invalid email or password').waitFor();

    await page.getByLabel(/password/i).fill(password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/main/dashboard');
    await page.close();
  });
});
