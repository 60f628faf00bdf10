import type { Knex } from '@flatship/kit';
import { fromTx } from '@flatship/kit';
import type { DepositFilter, DepositHistoryLine, DepositRecord, DepositsRepo } from '../domain/ports';

interface DepositRow {
  id: string;
  user_id: string;
  invoice_id: string;
  amount_cents: string;
  status: string;
  created_at: Date;
  settled_at: Date | null;
}

const toRecord = (r: DepositRow): DepositRecord => ({
  id: r.id,
  userId: r.user_id,
  invoiceId: r.invoice_id,
  amountCents: Number(r.amount_cents),
  status: r.status,
  createdAt: r.created_at,
  settledAt: r.settled_at,
});

const SETTLED = 'Settled';
/** Invoices that may still be paid; the flow stores BTCPay's spelling exactly. */
const OPEN_STATUSES = ['New', 'Processing'];

// Statuses are BTCPay's invoice statuses as received, so they are compared case-insensitively.
function applyFilter(q: Knex.QueryBuilder, filter: DepositFilter): Knex.QueryBuilder {
  if (filter === 'settled') return q.whereRaw('lower(status) = ?', ['settled']);
  if (filter === 'expired') return q.whereRaw('lower(status) = ?', ['expired']);
  if (filter === 'pending') return q.whereRaw('lower(status) not in (?, ?)', ['settled', 'expired']);
  return q;
}

interface HistoryRow {
  id: string;
  kind: 'deposit' | 'referral_bonus';
  amount_cents: string;
  status: string;
  created_at: Date;
  memo: string | null;
}

const toLine = (r: HistoryRow): DepositHistoryLine => ({
  id: r.id,
  kind: r.kind,
  amountCents: Number(r.amount_cents),
  status: r.status,
  createdAt: r.created_at,
  memo: r.memo,
});

/**
 * The user's deposit history: their BTCPay deposits and, as lines of their own, the referral bonuses credited to
 * their balance. A bonus is money in, so it counts as settled (it is in `all` and `settled`, never `expired` or
 * `pending`).
 */
function historyOf(db: Knex, userId: string, filter: DepositFilter): Knex.QueryBuilder {
  const deposits = applyFilter(
    db('deposits')
      .where({ user_id: userId })
      .select('id', db.raw("'deposit' as kind"), 'amount_cents', 'status', 'created_at', db.raw('null::text as memo')),
    filter,
  );
  if (filter !== 'all' && filter !== 'settled') return deposits;
  const bonuses = db('ledger_entries')
    .where({ user_id: userId, kind: 'referral_bonus' })
    .select('id', 'kind', 'amount_cents', db.raw(`'${SETTLED}' as status`), 'created_at', 'memo');
  return deposits.unionAll(bonuses, true);
}

export function createDepositsRepo(db: Knex): DepositsRepo {
  return {
    async insert(deposit, tx) {
      const [row] = await (fromTx(tx) ?? db)('deposits')
        .insert({
          user_id: deposit.userId,
          invoice_id: deposit.invoiceId,
          amount_cents: deposit.amountCents,
          status: deposit.status,
          ...(deposit.createdAt ? { created_at: deposit.createdAt } : {}),
          settled_at: deposit.settledAt ?? null,
        })
        .returning<DepositRow[]>('*');
      return toRecord(row as DepositRow);
    },

    async findByInvoiceId(invoiceId, tx) {
      const row = await (fromTx(tx) ?? db)<DepositRow>('deposits').where({ invoice_id: invoiceId }).first();
      return row ? toRecord(row) : null;
    },

    async lockByInvoiceId(invoiceId, tx) {
      const trx = fromTx(tx);
      if (!trx) throw new Error('locking a deposit needs a transaction');
      const row = await trx<DepositRow>('deposits').where({ invoice_id: invoiceId }).forUpdate().first();
      return row ? toRecord(row) : null;
    },

    async setStatus(invoiceId, status, tx) {
      const changed = await (fromTx(tx) ?? db)('deposits')
        .where({ invoice_id: invoiceId })
        .whereNot({ status: SETTLED })
        .whereNot({ status })
        .update({ status });
      return changed > 0;
    },

    async settle(invoiceId, amountCents, settledAt, tx) {
      const trx = fromTx(tx);
      if (!trx) throw new Error('settling a deposit needs a transaction');
      const changed = await trx('deposits')
        .where({ invoice_id: invoiceId })
        .whereNot({ status: SETTLED })
        .update({ status: SETTLED, amount_cents: amountCents, settled_at: settledAt });
      // The caller holds the row lock and saw it unsettled, so anything else is a bug.
      if (changed !== 1) throw new Error(`deposit ${invoiceId} could not be settled`);
    },

    async listOpen({ createdAfter, createdBefore, limit }) {
      const rows = await db<DepositRow>('deposits')
        .whereIn('status', OPEN_STATUSES)
        .where('created_at', '>', createdAfter)
        .where('created_at', '<', createdBefore)
        .orderBy('created_at', 'asc')
        .limit(limit);
      return (rows as DepositRow[]).map(toRecord);
    },

    async list(userId, { filter, offset, limit }) {
      const rows = (await db
        .select('*')
        .from(historyOf(db, userId, filter).as('history'))
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .offset(offset)
        .limit(limit)) as HistoryRow[];
      return rows.map(toLine);
    },

    async count(userId, filter) {
      const row = await db
        .from(historyOf(db, userId, filter).as('history'))
        .count<{ count: string }[]>('* as count')
        .first();
      return Number(row?.count ?? 0);
    },
  };
}
