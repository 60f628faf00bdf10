import type { OrdersReply } from '@flatship/proto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createStackApi, type RunningStack, registerFundedCustomer, startStack } from '../src/testing/start-stack';
import { artifactPath, logIn, newContext } from './browser';
import { sharedBrowser } from './shared-stack';

// Around the label, in the browser, on a stack of its own whose sandbox parcels travel fast: a customer's labels
// are tracked as they move (Pre-transit, then In transit), the Orders list filters on it, and a label's events open
// from its row.

/**
 * One hour of a sandbox parcel's 72-hour journey lasts 4 s here, so a label stays pre-transit (unused, refundable)
 * for its first 80 s, USPS takes it at 80 s, and it is delivered after about 5 minutes. The tracking job looks
 * every second and asks about each label at most every 2 s. Tests that need a label to stay refundable must do so
 * within its first 80 s.
 */
export const JOURNEY_HOUR_MS = 4000;
const STACK_ENV = {
  SANDBOX_TRACKING_HOUR_MS: String(JOURNEY_HOUR_MS),
  TRACKING_CHECK_INTERVAL_MS: '1000',
  TRACKING_POLL_MS: '2000',
  // Refunds waiting for their carrier are asked about at once, not every minute.
  REFUND_CHECK_INTERVAL_MS: '500',
  REFUND_RECHECK_MS: '0',
};
/** Until USPS takes a label (20 journey hours), plus a look of the job: how long to wait for one to move. */
const UNTIL_IN_TRANSIT_MS = 20 * JOURNEY_HOUR_MS + 40_000;

let stack: RunningStack;
let browser: Browser;
let customer: { id: string; token: string; email: string; password: string };
const api = <T>(path: string, init?: Parameters<ReturnType<typeof createStackApi>>[1]) =>
  createStackApi(stack.url)<T>(path, init);

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ env: STACK_ENV }), sharedBrowser()]);
  const login = { email: `around-${Date.now()}@example.com`, password: 'around-the-label-22' };
  const signedIn = await registerFundedCustomer(
    createStackApi(stack.url),
    { email: stack.adminEmail, password: stack.adminPassword },
    { ...login, balance: 200, name: 'Harbor Goods' },
  );
  customer = { ...signedIn, ...login };
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A single label as the Create Label page sends it, to `receiver`. */
async function buyLabel(receiver: string): Promise<{ orderId: string; tracking_number: string }> {
  const { data } = await api<{ data: { orderId: string; tracking_number: string } }>('/api/orders/v2', {
    method: 'POST',
    token: customer.token,
    body: {
      user_id: customer.id,
      service_name: 'USPS Priority Mail',
      courier: 'usps',
      sender: {
        sender_name: 'Harbor Goods',
        sender_address1: '100 Congress Ave',
        sender_city: 'Austin',
        sender_state_province: 'TX',
        sender_zip_postal: '78701',
        sender_country: 'US',
      },
      receiver: {
        receiver_name: receiver,
        receiver_address1: '1 Market St',
        receiver_city: 'San Francisco',
        receiver_state_province: 'CA',
        receiver_zip_postal: '94105',
        receiver_country: 'US',
      },
      package: {
        package_length: 10,
        package_width: 8,
        package_height: 4,
        package_weight: 2,
        package_weight_unit: 'LB',
      },
    },
  });
  return data;
}

const stageOf = async (labelId: string) =>
  (await api<OrdersReply>(`/api/orders/${customer.id}`, { token: customer.token })).orders.find(
    (o) => o._id === labelId,
  )?.trackingStage;

const trackingCell = (page: Page, receiver: string) =>
  page.getByRole('row', { name: new RegExp(receiver) }).getByRole('button', { name: /show the tracking events/ });

describe('tracking', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await newContext(browser));
    await logIn(page, stack.url, customer.email, customer.password);
  });
  afterAll(() => context?.close());

  test('a label is Pre-transit, then In transit once USPS takes it; Orders filters on it and shows its events', async () => {
    const first = await buyLabel('Dana Early');
    await page.goto(`${stack.url}/main/orders`);
    await expect.poll(() => trackingCell(page, 'Dana Early').textContent()).toContain('Pre-transit');
    // Unused so far: it may still be refunded.
    await page
      .getByRole('row', { name: /Dana Early/ })
      .getByRole('button', { name: 'Refund', exact: true })
      .waitFor();
    await page.screenshot({ path: await artifactPath('tracking-pre-transit.png'), fullPage: true });

    // The parcel moves as journey hours pass; the tracking job hears of it. Waited for, not slept on.
    await expect
      .poll(() => stageOf(first.orderId), { timeout: UNTIL_IN_TRANSIT_MS, interval: 1000 })
      .toBe('in_transit');
    const second = await buyLabel('Eli Later');
    expect(await stageOf(second.orderId)).toBe('pre_transit');

    await page.reload();
    await expect.poll(() => trackingCell(page, 'Dana Early').textContent()).toContain('In transit');
    // Scanned by USPS, so used: no refund any more, and the row says why.
    const used = page.getByRole('row', { name: /Dana Early/ });
    await used.getByText('USPS has scanned this label, so it was used and cannot be refunded.').waitFor();
    expect(await used.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);

    // The filter is the server's, and the address keeps it.
    const filter = page.getByLabel('Tracking status');
    await filter.selectOption({ label: 'In transit' });
    await page.waitForURL(/\?tracking=in_transit$/);
    await page.getByRole('row', { name: /Eli Later/ }).waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Dana Early/ }).waitFor();
    await filter.selectOption({ label: 'Pre-transit' });
    await page.getByRole('row', { name: /Dana Early/ }).waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Eli Later/ }).waitFor();
    await filter.selectOption({ label: 'Delivered' });
    await page.getByText('No orders are delivered').waitFor();
    await filter.selectOption({ label: 'In transit' });
    await page.getByRole('row', { name: /Dana Early/ }).waitFor();
    await page.screenshot({ path: await artifactPath('tracking-filtered.png'), fullPage: true });

    // The row opens its events from the keyboard; Escape closes and gives the focus back.
    const open = trackingCell(page, 'Dana Early');
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Tracking ${first.tracking_number}` });
    const events = dialog.getByRole('list', { name: 'Tracking events, newest first' });
    await events.waitFor();
    const items = await events.getByRole('listitem').allTextContents();
    expect(items[0]).toContain('USPS in possession of item');
    expect(items[0]).toContain('NEW YORK, NY 10001');
    expect(items.at(-1)).toContain('Shipping Label Created, USPS Awaiting Item');
    await dialog.getByText('Expected delivery').waitFor();
    await page.screenshot({ path: await artifactPath('tracking-events.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await open.evaluate((el) => el === document.activeElement)).toBe(true);

    // On a phone the rows are cards; the stage still opens the events.
    await page.setViewportSize({ width: 390, height: 844 });
    await trackingCell(page, 'Dana Early').click();
    await dialog.getByText('USPS in possession of item').waitFor();
    await page.screenshot({ path: await artifactPath('tracking-events-mobile.png') });
    await page.keyboard.press('Escape');
    await page.screenshot({ path: await artifactPath('tracking-orders-mobile.png'), fullPage: true });
  });
});
