import type { DepositFilter, LEDGER_KINDS } from '@flatship/proto';

export type { DepositFilter };

declare const txBrand: unique symbol;
/** An open database transaction; opaque to the domain, which only hands it on to repositories. */
export interface Tx {
  readonly [txBrand]: true;
}

export interface Transactor {
  run<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

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
  /** Newest first. */
  list(userId: string, opts: { filter: DepositFilter; offset: number; limit: number }): Promise<DepositRecord[]>;
  count(userId: string, filter: DepositFilter): Promise<number>;
}
