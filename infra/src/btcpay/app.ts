import { timingSafeEqual } from 'node:crypto';
import { createServiceApp, type ServiceApp } from '@flatship/kit';
import { CreateInvoiceRequestSchema, type WEBHOOK_EVENT_TYPES, type WebhookEvent } from '@flatship/proto';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { Value } from 'typebox/value';
import { renderCheckoutPage, renderNotFoundPage } from './checkout-page';
import {
  createInvoiceStore,
  formatAmount,
  type InvoiceStore,
  newInvoiceId,
  parsePayment,
  refusalToPay,
  type StoredInvoice,
} from './invoices';
import { renderModalScript } from './modal-script';
import { createWebhookSender, type WebhookSender } from './webhooks';

export interface BtcpaySimulatorOptions {
  storeId: string;
  apiKey: string;
  /** Where webhooks go; none are sent without it. */
  webhookUrl?: string;
  webhookSecret: string;
  /** The simulator's address as a browser reaches it: checkout links and the modal's iframe use it. */
  publicUrl: string;
  logger: Logger | false;
  /** Mirror invoices to this JSON file so they survive a restart. */
  dataFile?: string;
  /** Injectable for tests: the clock (ms), the waits before webhook retries, how often overdue invoices expire. */
  now?: () => number;
  retryDelaysMs?: number[];
  expirySweepMs?: number;
}

export type BtcpaySimulator = ServiceApp & {
  btcpay: { invoices: InvoiceStore; webhooks: WebhookSender | null };
};

const DEFAULT_EXPIRATION_MINUTES = 15;
/** A fixed-amount invoice must stay below this, like the checkout form's limit. */
const MAX_INVOICE_AMOUNT = 1_000_000;
const AMOUNT_PATTERN = /^\d+(\.\d+)?$/;

interface FieldError {
  path: string;
  message: string;
}

const unauthenticated = { code: 'unauthenticated', message: 'Authentication is required for accessing this endpoint' };
const storeNotFound = { code: 'store-not-found', message: 'The store was not found' };
const invoiceNotFound = { code: 'invoice-not-found', message: 'The invoice was not found' };

/** The Greenfield view of an invoice: what a real BTCPay Server would answer. */
function toGreenfield(invoice: StoredInvoice) {
  const { redirectUrl, ...view } = invoice;
  return { ...view, checkout: { redirectURL: redirectUrl ?? null } };
}

/** Reads a create-invoice body, or lists what is wrong with it the way Greenfield does (422). */
function readCreateRequest(body: unknown): { errors: FieldError[] } | { request: Record<string, unknown> } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { errors: [{ path: '', message: 'The request body must be a JSON object' }] };
  }
  // Greenfield also takes the amount as a JSON number.
  const raw = { ...(body as Record<string, unknown>) };
  if (typeof raw.amount === 'number') raw.amount = String(raw.amount);
  const errors: FieldError[] = [];
  for (const e of Value.Errors(CreateInvoiceRequestSchema, raw)) {
    const err = e as { instancePath: string; keyword: string; message: string; params: Record<string, unknown> };
    if (err.keyword === 'required') {
      for (const name of (err.params.requiredProperties as string[] | undefined) ?? []) {
        errors.push({
          path: [err.instancePath.replace(/^\//, ''), name].filter(Boolean).join('.'),
          message: `${name} is required`,
        });
      }
    } else {
      errors.push({ path: err.instancePath.replace(/^\//, '').replace(/\//g, '.'), message: err.message });
    }
  }
  if (typeof raw.currency === 'string' && raw.currency !== 'USD')
    errors.push({ path: 'currency', message: 'The simulator only takes USD invoices' });
  if (typeof raw.amount === 'string') {
    const amount = Number(raw.amount);
    if (!AMOUNT_PATTERN.test(raw.amount.trim()) || !(amount > 0)) {
      errors.push({ path: 'amount', message: 'amount must be a positive decimal number' });
    } else if (!/^\d+(\.\d{1,2})?$/.test(raw.amount.trim())) {
      errors.push({ path: 'amount', message: 'amount can have at most 2 decimals in USD' });
    } else if (amount > MAX_INVOICE_AMOUNT) {
      errors.push({ path: 'amount', message: `amount must be at most ${MAX_INVOICE_AMOUNT}` });
    }
  }
  return errors.length > 0 ? { errors: dedupe(errors) } : { request: raw };
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.path}\n${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A local stand-in for BTCPay Server: the Greenfield invoice calls payments
 * makes, a checkout page with a "Pay" button instead of a wallet, the modal
 * script the web app loads, and signed webhooks, so deposits work end to end
 * with nothing external.
 */
export function createBtcpaySimulator(opts: BtcpaySimulatorOptions): BtcpaySimulator {
  const now = opts.now ?? Date.now;
  const publicUrl = opts.publicUrl.replace(/\/+$/, '');
  const publicOrigin = new URL(publicUrl).origin;
  const invoices = createInvoiceStore(opts.dataFile);
  const app = createServiceApp({ name: 'btcpay', logger: opts.logger, trustProxy: false }) as BtcpaySimulator;
  const webhooks = opts.webhookUrl
    ? createWebhookSender({
        url: opts.webhookUrl,
        secret: opts.webhookSecret,
        webhookId: `sim-${opts.storeId}`,
        logger: app.log,
        retryDelaysMs: opts.retryDelaysMs,
      })
    : null;
  app.decorate('btcpay', { invoices, webhooks });

  // The checkout page's forms post url-encoded bodies; no plugin needed for that.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  const emit = (invoice: StoredInvoice, type: (typeof WEBHOOK_EVENT_TYPES)[number]) => {
    const event: Omit<WebhookEvent, 'deliveryId' | 'isRedelivery' | 'originalDeliveryId' | 'webhookId'> = {
      type,
      timestamp: Math.floor(now() / 1000),
      storeId: invoice.storeId,
      invoiceId: invoice.id,
      metadata: invoice.metadata,
    };
    webhooks?.send(event);
  };

  /** New invoices past their expiration time expire, with the webhook BTCPay sends. */
  const expireIfOverdue = (invoice: StoredInvoice): StoredInvoice => {
    if (invoice.status !== 'New' || now() < invoice.expirationTime * 1000) return invoice;
    const expired = invoices.save({ ...invoice, status: 'Expired' });
    emit(expired, 'InvoiceExpired');
    return expired;
  };
  const find = (id: string) => {
    const invoice = invoices.get(id);
    return invoice ? expireIfOverdue(invoice) : null;
  };

  const sweep = setInterval(() => {
    for (const invoice of invoices.all()) expireIfOverdue(invoice);
  }, opts.expirySweepMs ?? 1000);
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    webhooks?.close();
    await invoices.flushed();
  });

  type Outcome = { ok: true; invoice: StoredInvoice } | { ok: false; status: number; message: string };

  const pay = (invoice: StoredInvoice, rawAmount: unknown): Outcome => {
    const refusal = refusalToPay(invoice);
    if (refusal) return { ok: false, status: 409, message: refusal };
    const parsed =
      invoice.type === 'Standard' && rawAmount === undefined
        ? { amount: Number(invoice.amount) }
        : parsePayment(rawAmount);
    if ('error' in parsed) return { ok: false, status: 422, message: parsed.error };
    const paid = formatAmount(parsed.amount);
    if (invoice.type === 'Standard' && paid !== invoice.amount) {
      return {
        ok: false,
        status: 422,
        message: `This invoice must be paid in full: ${invoice.amount} ${invoice.currency}.`,
      };
    }
    const processing = invoices.save({ ...invoice, amount: paid, status: 'Processing' });
    emit(processing, 'InvoiceReceivedPayment');
    emit(processing, 'InvoiceProcessing');
    // The simulated chain confirms at once.
    const settled = invoices.save({ ...processing, status: 'Settled' });
    emit(settled, 'InvoiceSettled');
    return { ok: true, invoice: settled };
  };

  const expire = (invoice: StoredInvoice): Outcome => {
    if (invoice.status === 'Expired') return { ok: false, status: 409, message: 'This invoice has already expired.' };
    if (invoice.status !== 'New') return { ok: false, status: 409, message: 'Only an unpaid invoice can expire.' };
    const expired = invoices.save({ ...invoice, status: 'Expired' });
    emit(expired, 'InvoiceExpired');
    return { ok: true, invoice: expired };
  };

  const isAuthorised = (header: string | undefined) => {
    const [scheme, key] = (header ?? '').split(' ');
    return scheme?.toLowerCase() === 'token' && key !== undefined && sameSecret(key, opts.apiKey);
  };

  // ── Greenfield API ────────────────────────────────────────────────────────

  app.register(async (api) => {
    api.addHook('onRequest', async (request, reply) => {
      if (!isAuthorised(request.headers.authorization)) return reply.status(401).send(unauthenticated);
      const { storeId } = request.params as { storeId?: string };
      if (storeId !== undefined && storeId !== opts.storeId) return reply.status(404).send(storeNotFound);
    });

    api.post<{ Params: { storeId: string } }>('/api/v1/stores/:storeId/invoices', async (request, reply) => {
      const read = readCreateRequest(request.body);
      if ('errors' in read) return reply.status(422).send(read.errors);
      const body = read.request as {
        amount?: string | null;
        currency: string;
        metadata?: Record<string, unknown>;
        checkout?: { redirectURL?: string; expirationMinutes?: number };
      };
      const createdMs = now();
      const id = newInvoiceId();
      const isTopUp = body.amount === undefined || body.amount === null;
      const invoice = invoices.save({
        id,
        storeId: opts.storeId,
        amount: isTopUp ? '0' : formatAmount(Number(body.amount)),
        currency: body.currency,
        type: isTopUp ? 'TopUp' : 'Standard',
        checkoutLink: `${publicUrl}/i/${id}`,
        status: 'New',
        createdTime: Math.floor(createdMs / 1000),
        expirationTime: Math.floor(
          (createdMs + (body.checkout?.expirationMinutes ?? DEFAULT_EXPIRATION_MINUTES) * 60_000) / 1000,
        ),
        metadata: body.metadata ?? {},
        ...(body.checkout?.redirectURL ? { redirectUrl: body.checkout.redirectURL } : {}),
      });
      // No InvoiceCreated webhook: the caller holds the invoice already, and the event could reach it before its own record exists.
      return reply.status(200).send(toGreenfield(invoice));
    });

    api.get<{ Params: { storeId: string; invoiceId: string } }>(
      '/api/v1/stores/:storeId/invoices/:invoiceId',
      async (request, reply) => {
        const invoice = find(request.params.invoiceId);
        if (!invoice) return reply.status(404).send(invoiceNotFound);
        return toGreenfield(invoice);
      },
    );
  });

  // ── Checkout page and modal script ──────────────────────────────────────────

  const sendPage = (reply: FastifyReply, status: number, html: string) =>
    reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send(html);

  const isModalView = (query: unknown) => (query as { view?: string } | undefined)?.view === 'modal';
  const isJson = (contentType: string | undefined) => (contentType ?? '').startsWith('application/json');

  app.get<{ Params: { invoiceId: string } }>('/i/:invoiceId', async (request, reply) => {
    const invoice = find(request.params.invoiceId);
    if (!invoice) return sendPage(reply, 404, renderNotFoundPage());
    return sendPage(reply, 200, renderCheckoutPage({ invoice, isModal: isModalView(request.query) }));
  });

  for (const [action, run] of [
    ['pay', pay],
    ['expire', expire],
  ] as const) {
    app.post<{ Params: { invoiceId: string } }>(`/i/:invoiceId/${action}`, async (request, reply) => {
      const invoice = find(request.params.invoiceId);
      const json = isJson(request.headers['content-type']);
      if (!invoice) return json ? reply.status(404).send(invoiceNotFound) : sendPage(reply, 404, renderNotFoundPage());
      const amount = (request.body as { amount?: unknown } | undefined)?.amount;
      const outcome = run(invoice, amount);
      if (json) {
        return outcome.ok
          ? toGreenfield(outcome.invoice)
          : reply.status(outcome.status).send({
              code: outcome.status === 422 ? 'invalid-amount' : 'invoice-not-payable',
              message: outcome.message,
            });
      }
      const isModal = isModalView(request.query);
      if (outcome.ok) {
        // Post/redirect/get: reloading the result page must not pay again.
        return reply.redirect(`/i/${encodeURIComponent(invoice.id)}${isModal ? '?view=modal' : ''}`, 303);
      }
      return sendPage(
        reply,
        outcome.status,
        renderCheckoutPage({
          invoice: invoices.get(invoice.id) ?? invoice,
          isModal,
          error: outcome.message,
          enteredAmount: typeof amount === 'string' ? amount : undefined,
        }),
      );
    });
  }

  const modalScript = renderModalScript(publicOrigin);
  app.get('/modal/btcpay.js', async (_request, reply) =>
    reply
      .header('content-type', 'application/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(modalScript),
  );

  // ── Test hooks: settle or expire without a browser ─────────────────────────

  app.register(async (sim) => {
    sim.addHook('onRequest', async (request, reply) => {
      if (!isAuthorised(request.headers.authorization)) return reply.status(401).send(unauthenticated);
    });
    for (const [action, run] of [
      ['settle', pay],
      ['expire', expire],
    ] as const) {
      sim.post<{ Params: { invoiceId: string } }>(`/__sim/invoices/:invoiceId/${action}`, async (request, reply) => {
        const invoice = find(request.params.invoiceId);
        if (!invoice) return reply.status(404).send(invoiceNotFound);
        const outcome = run(invoice, (request.body as { amount?: unknown } | undefined)?.amount);
        if (outcome.ok) return toGreenfield(outcome.invoice);
        return outcome.status === 422
          ? reply.status(422).send([{ path: 'amount', message: outcome.message }])
          : reply.status(outcome.status).send({ code: 'invoice-not-payable', message: outcome.message });
      });
    }
  });

  return app;
}
