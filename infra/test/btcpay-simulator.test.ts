import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebhookEvent } from '@flatship/proto';
import { afterEach, describe, expect, test } from 'vitest';
import { type BtcpaySimulator, createBtcpaySimulator } from '../src/btcpay/app';
import { eventually } from './helpers';

const STORE = 'store-1';
const API_KEY = 'a'.repeat(40);
const SECRET = 'webhook-secret-0123456789';
const PUBLIC_URL = 'http://127.0.0.1:4170';
const auth = { authorization: `token ${API_KEY}` };

interface Received {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  event: WebhookEvent;
}

/** A real HTTP endpoint standing in for payments' webhook route; `answer` decides each status. */
async function startReceiver(answer: (n: number) => number = () => 200) {
  const received: Received[] = [];
  let attempts = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ headers: req.headers, raw, event: JSON.parse(raw.toString('utf8')) as WebhookEvent });
      res.statusCode = answer(attempts++);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payment/webhook/btcpay`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Events are ordered per invoice only, as BTCPay orders them. */
function typesByInvoice(received: Received[]): Record<string, string[]> {
  const by: Record<string, string[]> = {};
  for (const { event } of received) by[event.invoiceId] = [...(by[event.invoiceId] ?? []), event.type];
  return by;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setUp(opts: { answer?: (n: number) => number; dataFile?: string; expirySweepMs?: number } = {}) {
  const receiver = await startReceiver(opts.answer);
  let clock = Date.parse('2030-01-01T12:00:00Z');
  const app = createBtcpaySimulator({
    storeId: STORE,
    apiKey: API_KEY,
    webhookSecret: SECRET,
    webhookUrl: receiver.url,
    publicUrl: `${PUBLIC_URL}/`,
    logger: false,
    now: () => clock,
    retryDelaysMs: [20, 40, 80],
    dataFile: opts.dataFile,
    expirySweepMs: opts.expirySweepMs ?? 60_000,
  });
  cleanups.push(
    () => receiver.close(),
    () => app.close(),
  );
  return { app, receiver, advance: (ms: number) => (clock += ms), now: () => clock };
}

async function createInvoice(app: BtcpaySimulator, body: Record<string, unknown> = { currency: 'USD' }) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/stores/${STORE}/invoices`,
    headers: auth,
    payload: body,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: string; amount: string; type: string; status: string; checkoutLink: string } & Record<
    string,
    unknown
  >;
}

const getInvoice = async (app: BtcpaySimulator, id: string) =>
  (await app.inject({ method: 'GET', url: `/api/v1/stores/${STORE}/invoices/${id}`, headers: auth })).json() as {
    status: string;
    amount: string;
  };

const form = (app: BtcpaySimulator, url: string, fields: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });

describe('Greenfield API', () => {
  test('refuses a missing or wrong API key with 401 and an unknown store with 404', async () => {
    const { app } = await setUp();
    const url = `/api/v1/stores/${STORE}/invoices`;
    const none = await app.inject({ method: 'POST', url, payload: { currency: 'USD' } });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ code: 'unauthenticated', message: expect.any(String) });
    const wrong = await app.inject({
      method: 'GET',
      url: `${url}/x`,
      headers: { authorization: `token ${'b'.repeat(40)}` },
    });
    expect(wrong.statusCode).toBe(401);
    const basic = await app.inject({ method: 'GET', url: `${url}/x`, headers: { authorization: `Bearer ${API_KEY}` } });
    expect(basic.statusCode).toBe(401);
    const store = await app.inject({
      method: 'POST',
      url: '/api/v1/stores/other/invoices',
      headers: auth,
      payload: { currency: 'USD' },
    });
    expect(store.statusCode).toBe(404);
    expect(store.json().code).toBe('store-not-found');
  });

  test('answers 422 with a path and message for every bad field', async () => {
    const { app } = await setUp();
    const post = (payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: `/api/v1/stores/${STORE}/invoices`, headers: auth, payload });
    const missing = await post({});
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toContainEqual({ path: 'currency', message: 'currency is required' });
    const bad = await post({ currency: 'EUR', amount: 'ten', checkout: { expirationMinutes: 0 } });
    expect(bad.statusCode).toBe(422);
    const paths = (bad.json() as { path: string; message: string }[]).map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['currency', 'amount', 'checkout.expirationMinutes']));
    const cents = await post({ currency: 'USD', amount: '1.005' });
    expect(cents.json()).toEqual([{ path: 'amount', message: 'amount can have at most 2 decimals in USD' }]);
    expect((await post({ currency: 'USD', amount: '0' })).statusCode).toBe(422);
  });

  test('creates a top-up invoice when no amount is given, and reads it back', async () => {
    const { app, now } = await setUp();
    const invoice = await createInvoice(app, {
      currency: 'USD',
      metadata: { userId: 'u-1', orderId: 'dep-9' },
      checkout: { redirectURL: 'http://localhost:8080/main/deposits' },
    });
    expect(invoice).toMatchObject({
      storeId: STORE,
      amount: '0',
      currency: 'USD',
      type: 'TopUp',
      status: 'New',
      createdTime: now() / 1000,
      expirationTime: now() / 1000 + 15 * 60,
      metadata: { userId: 'u-1', orderId: 'dep-9' },
    });
    expect(invoice.id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(invoice.checkoutLink).toBe(`${PUBLIC_URL}/i/${invoice.id}`);
    expect(await getInvoice(app, invoice.id)).toEqual(invoice);
    const other = await createInvoice(app, { currency: 'USD', amount: null, checkout: { expirationMinutes: 60 } });
    expect(other.id).not.toBe(invoice.id);
    expect(other.expirationTime).toBe(now() / 1000 + 3600);
    const unknown = await app.inject({ method: 'GET', url: `/api/v1/stores/${STORE}/invoices/nope`, headers: auth });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('invoice-not-found');
  });

  test('creates a fixed-amount invoice from a string or a number, always with cents', async () => {
    const { app } = await setUp();
    expect(await createInvoice(app, { currency: 'USD', amount: '25' })).toMatchObject({
      amount: '25.00',
      type: 'Standard',
    });
    expect(await createInvoice(app, { currency: 'USD', amount: 9.5 })).toMatchObject({
      amount: '9.50',
      type: 'Standard',
    });
  });
});

describe('checkout page', () => {
  test('a top-up invoice shows the simulator label, an amount field and a Pay button', async () => {
    const { app } = await setUp();
    const { id } = await createInvoice(app);
    const res = await app.inject({ method: 'GET', url: `/i/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('BTCPay Server simulator');
    expect(res.body).toContain('<label for="amount">Amount (USD)</label>');
    expect(res.body).toMatch(/<input id="amount" name="amount" type="number"[^>]*min="0.01" step="0.01"/);
    expect(res.body).toContain(`<form method="post" action="/i/${id}/pay">`);
    expect(res.body).toMatch(/<button type="submit" class="primary"[^>]*>Pay<\/button>/);
    expect(res.body).toContain('>Expire</button>');
    expect(res.headers['x-frame-options']).toBeUndefined();
    const modal = await app.inject({ method: 'GET', url: `/i/${id}?view=modal` });
    expect(modal.body).toContain(`action="/i/${id}/pay?view=modal"`);
    expect((await app.inject({ method: 'GET', url: '/i/nope' })).statusCode).toBe(404);
  });

  test('a fixed invoice shows its amount instead of an amount field', async () => {
    const { app } = await setUp();
    const { id } = await createInvoice(app, { currency: 'USD', amount: '42.10' });
    const page = (await app.inject({ method: 'GET', url: `/i/${id}` })).body;
    expect(page).toContain('42.10 USD');
    expect(page).toContain('Pay 42.10 USD');
    expect(page).not.toContain('Amount (USD)');
  });

  test('paying a top-up settles it for the amount paid and sends three signed webhooks in order', async () => {
    const { app, receiver } = await setUp();
    const { id } = await createInvoice(app, { currency: 'USD', metadata: { userId: 'u-7' } });
    const paid = await form(app, `/i/${id}/pay?view=modal`, { amount: '12.5' });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/i/${id}?view=modal`);
    expect(await getInvoice(app, id)).toMatchObject({ status: 'Settled', amount: '12.50' });

    const page = (await app.inject({ method: 'GET', url: `/i/${id}?view=modal` })).body;
    expect(page).toContain('Payment received');
    expect(page).toContain('>Close</button>');
    expect(page).toContain(`{"invoiceId":"${id}","status":"complete"}`);

    await eventually(async () => (receiver.received.length >= 3 ? true : undefined), 5000, 'three webhooks');
    await app.btcpay.webhooks?.idle();
    expect(receiver.received.map((r) => r.event.type)).toEqual([
      'InvoiceReceivedPayment',
      'InvoiceProcessing',
      'InvoiceSettled',
    ]);
    for (const { headers, raw, event } of receiver.received) {
      const expected = `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;
      expect(headers['btcpay-sig']).toBe(expected);
      expect(headers['content-type']).toBe('application/json');
      expect(event).toMatchObject({ storeId: STORE, invoiceId: id, isRedelivery: false, metadata: { userId: 'u-7' } });
      expect(event.deliveryId).toBeTruthy();
      expect(event.webhookId).toBeTruthy();
      expect(Number.isInteger(event.timestamp)).toBe(true);
    }
    expect(new Set(receiver.received.map((r) => r.event.deliveryId)).size).toBe(3);
  });

  test('a bad amount is refused with a message and leaves the invoice unpaid', async () => {
    const { app, receiver } = await setUp();
    const { id } = await createInvoice(app);
    for (const amount of ['', '0', '-1', '1.234', 'abc', '100000.01']) {
      const res = await form(app, `/i/${id}/pay`, { amount });
      expect(res.statusCode, amount).toBe(422);
      expect(res.body).toContain('role="alert"');
    }
    expect((await form(app, `/i/${id}/pay`, { amount: '0' })).body).toContain('The amount must be more than 0.');
    expect((await form(app, `/i/${id}/pay`, { amount: '100000.01' })).body).toContain('at most 100,000 USD');
    expect((await getInvoice(app, id)).status).toBe('New');
    expect((await form(app, `/i/${id}/pay`, { amount: '100000' })).statusCode).toBe(303);
    await app.btcpay.webhooks?.idle();
    expect(receiver.received).toHaveLength(3);
  });

  test('paying twice or paying an expired invoice is refused with a clear message', async () => {
    const { app, receiver } = await setUp();
    const { id } = await createInvoice(app);
    expect((await form(app, `/i/${id}/pay`, { amount: '5' })).statusCode).toBe(303);
    const again = await form(app, `/i/${id}/pay`, { amount: '5' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('This invoice has already been paid.');
    expect((await form(app, `/i/${id}/expire`)).statusCode).toBe(409);

    const { id: late } = await createInvoice(app);
    expect((await form(app, `/i/${late}/expire`)).statusCode).toBe(303);
    const expiredPay = await form(app, `/i/${late}/pay`, { amount: '5' });
    expect(expiredPay.statusCode).toBe(409);
    expect(expiredPay.body).toContain('This invoice has expired and can no longer be paid.');
    await app.btcpay.webhooks?.idle();
    expect(typesByInvoice(receiver.received)).toEqual({
      [id]: ['InvoiceReceivedPayment', 'InvoiceProcessing', 'InvoiceSettled'],
      [late]: ['InvoiceExpired'],
    });
    expect((await getInvoice(app, id)).amount).toBe('5.00');
  });

  test('Expire moves a new invoice to Expired with a webhook, and the page says so', async () => {
    const { app, receiver } = await setUp();
    const { id } = await createInvoice(app, { currency: 'USD', metadata: { userId: 'u-2' } });
    const res = await form(app, `/i/${id}/expire?view=modal`);
    expect(res.statusCode).toBe(303);
    expect((await getInvoice(app, id)).status).toBe('Expired');
    const page = (await app.inject({ method: 'GET', url: `/i/${id}?view=modal` })).body;
    expect(page).toContain('Invoice expired');
    expect(page).toContain('>Close</button>');
    expect(page).not.toContain('Amount (USD)');
    await app.btcpay.webhooks?.idle();
    expect(receiver.received.map((r) => [r.event.type, r.event.metadata])).toEqual([
      ['InvoiceExpired', { userId: 'u-2' }],
    ]);
  });
});

describe('expiry by time', () => {
  test('a new invoice past its expiration time reads as Expired and sends InvoiceExpired once', async () => {
    const { app, receiver, advance } = await setUp();
    const { id } = await createInvoice(app, { currency: 'USD', checkout: { expirationMinutes: 1 } });
    advance(59_000);
    expect((await getInvoice(app, id)).status).toBe('New');
    advance(1000);
    expect((await getInvoice(app, id)).status).toBe('Expired');
    expect((await getInvoice(app, id)).status).toBe('Expired');
    expect((await form(app, `/i/${id}/pay`, { amount: '1' })).statusCode).toBe(409);
    await app.btcpay.webhooks?.idle();
    expect(receiver.received.map((r) => r.event.type)).toEqual(['InvoiceExpired']);
  });

  test('overdue invoices expire on their own, without anyone reading them', async () => {
    const { app, receiver, advance } = await setUp({ expirySweepMs: 10 });
    const { id } = await createInvoice(app);
    const { id: paid } = await createInvoice(app);
    await form(app, `/i/${paid}/pay`, { amount: '3' });
    advance(15 * 60_000);
    const expired = await eventually(
      async () => receiver.received.find((r) => r.event.type === 'InvoiceExpired'),
      5000,
      'the InvoiceExpired webhook',
    );
    expect(expired.event.invoiceId).toBe(id);
    expect(app.btcpay.invoices.get(paid)?.status).toBe('Settled');
  });
});

describe('webhook delivery', () => {
  test('a failed delivery is retried as a redelivery of the original, and later events wait their turn', async () => {
    // The first two attempts fail, everything after succeeds.
    const { app, receiver } = await setUp({ answer: (n) => (n < 2 ? 503 : 204) });
    const { id } = await createInvoice(app);
    await form(app, `/i/${id}/pay`, { amount: '20' });
    await app.btcpay.webhooks?.idle();
    const events = receiver.received.map((r) => r.event);
    expect(events.map((e) => [e.type, e.isRedelivery])).toEqual([
      ['InvoiceReceivedPayment', false],
      ['InvoiceReceivedPayment', true],
      ['InvoiceReceivedPayment', true],
      ['InvoiceProcessing', false],
      ['InvoiceSettled', false],
    ]);
    const [first, second, third] = events;
    expect(second!.originalDeliveryId).toBe(first!.deliveryId);
    expect(third!.originalDeliveryId).toBe(first!.deliveryId);
    expect(new Set([first!.deliveryId, second!.deliveryId, third!.deliveryId]).size).toBe(3);
    expect(first!.originalDeliveryId).toBeUndefined();
  });

  test('a receiver that never answers 2xx is given up on after the last retry', async () => {
    const { app, receiver } = await setUp({ answer: () => 500 });
    const { id } = await createInvoice(app);
    await form(app, `/i/${id}/expire`);
    await app.btcpay.webhooks?.idle();
    // One attempt plus one per retry delay.
    expect(receiver.received).toHaveLength(4);
  });

  test('an unreachable receiver is retried too', async () => {
    const closed = await startReceiver();
    await closed.close();
    const app = createBtcpaySimulator({
      storeId: STORE,
      apiKey: API_KEY,
      webhookSecret: SECRET,
      webhookUrl: closed.url,
      publicUrl: PUBLIC_URL,
      logger: false,
      retryDelaysMs: [10, 10],
    });
    cleanups.push(() => app.close());
    const { id } = await createInvoice(app);
    const started = Date.now();
    await form(app, `/i/${id}/expire`);
    await app.btcpay.webhooks?.idle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(20);
  });
});

describe('test hooks', () => {
  test('settle and expire need the API key and drive the same transitions as the page', async () => {
    const { app, receiver } = await setUp();
    const { id } = await createInvoice(app);
    const settleUrl = `/__sim/invoices/${id}/settle`;
    expect((await app.inject({ method: 'POST', url: settleUrl, payload: { amount: '7.25' } })).statusCode).toBe(401);
    const bad = await app.inject({ method: 'POST', url: settleUrl, headers: auth, payload: { amount: '-2' } });
    expect(bad.statusCode).toBe(422);
    const settled = await app.inject({ method: 'POST', url: settleUrl, headers: auth, payload: { amount: '7.25' } });
    expect(settled.statusCode).toBe(200);
    expect(settled.json()).toMatchObject({ id, status: 'Settled', amount: '7.25' });
    const twice = await app.inject({ method: 'POST', url: settleUrl, headers: auth, payload: { amount: '7.25' } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This invoice has already been paid.');

    const fixed = await createInvoice(app, { currency: 'USD', amount: '30' });
    const fixedSettled = await app.inject({
      method: 'POST',
      url: `/__sim/invoices/${fixed.id}/settle`,
      headers: auth,
      payload: {},
    });
    expect(fixedSettled.json()).toMatchObject({ status: 'Settled', amount: '30.00' });

    const other = await createInvoice(app);
    const expired = await app.inject({
      method: 'POST',
      url: `/__sim/invoices/${other.id}/expire`,
      headers: auth,
      payload: {},
    });
    expect(expired.json()).toMatchObject({ status: 'Expired' });
    const missing = await app.inject({
      method: 'POST',
      url: '/__sim/invoices/nope/settle',
      headers: auth,
      payload: {},
    });
    expect(missing.statusCode).toBe(404);

    await app.btcpay.webhooks?.idle();
    const settledEvents = ['InvoiceReceivedPayment', 'InvoiceProcessing', 'InvoiceSettled'];
    expect(typesByInvoice(receiver.received)).toEqual({
      [id]: settledEvents,
      [fixed.id]: settledEvents,
      [other.id]: ['InvoiceExpired'],
    });
  });
});

describe('modal script and persistence', () => {
  test('the modal script is served as JavaScript and defines window.btcpay', async () => {
    const { app } = await setUp();
    const res = await app.inject({ method: 'GET', url: '/modal/btcpay.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/javascript');
    for (const name of [
      'showInvoice',
      'hideFrame',
      'onModalWillEnter',
      'onModalWillLeave',
      'onModalReceiveMessage',
      'setApiUrlPrefix',
    ]) {
      expect(res.body).toContain(`${name}:`);
    }
    expect(res.body).toContain('window.btcpay = {');
    expect(res.body).toContain(JSON.stringify(PUBLIC_URL));
    // It must at least parse.
    expect(() => new Function(res.body)).not.toThrow();
  });

  test('with a data file, invoices survive a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'btcpay-sim-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const dataFile = join(dir, 'invoices.json');
    const first = await setUp({ dataFile });
    const { id } = await createInvoice(first.app);
    await form(first.app, `/i/${id}/pay`, { amount: '2' });
    await first.app.close();
    const second = await setUp({ dataFile });
    expect(await getInvoice(second.app, id)).toMatchObject({ status: 'Settled', amount: '2.00' });
  });
});
