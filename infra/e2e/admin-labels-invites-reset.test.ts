import { randomUUID } from 'node:crypto';
import type { SessionUser } from '@flatship/proto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ApiCall, createStackApi } from '../src/testing/start-stack';
import { artifactPath, logIn, newContext } from './browser';
import { type CapturedMail, mailsTo, type SharedStack, sharedBrowser, sharedStack } from './shared-stack';

// An admin refunds a label found by its tracking number, a friend's invite link
// brings in a new user, and a customer resets a forgotten password from the email
// the product sends through a real SMTP server (the shared stack's, see SHARED_STACK_ENV).
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

async function adminToken() {
  const admin = await api<{ token: string }>('/api/auth/login', {
    method: 'POST',
    body: { email: stack.adminEmail, password: stack.adminPassword },
  });
  return admin.token;
}

const labelBody = (userId: string, receiverName: string) => ({
  user_id: userId,
  service_name: 'USPS Priority Mail',
  sender: {
    sender_name: 'Rita Refund',
    sender_address1: '100 Congress Ave',
    sender_city: 'Austin',
    sender_state_province: 'TX',
    sender_zip_postal: '78701',
    sender_country: 'US',
  },
  receiver: {
    receiver_name: receiverName,
    receiver_address1: '1 Market St',
    receiver_city: 'San Francisco',
    receiver_state_province: 'CA',
    receiver_zip_postal: '94105',
    receiver_country: 'US',
  },
  package: { package_length: 10, package_width: 8, package_height: 4, package_weight: 3, package_weight_unit: 'LB' },
});

test('an admin finds a label by part of its tracking number and refunds it to the customer', async () => {
  const email = `refund-${randomUUID()}@example.com`;
  const password = 'refund-me-42';
  const { token, user } = await register('Rita Refund', email, password);
  await api(`/api/auth/users/details/${user._id}`, {
    method: 'POST',
    token: await adminToken(),
    body: { balance: 50 },
  });

  // Two labels, so the tracking filter has something to leave out.
  type Created = { data: { tracking_number: string; price: number } };
  const kept = await api<Created>('/api/orders/v2', {
    method: 'POST',
    token,
    body: labelBody(user._id, 'Kept Receiver'),
  });
  const refunded = await api<Created>('/api/orders/v2', {
    method: 'POST',
    token,
    body: labelBody(user._id, 'Refunded Receiver'),
  });
  const tracking = refunded.data.tracking_number;
  expect(tracking).not.toBe(kept.data.tracking_number);
  const price = refunded.data.price;
  const afterBuying = (await api<{ user: SessionUser }>('/api/auth/verify', { token })).user.balance;
  expect(afterBuying).toBeCloseTo(50 - kept.data.price - price, 2);

  const { context, page } = await newContext(browser);
  await logIn(page, stack.url, stack.adminEmail, stack.adminPassword);
  await page.goto(`${stack.url}/admin/order-label-management`);
  await page.getByRole('heading', { name: 'Order Label Management' }).waitFor();
  const filters = page.getByRole('form', { name: 'Label filters' });
  // Part of the number: the filter matches any part of it.
  const part = tracking.slice(-10);
  await filters.getByLabel('Tracking number').fill(part);
  await filters.getByRole('button', { name: 'Search' }).click();
  await page.getByText('1 labels').waitFor();
  const table = page.getByRole('table', { name: 'Labels' });
  const row = table.getByRole('row').filter({ hasText: tracking });
  await expect.poll(() => table.getByRole('row').count()).toBe(2); // the header and exactly one label
  await row.getByText('Refunded Receiver').waitFor();
  await row.getByText('Completed').waitFor();
  await page.screenshot({ path: await artifactPath('admin-label-found.png'), fullPage: true });

  await row.getByRole('button', { name: `Refund label ${tracking}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund label' });
  await dialog
    .getByText(
      `Refund $${price.toFixed(2)} to the user for label ${tracking}? USPS voids the label, and the money goes back to the user when USPS confirms.`,
    )
    .waitFor();
  await page.screenshot({ path: await artifactPath('admin-refund-confirm.png') });
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await row.getByText('Void (refunded)').waitFor();
  // The sandbox confirms at once: the same flow as the customer's, credited as the admin's.
  await page
    .getByText(`Refunded. $${price.toFixed(2)} is back on the balance.`)
    .first()
    .waitFor();
  expect(await row.getByRole('button', { name: `Refund label ${tracking}` }).count()).toBe(0);
  await page.screenshot({ path: await artifactPath('admin-label-refunded.png'), fullPage: true });
  await context.close();

  // The money is back on the customer's balance, and the label is void in their orders list.
  const afterRefund = (await api<{ user: SessionUser }>('/api/auth/verify', { token })).user.balance;
  expect(afterRefund).toBeCloseTo(afterBuying + price, 2);
  const customer = await newContext(browser);
  await logIn(customer.page, stack.url, email, password);
  await customer.page.goto(`${stack.url}/main/orders`);
  const orders = customer.page.getByRole('table', { name: 'Orders List' });
  await orders.getByRole('row').filter({ hasText: 'Refunded Receiver' }).getByText('Void (refunded)').waitFor();
  await orders.getByRole('row').filter({ hasText: 'Kept Receiver' }).getByText('Completed').waitFor();
  await customer.page.screenshot({ path: await artifactPath('customer-orders-void.png'), fullPage: true });
  await customer.context.close();
});

test("a friend's copied invite link brings a new user who then appears among the friend's Invited Users", async () => {
  const stamp = randomUUID().slice(0, 8);
  const friendName = `Fern Friend ${stamp}`;
  const friendEmail = `friend-${stamp}@example.com`;
  const friendPassword = 'friendly-77';
  const friend = await register(friendName, friendEmail, friendPassword);

  // The admin makes them a friend in User Management.
  const admin = await newContext(browser);
  await logIn(admin.page, stack.url, stack.adminEmail, stack.adminPassword);
  await admin.page.goto(`${stack.url}/admin/user-management`);
  await admin.page.getByRole('searchbox').fill(friendEmail);
  const role = admin.page.getByRole('combobox', { name: `Role of ${friendName}` });
  const saved = admin.page.waitForResponse(
    (r) => r.url().endsWith(`/api/auth/users/role/${friend.user._id}`) && r.request().method() === 'POST',
  );
  await role.selectOption('friend');
  expect((await saved).status()).toBe(200);
  // A new role ends the sessions signed with the old one.
  await expect(api('/api/auth/verify', { token: friend.token })).rejects.toThrow('AUTH_TOKEN_REVOKED');
  // After a reload the select shows the role the server kept.
  await admin.page.reload();
  await admin.page.getByRole('searchbox').fill(friendEmail);
  await expect.poll(() => role.inputValue()).toBe('friend');
  await admin.page.screenshot({ path: await artifactPath('admin-made-friend.png'), fullPage: true });
  await admin.context.close();

  // The friend copies their invite link.
  const friendCtx = await newContext(browser);
  await friendCtx.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
  const page = friendCtx.page;
  await logIn(page, stack.url, friendEmail, friendPassword);
  const session = await page.evaluate(() => localStorage.getItem('token'));
  const me = await api<{ user: SessionUser }>('/api/auth/verify', { token: session ?? '' });
  expect(me.user.user_role).toBe('friend');
  await page.goto(`${stack.url}/main/invite`);
  await page.getByRole('table', { name: 'Invited Users' }).getByText('No invited users yet').waitFor();
  const box = page.getByRole('region', { name: 'Invite Link' });
  const copy = box.getByRole('button', { name: /^Copy / });
  const shown = (await copy.getAttribute('aria-label'))?.replace(/^Copy /, '') ?? '';
  await copy.click();
  await box.getByRole('button', { name: 'Copied!' }).waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(shown);
  expect(link).toBe(`${stack.url}/register?ref=${encodeURIComponent(friend.user.referralCode)}`);
  await page.screenshot({ path: await artifactPath('invite-link-copied.png'), fullPage: true });

  // A visitor opens it and registers with the code already filled in.
  const visitor = await newContext(browser);
  const inviteeName = `Ivy Invitee ${stamp}`;
  const inviteePassword = 'invited-in-9';
  await visitor.page.goto(link);
  await expect(visitor.page.getByLabel('Referral code').inputValue()).resolves.toBe(friend.user.referralCode);
  await visitor.page.getByLabel(/^name/i).fill(inviteeName);
  await visitor.page.getByLabel(/^email/i).fill(`invitee-${stamp}@example.com`);
  await visitor.page.getByLabel(/^password/i).fill(inviteePassword);
  await visitor.page.getByLabel(/confirm/i).fill(inviteePassword);
  await visitor.page.screenshot({ path: await artifactPath('invitee-register.png'), fullPage: true });
  await visitor.page.getByRole('button', { name: /register|create|sign up/i }).click();
  await visitor.page.waitForURL('**/main/dashboard');
  await visitor.context.close();

  // The friend sees the new user after a reload.
  await page.reload();
  const invited = page.getByRole('table', { name: 'Invited Users' });
  await invited.getByRole('cell', { name: inviteeName }).waitFor();
  await page.screenshot({ path: await artifactPath('invited-users.png'), fullPage: true });
  await friendCtx.context.close();
});

test('a customer resets a forgotten password from the emailed link, which ends their other session', async () => {
  const email = `forgetful-${randomUUID()}@example.com`;
  const oldPassword = 'old-secret-11';
  const newPassword = 'new-secret-22';
  await register('Fergus Forgetful', email, oldPassword);

  // Context A: signed in on another device.
  const a = await newContext(browser);
  await logIn(a.page, stack.url, email, oldPassword);
  await a.page.waitForURL('**/main/dashboard');

  // Context B: asks for a reset link from the login page.
  const b = await newContext(browser);
  await b.page.goto(`${stack.url}/login`);
  await b.page.getByRole('link', { name: 'Forgot password?' }).click();
  await b.page.waitForURL('**/forgot-password');
  await b.page.getByLabel('Email').fill(email);
  await b.page.getByRole('button', { name: 'Send reset link' }).click();
  await b.page.getByText('Check your inbox').waitFor();
  await b.page.screenshot({ path: await artifactPath('forgot-password-sent.png') });

  await expect.poll(async () => (await mailsTo(email)).length, { timeout: 10_000 }).toBe(1);
  const [mail] = (await mailsTo(email)) as [CapturedMail];
  expect(mail.raw).toContain('Subject: Reset your Flatship password');
  // Quoted-printable may fold long lines: unfold before reading the link.
  const body = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const emailed = /https?:\/\/[^\s/]+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(body)?.[0];
  expect(emailed, body).toBeDefined();
  const link = new URL(emailed as string);
  expect(link.origin).toBe(stack.url);

  await b.page.goto(link.toString());
  await b.page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  await b.page.getByLabel('New password', { exact: true }).fill(newPassword);
  await b.page.getByLabel('Confirm new password').fill(newPassword);
  await b.page.getByRole('button', { name: 'Set new password' }).click();
  await b.page.waitForURL('**/login');
  await b.page.getByText('Your password has been reset. Please log in with your new password.').waitFor();
  await b.page.screenshot({ path: await artifactPath('reset-password-done.png') });
  await b.page.getByLabel('Email').fill(email);
  await b.page.getByLabel('Password').fill(newPassword);
  await b.page.getByRole('button', { name: 'Login' }).click();
  await b.page.waitForURL('**/main/dashboard');
  await b.page.getByRole('heading', { name: 'Welcome back, Fergus Forgetful' }).waitFor();

  // Context A's session has ended: its next action lands on the login page.
  await a.page.goto(`${stack.url}/main/orders`);
  await a.page.waitForURL('**/login');
  await a.page.screenshot({ path: await artifactPath('old-session-ended.png') });

  // The old password no longer works; the new one does.
  await a.page.getByLabel('Email').fill(email);
  await a.page.getByLabel('Password').fill(oldPassword);
  await a.page.getByRole('button', { name: 'Login' }).click();
  await a.page.getByText('Invalid email or password').waitFor();
  expect(new URL(a.page.url()).pathname).toBe('/login');
  await a.context.close();
  await b.context.close();
});
