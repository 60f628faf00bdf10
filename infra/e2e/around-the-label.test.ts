import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moveJourneyClock } from '@flatship/carriers';
import type { BatchLabelsReply, OrdersReply } from '@flatship/proto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createStackApi, type RunningStack, registerFundedCustomer, startStack } from '../src/testing/start-stack';
import { artifactPath, logIn, newContext } from './browser';
import { sharedBrowser } from './shared-stack';

// Around the label, in the browser, on a stack of its own whose sandbox journey clock the tests move: a customer's
// labels are tracked as they move (Pre-transit, then In transit), the Orders list filters on it, and a label's events
// open from its row; and one seller's whole day: 20 labels bought in bulk after an address check corrected one,
// printed as ZPL, handed over on one SCAN form, two of them voided for their money back, and the parcels seen moving.

/**
 * The sandbox's parcels keep real hours here, so a label stays pre-transit (unused, refundable) for as long as a test
 * takes, until the test moves the journey clock past the 20 hours after which USPS takes it: the labels bought by
 * then move on, those bought later start out. The tracking job looks every second and asks about each label at most
 * every 2 s. The tests run one after the other, so one's move never ages the other's labels.
 */
const JOURNEY_HOUR_MS = 3_600_000;
let journeyDir: string;
const journeyFile = () => join(journeyDir, 'journey');
/** USPS takes every parcel bought so far (20 journey hours pass for them at once). */
const uspsTakesTheParcels = () => moveJourneyClock(journeyFile(), 20 * JOURNEY_HOUR_MS);
const STACK_ENV = {
  TRACKING_CHECK_INTERVAL_MS: '1000',
  TRACKING_POLL_MS: '2000',
  // Refunds waiting for their carrier are asked about at once, not every minute.
  REFUND_CHECK_INTERVAL_MS: '500',
  REFUND_RECHECK_MS: '0',
};
/** How long to wait for the tracking job to see a parcel move: a bound for a failing test, never waited out by a passing one. */
const UNTIL_IN_TRANSIT_MS = 60_000;

let stack: RunningStack;
let browser: Browser;
let customer: { id: string; token: string; email: string; password: string };
const api = <T>(path: string, init?: Parameters<ReturnType<typeof createStackApi>>[1]) =>
  createStackApi(stack.url)<T>(path, init);

beforeAll(async () => {
  journeyDir = await mkdtemp(join(tmpdir(), 'flatship-journey-'));
  [stack, browser] = await Promise.all([
    startStack({ env: { ...STACK_ENV, SANDBOX_JOURNEY_FILE: journeyFile() } }),
    sharedBrowser(),
  ]);
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
  if (journeyDir) await rm(journeyDir, { recursive: true, force: true });
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

describe('around the label', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await newContext(browser));
    await logIn(page, stack.url, customer.email, customer.password);
  });
  afterAll(() => context?.close());

  test('a label is Pre-transit, then In transit once USPS takes it; Orders filters on it and shows its events', async ({
    expect,
  }) => {
    const first = await buyLabel('Dana Early');
    await page.goto(`${stack.url}/main/orders`);
    await expect.poll(() => trackingCell(page, 'Dana Early').textContent()).toContain('Pre-transit');
    // Unused so far: it may still be refunded.
    await page
      .getByRole('row', { name: /Dana Early/ })
      .getByRole('button', { name: 'Refund', exact: true })
      .waitFor();
    await page.screenshot({ path: await artifactPath('tracking-pre-transit.png'), fullPage: true });

    // USPS takes the parcel; the tracking job hears of it. Waited for, not slept on.
    await uspsTakesTheParcels();
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

const AMAZON_SAMPLE = fileURLToPath(
  new URL('../../services/order-files/test/fixtures/amazon-unshipped-sample.txt', import.meta.url),
);

/** Where the journey's parcels go: addresses whose ZIPs belong to their cities. */
const DESTINATIONS: [street: string, city: string, state: string, zip: string][] = [
  ['2187 Larkspur Ave', 'San Mateo', 'CA', '94401'],
  ['4410 Burnet Rd', 'Austin', 'TX', '78756'],
  ['1520 N Clybourn Ave', 'Chicago', 'IL', '60610'],
  ['88 Peterborough St', 'Boston', 'MA', '02215'],
  ['7311 Greenwood Ave N', 'Seattle', 'WA', '98103'],
  ['950 17th St', 'Denver', 'CO', '80202'],
  ['615 Ponce De Leon Ave NE', 'Atlanta', 'GA', '30308'],
];

/**
 * An Amazon unshipped-orders report of 20 orders, one mug each, built on the sample's header and first row: row
 * `corrected` (1-based) is sent to `correctedAddress`, which the carrier's check corrects.
 */
async function amazonReport(corrected: number, correctedAddress: [string, string, string, string]): Promise<string> {
  const [header = '', template = ''] = (await readFile(AMAZON_SAMPLE, 'utf8')).split(/\r?\n/);
  const columns = header.split('\t');
  const at = (name: string) => {
    const i = columns.indexOf(name);
    if (i < 0) throw new Error(`the Amazon sample has no ${name} column`);
    return i;
  };
  const lines = [header];
  for (let n = 1; n <= 20; n++) {
    const cells = template.split('\t');
    const [street, city, state, zip] =
      n === corrected ? correctedAddress : (DESTINATIONS[n % DESTINATIONS.length] as (typeof DESTINATIONS)[number]);
    const set = (name: string, value: string) => {
      cells[at(name)] = value;
    };
    set('order-id', `115-${String(4400000 + n)}-${String(7700000 + n)}`);
    set('order-item-id', String(52000000000000 + n));
    set('sku', 'MUG-11OZ-WHT');
    set('quantity-purchased', '1');
    set('quantity-to-ship', '1');
    set('buyer-name', `Journey Buyer ${String(n).padStart(2, '0')}`);
    set('recipient-name', `Journey Buyer ${String(n).padStart(2, '0')}`);
    set('ship-address-1', street);
    set('ship-address-2', '');
    set('ship-city', city);
    set('ship-state', state);
    set('ship-postal-code', zip);
    lines.push(cells.join('\t'));
  }
  const path = await artifactPath('journey-amazon-20.txt');
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

/** The report's row the carrier's check corrects: New York with Brooklyn's ZIP, which the check puts right. */
const CORRECTED_ROW = 7;
const CORRECTED_ADDRESS: [string, string, string, string] = ['350 Fifth Avenue', 'New York', 'NY', '11201'];
const CORRECTED_ZIP5 = '10001';

/** Runs the carrier's check over the loaded rows and takes its one correction. */
async function checkAddresses(page: Page) {
  await page.getByRole('button', { name: 'Check addresses' }).click();
  const check = page.getByRole('region', { name: 'Address check' });
  await check.getByText('1 corrected, 0 undeliverable').waitFor({ timeout: 30_000 });
  await page.screenshot({ path: await artifactPath('journey-address-check.png'), fullPage: true });
  await check.getByRole('button', { name: 'Accept all corrections (1)' }).click();
  const row = page.locator('tbody tr', { hasText: `Journey Buyer ${String(CORRECTED_ROW).padStart(2, '0')}` });
  await row.locator('td[data-field="ToZipPostal"]', { hasText: new RegExp(`^${CORRECTED_ZIP5}-\\d{4}$`) }).waitFor();
}

const latestBatch = async (token: string, userId: string) =>
  (await api<{ bulkOrders: { _id: string }[] }>(`/api/orders/bulk/${userId}`, { token })).bulkOrders[0]?._id ?? '';

const balanceOf = async (token: string) =>
  (await api<{ user: { balance: number } }>('/api/auth/verify', { token })).user.balance;

describe('a seller’s day', () => {
  test('20 labels in bulk with one address corrected, printed as ZPL, on one SCAN form, 2 voided once, then moving', async ({
    expect,
  }) => {
    const login = { email: `journey-${Date.now()}@example.com`, password: 'around-the-label-20' };
    const seller = await registerFundedCustomer(
      createStackApi(stack.url),
      { email: stack.adminEmail, password: stack.adminPassword },
      { ...login, balance: 300, name: 'Juno Goods' },
    );
    await api(`/api/auth/save-address/${seller.id}`, {
      method: 'POST',
      token: seller.token,
      body: {
        address_id: 'Warehouse',
        name: 'Juno Goods',
        street: '100 Congress Ave',
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        country: 'US',
      },
    });
    await api(`/api/auth/add-sku/${seller.id}`, {
      method: 'POST',
      token: seller.token,
      body: {
        parsedData: [
          { sku: 'MUG-11OZ-WHT', maxQty: 4, weight: 2, length: 10, width: 8, height: 4, description: 'Mug' },
        ],
      },
    });
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    try {
      await logIn(page, stack.url, login.email, login.password);

      // The thermal printer's format, chosen before buying: the sandbox then sells its labels as ZPL.
      await page.goto(`${stack.url}/main/account`);
      const printing = page.getByRole('region', { name: 'Printing' });
      await printing.getByRole('radio', { name: /4x6 ZPL \(203 dpi\)/ }).check();
      await printing.getByRole('button', { name: 'Save print setting' }).click();
      await printing.getByText('Print setting saved').waitFor();

      // 1. Twenty orders from an Amazon report; the address check corrects one before anything is paid.
      const report = await amazonReport(CORRECTED_ROW, CORRECTED_ADDRESS);
      await page.goto(`${stack.url}/main/bulk-order`);
      await page.getByRole('heading', { name: 'Bulk Order Items' }).waitFor();
      await page.locator('input[type="file"]').setInputFiles(report);
      await page.getByText('File Uploaded successfully.').first().waitFor();
      await checkAddresses(page);
      const before = await balanceOf(seller.token);
      await page.getByLabel('Service', { exact: true }).selectOption({ label: 'USPS Ground Advantage' });
      await page.getByRole('button', { name: 'Submit' }).click();
      const progress = page.getByRole('dialog', { name: 'Order Processed Successfully!' });
      await progress.waitFor({ timeout: 60_000 });
      await progress.getByText('20 / 20').waitFor();
      await page.screenshot({ path: await artifactPath('journey-processed.png') });

      // 2. The labels file is ZPL: one label per row, in the report's order, the corrected row to the corrected ZIP.
      const [zplDownload] = await Promise.all([
        page.waitForEvent('download'),
        progress.getByRole('button', { name: 'ZPL', exact: true }).click(),
      ]);
      expect(zplDownload.suggestedFilename()).toMatch(/^Labels_\d{2}-\d{2}\.zpl$/);
      const zplPath = await artifactPath('journey-labels.zpl');
      await zplDownload.saveAs(zplPath);
      const blocks = (await readFile(zplPath, 'utf8')).match(/\^XA[\s\S]*?\^XZ/g) ?? [];
      expect(blocks).toHaveLength(20);
      blocks.forEach((block, i) => {
        expect(block.toUpperCase()).toContain(`JOURNEY BUYER ${String(i + 1).padStart(2, '0')}`);
      });
      expect(blocks[CORRECTED_ROW - 1]).toContain(CORRECTED_ZIP5);
      const trackingNumbers = blocks.map((b) => /\^FD>;>8420\d{5}>8(\d+)\^FS/.exec(b)?.[1] ?? '');
      expect(trackingNumbers.every((t) => /^\d{22}$/.test(t))).toBe(true);

      await progress.getByRole('button', { name: 'Close progress window' }).click();
      await progress.waitFor({ state: 'detached' });

      // 3. One SCAN form for the batch: one PS 5630 listing every label.
      await page.goto(`${stack.url}/main/batch-orders`);
      await page.getByRole('button', { name: 'Create SCAN form', exact: true }).click();
      await page.getByText('SCAN form created for 20 labels.').first().waitFor();
      await page.screenshot({ path: await artifactPath('journey-scan-form.png') });
      const [formResponse] = await Promise.all([
        context.waitForEvent('response', (r) => r.url().includes('/api/orders/download/scan-form/')),
        page.getByRole('button', { name: /^Download SCAN form \S+ \(20 labels\)$/ }).click(),
      ]);
      expect(formResponse.headers()['content-type']).toContain('application/pdf');
      const formPath = await artifactPath('journey-scan-form.pdf');
      // The tab's response is the PDF viewer's; the link itself gives the form.
      const form = await page.request.get(formResponse.url());
      expect(form.status()).toBe(200);
      await writeFile(formPath, await form.body());
      const formText = execFileSync('pdftotext', ['-layout', formPath, '-']).toString().replace(/ /g, '');
      for (const t of trackingNumbers) expect(formText).toContain(t);
      for (const p of context.pages()) if (p !== page) await p.close();

      // 4. Two labels not used after all: voided from the batch's labels, and the money comes back once.
      await page.getByRole('button', { name: 'Labels', exact: true }).first().click();
      const labels = page.getByRole('dialog', { name: 'Labels of this batch' });
      await labels.getByRole('cell', { name: /Journey Buyer 01/i }).waitFor();
      let refunded = 0;
      for (const who of ['Journey Buyer 04', 'Journey Buyer 05']) {
        const row = labels.getByRole('row', { name: new RegExp(who, 'i') });
        await row.getByRole('button', { name: 'Refund', exact: true }).click();
        const ask = page.getByRole('dialog', { name: 'Refund label' });
        await ask.getByRole('button', { name: 'Request refund' }).click();
        await ask.waitFor({ state: 'detached' });
        await row.getByText('Refunded').waitFor();
        refunded++;
      }
      expect(refunded).toBe(2);
      await page.screenshot({ path: await artifactPath('journey-voided.png') });
      const orderId = await latestBatch(seller.token, seller.id);
      const batch = await api<BatchLabelsReply>(`/api/orders/bulk/labels/${orderId}`, { token: seller.token });
      const price = (id: string) => batch.labels.find((l) => l._id === id)?.price ?? 0;
      const voided = batch.labels.filter((l) => l.refundStatus === 'refunded');
      expect(voided).toHaveLength(2);
      const paid = batch.labels.reduce((sum, l) => sum + l.price, 0);
      const back = voided.reduce((sum, l) => sum + price(l._id), 0);
      await expect.poll(() => balanceOf(seller.token)).toBeCloseTo(before - paid + back, 2);
      // Asking again gives nothing more.
      const again = await fetch(`${stack.url}/api/orders/labels/${voided[0]?._id}/refund`, {
        method: 'POST',
        headers: { token: seller.token, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(again.status).toBe(409);
      expect(await balanceOf(seller.token)).toBeCloseTo(before - paid + back, 2);

      // 5. USPS takes the parcels: the batch's labels show them moving (waited for, never slept on).
      const stageOfRow = (who: string) =>
        labels
          .getByRole('row', { name: new RegExp(who, 'i') })
          .getByRole('button', { name: /show the tracking events/ })
          .textContent();
      expect(await stageOfRow('Journey Buyer 01')).toContain('Pre-transit');
      await uspsTakesTheParcels();
      await expect
        .poll(
          async () =>
            (await api<BatchLabelsReply>(`/api/orders/bulk/labels/${orderId}`, { token: seller.token })).labels.find(
              (l) => l.row === 1,
            )?.trackingStage,
          { timeout: UNTIL_IN_TRANSIT_MS, interval: 1000 },
        )
        .toBe('in_transit');
      await labels.getByRole('button', { name: 'Close', exact: true }).click();
      await page.getByRole('button', { name: 'Labels', exact: true }).first().click();
      await expect.poll(() => stageOfRow('Journey Buyer 01')).toContain('In transit');
      await page.screenshot({ path: await artifactPath('journey-in-transit.png') });
    } finally {
      await context.close();
    }
    // A whole day in the browser: twenty purchases and a dozen pages take minutes on a busy machine.
  }, 300_000);
});
