import type { Knex } from '@flatship/kit';
import type { DepositFilter, DepositRecord, DepositsRepo } from '../domain/ports';
import { fromTx } from './transactor';

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

// Statuses are BTCPay's invoice statuses as received, so they are compared case-insensitively.
function applyFilter(q: Knex.QueryBuilder, filter: DepositFilter): Knex.QueryBuilder {
  if (filter === 'settled') return q.whereRaw('lower(status) = ?', ['settled']);
  if (filter === 'expired') return q.whereRaw('lower(status) = ?', ['expired']);
  if (filter === 'pending') return q.whereRaw('lower(status) not in (?, ?)', ['settled', 'expired']);
  return q;
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

    async list(userId, { filter, offset, limit }) {
      const rows = await applyFilter(db<DepositRow>('deposits').where({ user_id: userId }), filter)
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .offset(offset)
        .limit(limit);
      return (rows as DepositRow[]).map(toRecord);
    },

    async count(userId, filter) {
      const row = await applyFilter(db('deposits').where({ user_id: userId }), filter)
        .count<{ count: string }[]>('* as count')
        .first();
      return Number(row?.count ?? 0);
    },
  };
}
