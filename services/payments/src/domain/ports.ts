import type { Tx } from '@flatship/kit';
import type {
  CreateInvoiceRequest,
  DepositFilter,
  DepositSettledEvent,
  Invoice,
  LEDGER_KINDS,
  ReferralBonusSettingsCents,
  ReferralBonusSide,
  ReferralBonusWithheldReason,
  ReferralStanding,
} from '@flatship/proto';

export type { Clock, DomainLogger, Transactor, Tx } from '@flatship/kit';
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
  /** The idempotency key of the user's earliest deposit entry (by seq), or null when they have none. */
  firstDepositKey(userId: string, tx?: Tx): Promise<string | null>;
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

/** A line of the deposit history: a BTCPay deposit, or a referral bonus credited to the balance. */
export interface DepositHistoryLine {
  id: string;
  kind: 'deposit' | 'referral_bonus';
  amountCents: number;
  status: string;
  createdAt: Date;
  /** What a bonus was for; null for deposits. */
  memo: string | null;
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
  /** Deposits and referral bonuses, newest first (bonuses count as settled). */
  list(userId: string, opts: { filter: DepositFilter; offset: number; limit: number }): Promise<DepositHistoryLine[]>;
  count(userId: string, filter: DepositFilter): Promise<number>;
}

/** Records `deposit.settled` in the caller's transaction, so it is relayed only if the credit commits. */
export type PublishDepositSettled = (tx: Tx, event: DepositSettledEvent) => Promise<void>;

export interface ReferralBonusSettings extends ReferralBonusSettingsCents {
  /** The last change and the admin who made it; null while the settings are the defaults. */
  updatedAt: Date | null;
  updatedBy: string | null;
}

export interface ReferralBonusDecision {
  referredUserId: string;
  side: ReferralBonusSide;
  /** Who is (or would have been) paid: the referrer or the referred user. */
  beneficiaryId: string;
  status: 'credited' | 'withheld';
  reason: ReferralBonusWithheldReason | null;
  amountCents: number;
  /** The deposit that triggered the decision. */
  invoiceId: string;
  ledgerEntryId: string | null;
  decidedAt: Date;
}

export interface ReferralBonusRepo {
  getSettings(tx?: Tx): Promise<ReferralBonusSettings>;
  /** Replaces the settings and records the change with the admin's id, in the caller's transaction. */
  setSettings(settings: ReferralBonusSettingsCents, adminId: string, at: Date, tx: Tx): Promise<ReferralBonusSettings>;
  /**
   * Records the decision for one referred user and side unless one exists: true when this call recorded it. A
   * concurrent claim of the same side waits for this transaction and then finds it taken.
   */
  claim(decision: Omit<ReferralBonusDecision, 'ledgerEntryId' | 'decidedAt'>, at: Date, tx: Tx): Promise<boolean>;
  /** Links a credited decision to its ledger entry (same transaction as the claim). */
  setLedgerEntry(referredUserId: string, side: ReferralBonusSide, entryId: string, tx: Tx): Promise<void>;
  listForReferred(referredUserIds: string[]): Promise<ReferralBonusDecision[]>;
}

/** Who referred a user, and whether each of them is still in good standing (auth's word). */
export interface ReferralDirectory {
  /** Null when auth has never heard of the user. Throws when auth cannot be asked (the caller retries). */
  standing(userId: string): Promise<ReferralStanding | null>;
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
