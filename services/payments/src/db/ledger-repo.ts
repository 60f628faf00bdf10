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

type Sums = Omit<AccountTotals, 'balanceCents'>;

/**
 * Deposits, charges and refunds of each user, and the number of their latest entry (`seq`), in one query over
 * the ledger; users without entries are absent.
 */
async function sumsByUser(k: Knex, userIds: string[]): Promise<Map<string, Sums>> {
  const rows = (await k('ledger_entries')
    .whereIn('user_id', userIds)
    .groupBy('user_id', 'kind')
    .select('user_id', 'kind', k.raw('sum(amount_cents) as total'), k.raw('max(seq) as seq'))) as {
    user_id: string;
    kind: LedgerKind;
    total: string;
    seq: string;
  }[];
  const sums = new Map<string, Sums>();
  for (const r of rows) {
    const t = sums.get(r.user_id) ?? { depositCents: 0, chargedCents: 0, refundedCents: 0, seq: 0 };
    const total = Number(r.total);
    if (r.kind === 'deposit') t.depositCents = total;
    else if (r.kind === 'label_charge') t.chargedCents = -total;
    else if (r.kind === 'label_refund') t.refundedCents = total;
    t.seq = Math.max(t.seq, Number(r.seq));
    sums.set(r.user_id, t);
  }
  return sums;
}

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
          const [account] = await sp('accounts')
            .where({ user_id: entry.userId })
            .update({ balance_cents: sp.raw('balance_cents + ?', [entry.amountCents]), updated_at: sp.fn.now() })
            .returning('balance_cents');
          // The account row is locked by the caller, so the two can only disagree through a bug.
          if (Number((account as { balance_cents: string } | undefined)?.balance_cents) !== entry.balanceAfterCents) {
            throw new Error(`account balance of ${entry.userId} does not match its ledger entry`);
          }
          if (accountChanges) {
            // The caller holds the account row, so the entry just written is the user's latest and its balance
            // is the account's.
            const sums = (await sumsByUser(sp, [entry.userId])).get(entry.userId);
            const event: AccountChangedEvent = {
              userId: entry.userId,
              balanceCents: entry.balanceAfterCents,
              totalDepositCents: sums?.depositCents ?? 0,
              totalSpentCents: (sums?.chargedCents ?? 0) - (sums?.refundedCents ?? 0),
              seq: Number((inserted as EntryRow & { seq: string }).seq),
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
      const [accounts, sums] = await Promise.all([
        db('accounts').whereIn('user_id', userIds).select('user_id', 'balance_cents'),
        sumsByUser(db, userIds),
      ]);
      for (const a of accounts as { user_id: string; balance_cents: string }[]) {
        const s = sums.get(a.user_id) ?? { depositCents: 0, chargedCents: 0, refundedCents: 0, seq: 0 };
        result.set(a.user_id, { balanceCents: Number(a.balance_cents), ...s });
      }
      return result;
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
