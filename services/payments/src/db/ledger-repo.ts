import type { Knex } from '@flatship/kit';
import { fromTx } from '@flatship/kit';
import type { Outbox } from '@flatship/kit/bus';
import { type AccountChangedEvent, TOPICS } from '@flatship/proto';
import type { AccountTotals, LedgerEntryRecord, LedgerKind, LedgerRepo, NewLedgerEntry, Tx } from '../domain/ports';

interface EntryRow {
  id: string;
  user_id: string;
  kind: LedgerKind;
  // bigint columns arrive as strings from pg.
  amount_cents: string;
  balance_after_cents: string;
  idempotency_key: string;
  reference: string | null;
  memo: string | null;
  admin_id: string | null;
  created_at: Date;
}

const toRecord = (r: EntryRow): LedgerEntryRecord => ({
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  amountCents: Number(r.amount_cents),
  balanceAfterCents: Number(r.balance_after_cents),
  key: r.idempotency_key,
  reference: r.reference,
  memo: r.memo,
  adminId: r.admin_id,
  createdAt: r.created_at,
});

export const IDEMPOTENCY_KEY_UNIQUE = 'ledger_entries_idempotency_key_key';

const isKeyViolation = (e: unknown) => {
  const err = e as { code?: string; constraint?: string };
  return err.code === '23505' && err.constraint === IDEMPOTENCY_KEY_UNIQUE;
};

interface AccountRow {
  user_id: string;
  // bigint columns arrive as strings from pg.
  balance_cents: string;
  total_deposit_cents: string;
  total_charged_cents: string;
  total_refunded_cents: string;
  last_entry_seq: string;
}

const ACCOUNT_COLUMNS = [
  'user_id',
  'balance_cents',
  'total_deposit_cents',
  'total_charged_cents',
  'total_refunded_cents',
  'last_entry_seq',
] as const;

const toTotals = (a: AccountRow): AccountTotals => ({
  balanceCents: Number(a.balance_cents),
  depositCents: Number(a.total_deposit_cents),
  chargedCents: Number(a.total_charged_cents),
  refundedCents: Number(a.total_refunded_cents),
  seq: Number(a.last_entry_seq),
});

/**
 * How an entry of each kind moves the account's running totals (admin adjustments and referral bonuses move only
 * the balance: a bonus is credit given, not money deposited).
 */
const totalsDelta = (kind: LedgerKind, amountCents: number) => ({
  deposit: kind === 'deposit' ? amountCents : 0,
  charged: kind === 'label_charge' ? -amountCents : 0,
  refunded: kind === 'label_refund' ? amountCents : 0,
});

/**
 * Ledger entries and account balances. Given an outbox, every entry appended also records
 * `account.changed` (the user's money as it now is) in the same transaction.
 */
export function createLedgerRepo(db: Knex, accountChanges?: Outbox): LedgerRepo {
  const on = (tx?: Tx) => fromTx(tx) ?? db;
  const needTx = (tx: Tx) => {
    const trx = fromTx(tx);
    if (!trx) throw new Error('a ledger movement must run inside a transaction');
    return trx;
  };

  return {
    async findByKey(key, tx) {
      const row = await on(tx)<EntryRow>('ledger_entries').where({ idempotency_key: key }).first();
      return row ? toRecord(row) : null;
    },

    async lockAccount(userId, tx) {
      const trx = needTx(tx);
      await trx.raw('insert into accounts (user_id) values (?) on conflict (user_id) do nothing', [userId]);
      const row = await trx('accounts').where({ user_id: userId }).forUpdate().first('balance_cents');
      return Number((row as { balance_cents: string }).balance_cents);
    },

    async append(entry: NewLedgerEntry, tx) {
      const trx = needTx(tx);
      try {
        // A savepoint, so a taken key leaves the caller's transaction usable for reading the winner.
        const row = await trx.transaction(async (sp) => {
          const [inserted] = await sp('ledger_entries')
            .insert({
              user_id: entry.userId,
              kind: entry.kind,
              amount_cents: entry.amountCents,
              balance_after_cents: entry.balanceAfterCents,
              idempotency_key: entry.key,
              reference: entry.reference ?? null,
              memo: entry.memo ?? null,
              admin_id: entry.adminId ?? null,
            })
            .returning<EntryRow[]>('*');
          const seq = Number((inserted as EntryRow & { seq: string }).seq);
          const delta = totalsDelta(entry.kind, entry.amountCents);
          // After the insert and inside its savepoint: a replayed key (refused insert) moves no total.
          const [account] = (await sp('accounts')
            .where({ user_id: entry.userId })
            .update({
              balance_cents: sp.raw('balance_cents + ?', [entry.amountCents]),
              total_deposit_cents: sp.raw('total_deposit_cents + ?', [delta.deposit]),
              total_charged_cents: sp.raw('total_charged_cents + ?', [delta.charged]),
              total_refunded_cents: sp.raw('total_refunded_cents + ?', [delta.refunded]),
              last_entry_seq: seq,
              updated_at: sp.fn.now(),
            })
            .returning(ACCOUNT_COLUMNS)) as AccountRow[];
          // The account row is locked by the caller, so the two can only disagree through a bug.
          if (Number(account?.balance_cents) !== entry.balanceAfterCents) {
            throw new Error(`account balance of ${entry.userId} does not match its ledger entry`);
          }
          if (accountChanges) {
            const totals = toTotals(account as AccountRow);
            const event: AccountChangedEvent = {
              userId: entry.userId,
              balanceCents: totals.balanceCents,
              totalDepositCents: totals.depositCents,
              totalSpentCents: totals.chargedCents - totals.refundedCents,
              seq,
            };
            await accountChanges.add(sp, TOPICS.accountChanged, [{ key: entry.userId, value: event }]);
          }
          return inserted as EntryRow;
        });
        return { ok: true, entry: toRecord(row) };
      } catch (e) {
        if (isKeyViolation(e)) return { ok: false, conflict: 'key' };
        throw e;
      }
    },

    async refundedCents(chargeKey, tx) {
      const row = await on(tx)('ledger_entries')
        .where({ kind: 'label_refund', reference: chargeKey })
        .sum<{ total: string | null }>({ total: 'amount_cents' })
        .first();
      return Number(row?.total ?? 0);
    },

    async totals(userIds) {
      const result = new Map<string, AccountTotals>();
      if (userIds.length === 0) return result;
      const accounts = (await db('accounts').whereIn('user_id', userIds).select(ACCOUNT_COLUMNS)) as AccountRow[];
      for (const a of accounts) result.set(a.user_id, toTotals(a));
      return result;
    },

    async firstDepositKey(userId, tx) {
      const row = await on(tx)('ledger_entries')
        .where({ user_id: userId, kind: 'deposit' })
        .orderBy('seq', 'asc')
        .first('idempotency_key');
      return row ? (row as { idempotency_key: string }).idempotency_key : null;
    },

    async listEntries(userId, limit) {
      const rows = await db<EntryRow>('ledger_entries')
        .where({ user_id: userId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit);
      return rows.map(toRecord);
    },
  };
}
