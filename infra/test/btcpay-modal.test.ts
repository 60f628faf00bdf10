import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHROMIUM_PATH, launchBrowser } from '../e2e/browser';
import { type BtcpaySimulator, createBtcpaySimulator } from '../src/btcpay/app';

const API_KEY = 'k'.repeat(40);

/**
 * The modal in a real browser: a shop page on one origin (127.0.0.1) loads the
 * script from the simulator on another (localhost), as the web app does.
 */
describe.skipIf(!existsSync(CHROMIUM_PATH))('BTCPay modal in a browser', () => {
  let browser: Browser;
  let simulator: BtcpaySimulator;
  let shop: Server;
  let shopUrl = '';
  let simulatorUrl = '';

  beforeAll(async () => {
    simulator = createBtcpaySimulator({
      storeId: 'store-1',
      apiKey: API_KEY,
      webhookSecret: 's'.repeat(32),
      publicUrl: 'http://localhost:1',
      logger: false,
    });
    await simulator.listen({ host: '127.0.0.1', port: 0 });
    simulatorUrl = `http://localhost:${(simulator.server.address() as AddressInfo).port}`;
    shop = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><html><body><button id="deposit">Deposit</button>
<script src="${simulatorUrl}/modal/btcpay.js"></script>
<script>
  window.events = [];
  window.btcpay.onModalWillEnter(function () { window.events.push('enter'); });
  window.btcpay.onModalWillLeave(function () { window.events.push('leave'); });
  window.btcpay.onModalReceiveMessage(function (e) { window.events.push(e.data); });
</script></body></html>`);
    });
    await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await simulator?.close();
    await new Promise<void>((r) => (shop ? shop.close(() => r()) : r()));
  });

  async function createInvoice(): Promise<string> {
    const res = await simulator.inject({
      method: 'POST',
      url: '/api/v1/stores/store-1/invoices',
      headers: { authorization: `token ${API_KEY}` },
      payload: { currency: 'USD' },
    });
    return (res.json() as { id: string }).id;
  }

  test('showInvoice opens the checkout over the page; paying reports complete and Close leaves', async () => {
    const id = await createInvoice();
    const page = await browser.newPage();
    await page.goto(shopUrl);
    await page.getByRole('button', { name: 'Deposit' }).focus();
    await page.evaluate((invoiceId) => window.btcpay.showInvoice(invoiceId), id);
    const dialog = page.getByRole('dialog', { name: 'BTCPay checkout (simulator)' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
    const frame = page.frameLocator('iframe[name="btcpay"]');
    await frame.getByLabel('Amount (USD)').fill('15.25');
    await frame.getByRole('button', { name: 'Pay' }).click();
    await expect.poll(() => frame.getByText('Payment received').isVisible()).toBe(true);
    await expect
      .poll(() => page.evaluate(() => window.events))
      .toEqual(['enter', { invoiceId: id, status: 'complete' }]);
    expect(simulator.btcpay.invoices.get(id)).toMatchObject({ status: 'Settled', amount: '15.25' });

    await frame.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.locator('[data-btcpay-overlay]').count()).toBe(0);
    expect(await page.evaluate(() => window.events.at(-1))).toBe('leave');
    // Focus returns to where the payer was.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('deposit');
    await page.close();
  });

  test('Escape closes the modal, and a message from another origin is ignored', async () => {
    const id = await createInvoice();
    const page = await browser.newPage();
    await page.goto(shopUrl);
    await page.evaluate((invoiceId) => window.btcpay.showInvoice(invoiceId), id);
    const frame = page.frameLocator('iframe[name="btcpay"]');
    await expect.poll(() => frame.getByLabel('Amount (USD)').isVisible()).toBe(true);
    // The shop page itself posting 'close' must not close the checkout.
    await page.evaluate(() => window.postMessage('close', '*'));
    await page.waitForTimeout(100);
    expect(await page.locator('[data-btcpay-overlay]').count()).toBe(1);
    await frame.getByLabel('Amount (USD)').focus();
    // Through the keyboard, not the locator: the element goes away with the frame. Only the key going down
    // is sent while the checkout has focus: its frame (another site, so another renderer) is removed in
    // answer, and a key-up sent to a renderer that is going away may never be acknowledged.
    await page.keyboard.down('Escape');
    await expect.poll(() => page.locator('[data-btcpay-overlay]').count()).toBe(0);
    await page.keyboard.up('Escape');
    expect(await page.evaluate(() => window.events)).toEqual(['enter', 'leave']);
    expect(simulator.btcpay.invoices.get(id)?.status).toBe('New');
    await page.close();
  });
});

declare global {
  interface Window {
    btcpay: { showInvoice(id: string): void };
    events: unknown[];
  }
}
