import type { Tx } from '@flatship/kit';
import type { CreateInvoiceRequest, DepositFilter, Invoice, LEDGER_KINDS } from '@flatship/proto';

export type { Transactor, Tx } from '@flatship/kit';
export type { DepositFilter };

export type LedgerKind = (typeof LEDGER_KINDS)[number];

export interface LedgerEntryRecord {
  id: string;
  userId: string;
  kind: LedgerKind;
  amountCents: number;
  balanceAfterCents: number;
  key: string;
  reference: string | null;
  memo: string | null;
  adminId: string | null;
  createdAt: Date;
}

export interface NewLedgerEntry {
  userId: string;
  kind: LedgerKind;
  amountCents: number;
  balanceAfterCents: number;
  key: string;
  reference?: string | null;
  memo?: string | null;
  adminId?: string | null;
}

/** Appending fails only when another movement already holds the idempotency key. */
export type AppendResult = { ok: true; entry: LedgerEntryRecord } | { ok: false; conflict: 'key' };

export interface LedgerRepo {
  findByKey(key: string, tx?: Tx): Promise<LedgerEntryRecord | null>;
  /**
   * Creates the account when it has none yet and locks its row until the
   * transaction ends, so movements of one user happen one after another.
   * Returns the current balance.
   */
  lockAccount(userId: string, tx: Tx): Promise<number>;
  /** Appends the entry and sets the account balance to its balanceAfterCents, in the caller's transaction. */
  append(entry: NewLedgerEntry, tx: Tx): Promise<AppendResult>;
  /** Sum of the refunds already recorded against a charge key (positive cents). */
  refundedCents(chargeKey: string, tx?: Tx): Promise<number>;
  /** Money figures per user, in cents; users without an account are absent. */
  totals(userIds: string[]): Promise<Map<string, AccountTotals>>;
  /** Newest first. */
  listEntries(userId: string, limit: number): Promise<LedgerEntryRecord[]>;
}

export interface AccountTotals {
  balanceCents: number;
  depositCents: number;
  chargedCents: number;
  refundedCents: number;
  /** The seq of the latest ledger entry (0 for none): later figures have a higher one. */
  seq: number;
}

export interface DepositRecord {
  id: string;
  userId: string;
  invoiceId: string;
  amountCents: number;
  status: string;
  createdAt: Date;
  settledAt: Date | null;
}

export interface NewDeposit {
  userId: string;
  invoiceId: string;
  amountCents: number;
  status: string;
  createdAt?: Date;
  settledAt?: Date | null;
}

export interface DepositsRepo {
  insert(deposit: NewDeposit, tx?: Tx): Promise<DepositRecord>;
  findByInvoiceId(invoiceId: string, tx?: Tx): Promise<DepositRecord | null>;
  /** Reads the deposit and locks its row until the transaction ends. */
  lockByInvoiceId(invoiceId: string, tx: Tx): Promise<DepositRecord | null>;
  /**
   * Sets a status unless the deposit is already Settled (settled is final).
   * Returns whether the row changed.
   */
  setStatus(invoiceId: string, status: string, tx?: Tx): Promise<boolean>;
  /** Marks the deposit Settled with what was paid; only for a deposit not yet settled. */
  settle(invoiceId: string, amountCents: number, settledAt: Date, tx: Tx): Promise<void>;
  /** Deposits still New or Processing created within (createdAfter, createdBefore), oldest first. */
  listOpen(opts: { createdAfter: Date; createdBefore: Date; limit: number }): Promise<DepositRecord[]>;
  /** Newest first. */
  list(userId: string, opts: { filter: DepositFilter; offset: number; limit: number }): Promise<DepositRecord[]>;
  count(userId: string, filter: DepositFilter): Promise<number>;
}

/**
 * The payment provider (BTCPay Server's Greenfield API). Every failure, be it
 * the network, a non-2xx answer or a reply of the wrong shape, is an AppError
 * PAYMENTS_PROVIDER_UNAVAILABLE whose message a customer can read.
 */
export interface PaymentProvider {
  /** The store this service's invoices live in; webhooks of other stores are not ours. */
  readonly storeId: string;
  createInvoice(request: CreateInvoiceRequest): Promise<Invoice>;
  getInvoice(invoiceId: string): Promise<Invoice>;
}

/** What the use cases log through; pino and Fastify's request logger both fit. */
export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface Clock {
  now(): Date;
}
