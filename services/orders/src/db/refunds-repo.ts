import type { Knex } from '@flatship/kit';
import { fromTx, type Tx } from '@flatship/kit';
import type { RefundableLabel, RefundsRepo } from '../domain/refunds';
import { type AdminLabelRow, toAdminRecord } from './admin-orders-repo';

type RefundRow = AdminLabelRow & { attempt: number | null };

const toRefundable = (r: RefundRow): RefundableLabel => ({ ...toAdminRecord(r), attempt: r.attempt ?? 0 });
const firstOf = (rows: RefundRow[]) => (rows[0] ? toRefundable(rows[0]) : null);

/**
 * `refund_checked_at` is the last look at a waiting refund; while someone is asking its carrier it lies ahead, so
 * nobody else takes the row until the look ends (`release`) or, after a crash, until the hold runs out.
 */
const HELD_UNTIL = "now() + interval '2 minutes'";

/** Refunds of unused labels, on the labels table (see migration 0014). */
export function createRefundsRepo(db: Knex): RefundsRepo {
  const labels = (tx?: Tx) => (fromTx(tx) ?? db)<RefundRow>('labels');
  // Held while the request drives its own void: the status job does not send it a second time meanwhile.
  const claimWhere = async (ids: readonly string[], by: { userId: string; byAdmin: boolean }) =>
    (await labels()
      .whereIn('id', ids)
      .where({ status: 'completed' })
      .whereNull('refund_status')
      .update({
        refund_status: 'requested',
        refund_requested_at: db.fn.now(),
        refund_requested_by: by.userId,
        refund_by_admin: by.byAdmin,
        refund_checked_at: db.raw(HELD_UNTIL),
        updated_at: db.fn.now(),
      })
      .returning('*')) as RefundRow[];
  return {
    async find(id, tx) {
      return firstOf(await labels(tx).where({ id }).select('*'));
    },

    async claim(id, by) {
      return firstOf(await claimWhere([id], by));
    },

    async claimMany(ids, by) {
      return (await claimWhere(ids, by)).map(toRefundable);
    },

    async takeWaiting(ids) {
      const rows = (await labels()
        .whereIn('id', ids)
        .where({ refund_status: 'requested' })
        .where((q) => q.whereNull('refund_checked_at').orWhere('refund_checked_at', '<=', db.fn.now()))
        .update({ refund_checked_at: db.raw(HELD_UNTIL) })
        .returning('*')) as RefundRow[];
      return rows.map(toRefundable);
    },

    async noteAnswered(id, ref) {
      await labels()
        .where({ id, refund_status: 'requested' })
        .update({
          refund_answered_at: db.raw('coalesce(refund_answered_at, now())'),
          ...(ref ? { refund_ref: ref } : {}),
          updated_at: db.fn.now(),
        });
    },

    async noteConfirmed(id) {
      await labels()
        .where({ id, refund_status: 'requested' })
        .update({
          refund_answered_at: db.raw('coalesce(refund_answered_at, now())'),
          refund_confirmed_at: db.raw('coalesce(refund_confirmed_at, now())'),
          updated_at: db.fn.now(),
        });
    },

    async reject(id, reason) {
      const rows = (await labels()
        .where({ id, refund_status: 'requested' })
        .whereNull('refund_confirmed_at')
        .update({
          refund_status: 'rejected',
          refund_reason: reason,
          refund_answered_at: db.raw('coalesce(refund_answered_at, now())'),
          updated_at: db.fn.now(),
        })
        .returning('*')) as RefundRow[];
      return firstOf(rows);
    },

    async settle(id, tx) {
      const rows = (await labels(tx)
        .where({ id, status: 'completed', refund_status: 'requested' })
        .update({
          status: 'void',
          refunded: true,
          refund_status: 'refunded',
          refund_confirmed_at: db.raw('coalesce(refund_confirmed_at, now())'),
          voided_at: db.fn.now(),
          voided_by: db.ref('refund_requested_by'),
          updated_at: db.fn.now(),
        })
        .returning('*')) as RefundRow[];
      return firstOf(rows);
    },

    async takeDue(limit, recheckMs) {
      // The database's clock alone: the pause is measured against the time it wrote when it last took the row.
      const result = await db.raw(
        `update labels set refund_checked_at = ${HELD_UNTIL}
          where id in (
            select id from labels
             where refund_status = 'requested'
               and (refund_checked_at is null or refund_checked_at <= now() - make_interval(secs => ?::double precision / 1000))
             order by refund_checked_at nulls first, refund_requested_at
             limit ?
             for update skip locked)
          returning *`,
        [recheckMs, limit],
      );
      return (result.rows as RefundRow[]).map(toRefundable);
    },

    async release(id) {
      await labels().where({ id, refund_status: 'requested' }).update({ refund_checked_at: db.fn.now() });
    },

    async listBatch(orderId) {
      return (await labels().where({ bulk_order_id: orderId }).orderBy('row_index').select('*')).map(toRefundable);
    },
  };
}
