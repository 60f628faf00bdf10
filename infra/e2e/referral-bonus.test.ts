import { randomUUID } from 'node:crypto';
import type { SessionUser } from '@flatship/proto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ApiCall, createStackApi, settleInvoice } from '../src/testing/start-stack';
import { artifactPath, logIn, newContext } from './browser';
import { type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// The referral bonus on the whole stack in a browser: an admin switches it on, a new user reads the terms on
// onboarding and applies a friend's code, pays a first deposit at the BTCPay simulator, and both see the bonus
// (the friend on Invites, the new user in the deposit history).
// The bonus settings are the whole stack's: no other file on the shared stack changes them, and none relies on
// the program being off.

let stack: SharedStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([sharedStack(), sharedBrowser()]);
});

afterAll(async () => {
  await browser?.close();
});

const api = <T>(path: string, init?: ApiCall) => createStackApi(stack.url)<T>(path, init);

async function register(name: string, email: string, password: string) {
  return api<{ token: string; user: SessionUser }>('/api/auth/register', {
    method: 'POST',
    body: { name, email, password, confirmPassword: password },
  });
}

test('an admin switches the bonus on, and a new user’s first deposit credits it to both, shown to each', async () => {
  const stamp = randomUUID().slice(0, 8);

  // The admin sets $5 each, for a first deposit of at least $10, on the referral page.
  const admin = await newContext(browser);
  await logIn(admin.page, stack.url, stack.adminEmail, stack.adminPassword);
  await admin.page.goto(`${stack.url}/admin/referral-management`);
  const section = admin.page.getByRole('region', { name: 'Referral bonus' });
  await section.getByText('The program is off: no bonus is paid.').waitFor();
  await section.getByLabel('Referrer bonus ($)').fill('5');
  await section.getByLabel('New user bonus ($)').fill('5');
  await section.getByLabel('Minimum first deposit ($)').fill('10');
  await section.getByRole('button', { name: 'Save referral bonus' }).click();
  const confirm = admin.page.getByRole('dialog', { name: 'Save referral bonus' });
  await confirm
    .getByText(
      'The referrer gets $5.00 and the new user gets $5.00 once the new user’s first deposit is paid, if it is $10.00 or more. This applies to first deposits paid from now on.',
    )
    .waitFor();
  await admin.page.screenshot({ path: await artifactPath('referral-bonus-confirm.png') });
  await confirm.getByRole('button', { name: 'Save', exact: true }).click();
  await section.getByText(/^Last changed .* by /).waitFor();
  await admin.page.screenshot({ path: await artifactPath('referral-bonus-settings.png'), fullPage: true });

  // A friend (the role that sees Invites) and a newcomer who has just registered.
  const friendEmail = `bonus-friend-${stamp}@example.com`;
  const friend = await register(`Fay Friend ${stamp}`, friendEmail, 'friendly-55');
  const adminToken = await admin.page.evaluate(() => localStorage.getItem('token'));
  await api(`/api/auth/users/role/${friend.user._id}`, {
    method: 'POST',
    token: adminToken ?? '',
    body: { user_role: 'friend' },
  });
  await admin.context.close();

  // A visitor who opens the friend's invite link reads the terms on the register page (no account yet).
  const linkVisitor = await newContext(browser);
  await linkVisitor.page.goto(`${stack.url}/register?ref=${encodeURIComponent(friend.user.referralCode)}`);
  await linkVisitor.page
    .getByText(
      'You get $5.00 and the friend who invited you gets $5.00 once your first deposit is paid, if it is $10.00 or more.',
    )
    .waitFor();
  await linkVisitor.page.screenshot({ path: await artifactPath('referral-register.png'), fullPage: true });
  await linkVisitor.context.close();

  const newcomerEmail = `bonus-new-${stamp}@example.com`;
  const newcomerName = `Nell Newcomer ${stamp}`;
  const newcomer = await register(newcomerName, newcomerEmail, 'newcomer-66');

  // Onboarding states the bonus exactly; the newcomer applies the friend's code.
  const visitor = await newContext(browser);
  await logIn(visitor.page, stack.url, newcomerEmail, 'newcomer-66');
  await visitor.page.goto(`${stack.url}/onboarding`);
  await visitor.page
    .getByText(
      'You get $5.00 and the friend who invited you gets $5.00 once your first deposit is paid, if it is $10.00 or more.',
    )
    .waitFor();
  await visitor.page.getByLabel('Referral code').fill(friend.user.referralCode);
  await visitor.page.screenshot({ path: await artifactPath('referral-onboarding.png'), fullPage: true });
  await visitor.page.getByRole('button', { name: 'Apply Code' }).click();
  await visitor.page.getByText('Referral code applied successfully!').waitFor();
  await visitor.page.waitForURL('**/main/dashboard');

  // The friend sees the bonus waiting for the newcomer's first deposit.
  const friendCtx = await newContext(browser);
  await logIn(friendCtx.page, stack.url, friendEmail, 'friendly-55');
  await friendCtx.page.goto(`${stack.url}/main/invite`);
  const invited = friendCtx.page.getByRole('table', { name: 'Invited Users' });
  const row = invited.getByRole('row').filter({ hasText: newcomerName });
  await row.getByText('$5.00 after first deposit').first().waitFor();

  // The newcomer pays $20 at the BTCPay simulator; its webhook settles the deposit.
  const token = (await visitor.page.evaluate(() => localStorage.getItem('token'))) ?? '';
  const invoice = await api<{ id: string }>(`/api/payment/top-up/${newcomer.user._id}`, { token });
  await settleInvoice(stack.btcpay, invoice.id, '20.00');

  // Both balances grow by the bonus, through the event flow (poll: it is asynchronous by design).
  await expect
    .poll(async () => (await api<{ user: SessionUser }>('/api/auth/verify', { token })).user.balance, {
      timeout: 20_000,
    })
    .toBe(25);
  const friendToken = (await friendCtx.page.evaluate(() => localStorage.getItem('token'))) ?? '';
  await expect
    .poll(async () => (await api<{ user: SessionUser }>('/api/auth/verify', { token: friendToken })).user.balance, {
      timeout: 20_000,
    })
    .toBe(5);

  // Invites shows both sides credited.
  await friendCtx.page.reload();
  await expect.poll(() => row.getByText('$5.00 credited').count()).toBe(2);
  await friendCtx.page.screenshot({ path: await artifactPath('referral-invites-credited.png'), fullPage: true });
  await friendCtx.context.close();

  // The newcomer's deposit history lists the bonus as its own labelled line.
  await visitor.page.goto(`${stack.url}/main/deposit`);
  const history = visitor.page.getByRole('table', { name: 'Deposit History' });
  const bonusLine = history.getByRole('row').filter({ hasText: 'Referral bonus' });
  await bonusLine.getByText('$5').waitFor();
  await history.getByRole('row').filter({ hasText: '$20' }).waitFor();
  await visitor.page.screenshot({ path: await artifactPath('referral-deposit-history.png'), fullPage: true });
  await visitor.context.close();
});
