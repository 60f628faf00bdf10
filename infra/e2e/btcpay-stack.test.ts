import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../src/paths';
import { expireInvoice, settleInvoice } from '../src/testing/start-stack';
import { type SharedStack, sharedStack } from './shared-stack';

const hasStack = ['services/payments/src/main.ts', 'gateway/src/main.ts'].every((p) => existsSync(join(REPO_ROOT, p)));

describe.skipIf(!hasStack)('BTCPay simulator in the running stack', () => {
  let stack: SharedStack;

  beforeAll(async () => {
    stack = await sharedStack();
  });

  test('the launcher prints the simulator URL and the stack exposes its URL, key and store', async () => {
    const btcpay = stack.btcpay;
    expect(btcpay.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stack.readyOutput).toContain(`BTCPay simulator: ${btcpay.url}`);
    expect(btcpay.apiKey).toMatch(/^[0-9a-f]{40}$/);
    expect((await fetch(`${btcpay.url}/modal/btcpay.js`)).status).toBe(200);
    // The web app may load the modal script and frame the checkout page.
    const csp = (await fetch(stack.url)).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(new RegExp(`script-src [^;]*${btcpay.url}`));
    expect(csp).toMatch(new RegExp(`frame-src [^;]*${btcpay.url}`));
  });

  test('a test creates an invoice with the stack key and settles or expires it without a browser', async () => {
    const btcpay = stack.btcpay;
    const create = async () => {
      const res = await fetch(`${btcpay.url}/api/v1/stores/${btcpay.storeId}/invoices`, {
        method: 'POST',
        headers: { authorization: `token ${btcpay.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ currency: 'USD', metadata: { userId: 'nobody' } }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { id: string; checkoutLink: string };
    };
    const invoice = await create();
    expect(invoice.checkoutLink).toBe(`${btcpay.url}/i/${invoice.id}`);
    expect((await fetch(invoice.checkoutLink)).status).toBe(200);
    expect(await settleInvoice(btcpay, invoice.id, '10.00')).toMatchObject({ status: 'Settled', amount: '10.00' });
    await expect(settleInvoice(btcpay, invoice.id, '10.00')).rejects.toThrow(/already been paid/);
    expect(await expireInvoice(btcpay, (await create()).id)).toMatchObject({ status: 'Expired' });
  });
});
