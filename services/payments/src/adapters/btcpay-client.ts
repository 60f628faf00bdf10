import { AppError, describeSchemaError } from '@flatship/kit';
import { type CreateInvoiceRequest, type Invoice, InvoiceSchema } from '@flatship/proto';
import { Compile } from 'typebox/compile';
import { MESSAGES } from '../domain/messages';
import type { DomainLogger, PaymentProvider } from '../domain/ports';

export interface BtcpayClientOptions {
  /** The server's base URL, e.g. https://pay.example.com (a path prefix is kept). */
  url: string;
  storeId: string;
  apiKey: string;
  logger: DomainLogger;
  timeoutMs?: number;
}

const checkInvoice = Compile(InvoiceSchema);

/**
 * BTCPay Server's Greenfield API (the subset in proto/src/btcpay.ts). Every
 * failure becomes one customer-readable AppError; what actually went wrong
 * is logged here, never the API key.
 */
export function createBtcpayClient(opts: BtcpayClientOptions): PaymentProvider {
  const invoicesUrl = `${opts.url.replace(/\/+$/, '')}/api/v1/stores/${encodeURIComponent(opts.storeId)}/invoices`;
  const timeoutMs = opts.timeoutMs ?? 10_000;

  async function call(method: 'GET' | 'POST', url: string, body?: CreateInvoiceRequest): Promise<Invoice> {
    const fail = (details: object): never => {
      opts.logger.error({ method, url, ...details }, 'BTCPay call failed');
      throw new AppError('PAYMENTS_PROVIDER_UNAVAILABLE', MESSAGES.providerUnavailable);
    };
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization: `token ${opts.apiKey}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (e) {
      return fail({ error: (e as Error).message });
    }
    if (!res.ok) return fail({ status: res.status, body: text.slice(0, 500) });
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return fail({ status: res.status, problem: 'reply is not JSON', body: text.slice(0, 500) });
    }
    if (!checkInvoice.Check(data)) {
      const first = [...checkInvoice.Errors(data)][0];
      const problem = first ? describeSchemaError(first as Parameters<typeof describeSchemaError>[0], 'reply') : '';
      return fail({ status: res.status, problem: `reply is not an invoice: ${problem}` });
    }
    return data;
  }

  return {
    storeId: opts.storeId,
    createInvoice: (request) => call('POST', invoicesUrl, request),
    getInvoice: (invoiceId) => call('GET', `${invoicesUrl}/${encodeURIComponent(invoiceId)}`),
  };
}
