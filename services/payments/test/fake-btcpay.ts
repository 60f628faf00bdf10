import { createHmac, randomBytes } from 'node:crypto';
import type { CreateInvoiceRequest, Invoice } from '@flatship/proto';
import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { createBtcpayClient } from '../src/adapters/btcpay-client';
import type { DomainLogger } from '../src/domain/ports';

export const BTCPAY_URL = 'https://btcpay.test';
export const STORE_ID = 'store-flatship';
export const API_KEY = 'test-api-key-1234567890';
export const WEBHOOK_SECRET = 'test-webhook-secret-abcdef';

/** How the fake answers: like Greenfield, or one of the ways a provider fails. */
export type FakeMode = 'ok' | 'network-error' | 'server-error' | 'not-json' | 'not-an-invoice' | 'slow';

/**
 * BTCPay Server's Greenfield API at the network edge (msw): create answers a
 * top-up invoice, read answers the invoice as the test last set it.
 */
export function createFakeBtcpay() {
  const invoices = new Map<string, Invoice>();
  const created: { body: CreateInvoiceRequest; authorization: string | null }[] = [];
  let reads = 0;
  const state = { mode: 'ok' as FakeMode };

  const failure = async () => {
    switch (state.mode) {
      case 'network-error':
        return HttpResponse.error();
      case 'server-error':
        return HttpResponse.json({ code: 'generic-error', message: 'boom' }, { status: 500 });
      case 'not-json':
        return new HttpResponse('<html>Bad gateway</html>', { status: 200 });
      case 'not-an-invoice':
        return HttpResponse.json({ id: 'x', hello: 'world' });
      case 'slow':
        await delay(2_000);
        return null;
      default:
        return null;
    }
  };
  const authorised = (request: Request) => request.headers.get('authorization') === `token ${API_KEY}`;
  const base = `${BTCPAY_URL}/api/v1/stores/:storeId/invoices`;

  const server = setupServer(
    http.post(base, async ({ request, params }) => {
      const failed = await failure();
      if (failed) return failed;
      if (!authorised(request) || params.storeId !== STORE_ID) return new HttpResponse(null, { status: 403 });
      const body = (await request.json()) as CreateInvoiceRequest;
      created.push({ body, authorization: request.headers.get('authorization') });
      const id = randomBytes(11).toString('hex');
      const now = Math.floor(Date.now() / 1000);
      const invoice: Invoice = {
        id,
        storeId: STORE_ID,
        amount: '0',
        currency: body.currency,
        type: 'TopUp',
        checkoutLink: `${BTCPAY_URL}/i/${id}`,
        status: 'New',
        createdTime: now,
        expirationTime: now + (body.checkout?.expirationMinutes ?? 15) * 60,
        metadata: body.metadata ?? {},
      };
      invoices.set(id, invoice);
      return HttpResponse.json({ ...invoice, additionalStatus: 'None', monitoringExpiration: now + 86_400 });
    }),
    http.get(`${base}/:invoiceId`, async ({ request, params }) => {
      reads++;
      const failed = await failure();
      if (failed) return failed;
      if (!authorised(request) || params.storeId !== STORE_ID) return new HttpResponse(null, { status: 403 });
      const invoice = invoices.get(params.invoiceId as string);
      if (!invoice) return HttpResponse.json({ code: 'invoice-not-found' }, { status: 404 });
      return HttpResponse.json(invoice);
    }),
  );

  return {
    invoices,
    created,
    state,
    get reads() {
      return reads;
    },
    listen: () => server.listen({ onUnhandledRequest: 'bypass' }),
    close: () => server.close(),
    /** What BTCPay reports from now on for this invoice (a payment, an expiry, …). */
    set(invoiceId: string, patch: Partial<Invoice>) {
      const invoice = invoices.get(invoiceId);
      if (!invoice) throw new Error(`no fake invoice ${invoiceId}`);
      invoices.set(invoiceId, { ...invoice, ...patch });
    },
    /** An invoice created at BTCPay by someone else than this service. */
    add(invoice: Partial<Invoice> & { id: string }) {
      const now = Math.floor(Date.now() / 1000);
      invoices.set(invoice.id, {
        storeId: STORE_ID,
        amount: '0',
        currency: 'USD',
        type: 'TopUp',
        checkoutLink: `${BTCPAY_URL}/i/${invoice.id}`,
        status: 'New',
        createdTime: now,
        expirationTime: now + 3600,
        metadata: {},
        ...invoice,
      });
    },
  };
}
export type FakeBtcpay = ReturnType<typeof createFakeBtcpay>;

/** Log lines the code under test wrote, to check that a refusal leaves a trace. */
export function createLogCapture(): DomainLogger & { lines: { level: string; obj: object; msg: string }[] } {
  const lines: { level: string; obj: object; msg: string }[] = [];
  const at = (level: string) => (obj: object, msg: string) => {
    lines.push({ level, obj, msg });
  };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

export const quietLogger: DomainLogger = { info: () => {}, warn: () => {}, error: () => {} };

export function createTestBtcpayClient(logger: DomainLogger = quietLogger, timeoutMs?: number) {
  return createBtcpayClient({
    url: BTCPAY_URL,
    storeId: STORE_ID,
    apiKey: API_KEY,
    logger,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
}

export const signBody = (body: string, secret: string = WEBHOOK_SECRET) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

let delivery = 0;
/** A webhook delivery as BTCPay sends it for one of the test store's invoices. */
export function webhookEvent(type: string, invoiceId: string, over: Record<string, unknown> = {}) {
  delivery++;
  return {
    deliveryId: `dlv-${delivery}`,
    webhookId: 'wh-1',
    originalDeliveryId: `dlv-${delivery}`,
    isRedelivery: false,
    type,
    timestamp: Math.floor(Date.now() / 1000),
    storeId: STORE_ID,
    invoiceId,
    metadata: {},
    ...over,
  };
}
