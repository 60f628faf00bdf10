import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { Invoice, InvoiceStatus } from '@flatship/proto';

/** What the simulator keeps about an invoice: the Greenfield view plus what the checkout page needs. */
export interface StoredInvoice extends Invoice {
  status: InvoiceStatus;
  redirectUrl?: string;
}

export const MAX_PAYMENT = 100_000;
const PAYMENT_PATTERN = /^\d+(\.\d{1,2})?$/;

/** BTCPay's invoice ids are opaque url-safe strings; 16 random bytes make them unguessable too. */
export const newInvoiceId = () => randomBytes(16).toString('base64url');

/** "12.5" → "12.50"; amounts on the simulator are always shown with cents. */
export const formatAmount = (value: number) => value.toFixed(2);

/**
 * Reads a payment amount the way the checkout form sends it, or says what is
 * wrong with it in words the payer understands.
 */
export function parsePayment(raw: unknown): { amount: number } | { error: string } {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (text === '') return { error: 'Enter the amount to pay.' };
  if (!PAYMENT_PATTERN.test(text)) return { error: 'Enter a positive amount in dollars with at most 2 decimals.' };
  const amount = Number(text);
  if (amount <= 0) return { error: 'The amount must be more than 0.' };
  if (amount > MAX_PAYMENT) return { error: `The amount must be at most ${MAX_PAYMENT.toLocaleString('en-US')} USD.` };
  return { amount };
}

export type TransitionResult = { ok: true; invoice: StoredInvoice } | { ok: false; reason: string };

/** Why an invoice cannot take a payment, or null when it can. */
export function refusalToPay(invoice: StoredInvoice): string | null {
  switch (invoice.status) {
    case 'New':
      return null;
    case 'Expired':
      return 'This invoice has expired and can no longer be paid.';
    case 'Settled':
    case 'Processing':
      return 'This invoice has already been paid.';
    default:
      return `This invoice is ${invoice.status.toLowerCase()} and can no longer be paid.`;
  }
}

/**
 * The invoices of the one simulated store, in memory, optionally mirrored to a
 * JSON file so invoices survive a restart of `make start` as they would on a
 * real server.
 */
export function createInvoiceStore(dataFile?: string) {
  const invoices = new Map<string, StoredInvoice>();
  if (dataFile) {
    try {
      const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as StoredInvoice[];
      for (const invoice of saved) invoices.set(invoice.id, invoice);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new Error(`${dataFile} is unreadable (${(e as Error).message}); fix or remove it`);
      }
    }
  }
  let writes = Promise.resolve();
  const persist = () => {
    if (!dataFile) return writes;
    const snapshot = JSON.stringify([...invoices.values()]);
    const tmp = `${dataFile}.${process.pid}.tmp`;
    // One write at a time, each whole then renamed, so the file is never half written.
    writes = writes
      .then(() => writeFile(tmp, snapshot))
      .then(() => rename(tmp, dataFile))
      .catch(() => {});
    return writes;
  };
  return {
    get: (id: string) => invoices.get(id) ?? null,
    all: () => [...invoices.values()],
    save(invoice: StoredInvoice) {
      invoices.set(invoice.id, invoice);
      void persist();
      return invoice;
    },
    /** Resolves once every change so far is on disk. */
    flushed: () => writes,
  };
}

export type InvoiceStore = ReturnType<typeof createInvoiceStore>;
