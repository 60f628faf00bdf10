import type { Knex } from '@flatship/kit';
import { fromTx } from '@flatship/kit';
import type { BulkOrderItem, BulkStatus, OrderSource } from '@flatship/proto';
import { isId, TERMINAL_BULK_STATUSES } from '@flatship/proto';
import type { BulkOrderRecord, BulkRepo, BulkRowRecord } from '../domain/bulk/ports';
import type { Tx } from '../domain/ports';
import { type LabelRow, toRecord } from './labels-repo';

interface BulkOrderRow {
  id: string;
  user_id: string;
  status: BulkStatus;
  source: OrderSource;
  file_name: string | null;
  total_count: number;
  processed_count: number;
  failed_count: number;
  refunded_count: number;
  cost_cents: number;
  charge_key: string | null;
  submit_hash: string | null;
  submitted_at: Date | null;
  retry_count: number;
  retry_cost_cents: number;
  pdf_name: string | null;
  result_csv_name: string | null;
  auto_confirm_name: string | null;
  stuck_at: Date | null;
  last_progress_at: Date;
  created_at: Date;
  updated_at: Date;
}

interface BulkLabelRow extends LabelRow {
  bulk_order_id: string;
  row_index: number;
  attempt: number;
  input: BulkOrderItem;
}

const toOrder = (r: BulkOrderRow): BulkOrderRecord => ({
  id: r.id,
  userId: r.user_id,
  status: r.status,
  source: r.source,
  fileName: r.file_name,
  totalCount: r.total_count,
  processedCount: r.processed_count,
  failedCount: r.failed_count,
  refundedCount: r.refunded_count,
  costCents: r.cost_cents,
  chargeKey: r.charge_key,
  submitHash: r.submit_hash,
  submittedAt: r.submitted_at,
  retryCount: r.retry_count,
  retryCostCents: r.retry_cost_cents,
  pdfName: r.pdf_name,
  resultCsvName: r.result_csv_name,
  autoConfirmName: r.auto_confirm_name,
  stuckAt: r.stuck_at,
  lastProgressAt: r.last_progress_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toRow = (r: BulkLabelRow): BulkRowRecord => ({
  ...toRecord(r),
  bulkOrderId: r.bulk_order_id,
  rowIndex: r.row_index,
  attempt: r.attempt,
  input: r.input,
});

/** An array binding with null elements: pg sends them as SQL NULLs; knex's types only know arrays without. */
const withNulls = (values: (string | number | null)[]) => values as unknown as string[];

const ERROR_STATUSES = ['processing_error', 'retry_processing_error', 'recovery_failed'];

export function createBulkRepo(db: Knex): BulkRepo {
  const k = (tx?: Tx) => fromTx(tx) ?? db;
  const orders = (tx?: Tx) => k(tx)<BulkOrderRow>('bulk_orders');
  const labels = (tx?: Tx) => k(tx)<BulkLabelRow>('labels');
  const one = (rows: BulkOrderRow[]) => (rows[0] ? toOrder(rows[0]) : null);

  return {
    async create(order) {
      const rows = await orders().insert({ id: order.id, user_id: order.userId }).returning('*');
      const created = one(rows);
      if (!created) throw new Error('bulk order was not created');
      return created;
    },

    async findById(id, tx) {
      if (!isId(id)) return null;
      return one(await orders(tx).where({ id }).limit(1));
    },

    async lock(id, tx) {
      if (!isId(id)) return null;
      return one(await orders(tx).where({ id }).forUpdate().limit(1));
    },

    async listForUser(userId, limit) {
      if (!isId(userId)) return [];
      const rows = await orders()
        .where({ user_id: userId })
        .whereNotNull('submitted_at')
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit);
      return rows.map(toOrder);
    },

    async tryLock(id, tx) {
      if (!isId(id)) return null;
      // skip locked rather than nowait: no error, so the caller's transaction stays usable.
      return one(await orders(tx).where({ id }).forUpdate().skipLocked().limit(1));
    },

    async reserveCharge(id, plan, tx) {
      const n = await orders(tx)
        .where({ id, status: 'processing' })
        .whereNull('charge_key')
        .whereNull('submitted_at')
        .update({
          charge_key: plan.chargeKey,
          cost_cents: plan.costCents,
          submit_hash: plan.submitHash,
          source: plan.source,
          file_name: plan.fileName,
          // The sweeper leaves a fresh claim to the submit that made it.
          last_progress_at: db.fn.now(),
          updated_at: db.fn.now(),
        });
      return n === 1;
    },

    async releaseCharge(id, tx) {
      await orders(tx).where({ id }).whereNull('submitted_at').update({
        status: 'processing',
        charge_key: null,
        cost_cents: 0,
        submit_hash: null,
        stuck_at: null,
        updated_at: db.fn.now(),
      });
    },

    async submit(id, userId, chargeKey, rows, tx) {
      const n = await orders(tx)
        .where({ id, status: 'processing', charge_key: chargeKey })
        .whereNull('submitted_at')
        .update({
          submitted_at: db.fn.now(),
          total_count: rows.length,
          processed_count: 0,
          failed_count: 0,
          refunded_count: 0,
          last_progress_at: db.fn.now(),
          updated_at: db.fn.now(),
        });
      if (n !== 1) return false;
      // Large orders go in slices: one statement per 10,000 rows would hit the bind-parameter limit.
      for (let i = 0; i < rows.length; i += 500) {
        await labels(tx).insert(
          rows.slice(i, i + 500).map((r) => ({
            id: r.id,
            user_id: userId,
            bulk_order_id: id,
            row_index: r.rowIndex,
            attempt: 0,
            input: JSON.stringify(r.input),
            courier: r.courier,
            service_uid: r.serviceUid,
            service_name: r.serviceName,
            sender: JSON.stringify(r.sender),
            receiver: JSON.stringify(r.receiver),
            package: JSON.stringify(r.parcel),
            price_cents: r.priceCents,
            charge_key: chargeKey,
            charged_at: db.fn.now(),
          })) as unknown as BulkLabelRow[],
        );
      }
      return true;
    },

    async reconcileCounts(id, tx) {
      // A statement of its own after the order's row lock: it then sees every row change committed before the lock.
      const result = await k(tx).raw(
        `update bulk_orders o
            set processed_count = c.done, failed_count = c.failed, refunded_count = c.refunded,
                last_progress_at = now(), updated_at = now()
           from (select count(*) filter (where status = 'completed')::int as done,
                        count(*) filter (where status = 'cancelled')::int as failed,
                        count(*) filter (where status = 'void')::int as refunded
                   from labels where bulk_order_id = ?) c
          where o.id = ?
        returning o.*`,
        [id, id],
      );
      const order = one(result.rows as BulkOrderRow[]);
      if (!order) throw new Error(`bulk order ${id} vanished`);
      return order;
    },

    async transition(id, from, to, extra = {}, tx) {
      const patch: Record<string, unknown> = { status: to, updated_at: db.fn.now(), last_progress_at: db.fn.now() };
      if (extra.pdfName !== undefined) patch.pdf_name = extra.pdfName;
      if (extra.resultCsvName !== undefined) patch.result_csv_name = extra.resultCsvName;
      if (extra.autoConfirmName !== undefined) patch.auto_confirm_name = extra.autoConfirmName;
      if (extra.retryCount !== undefined) patch.retry_count = extra.retryCount;
      if (extra.retryCostCents !== undefined) patch.retry_cost_cents = extra.retryCostCents;
      if (extra.stuck !== undefined) patch.stuck_at = extra.stuck ? db.fn.now() : null;
      else if (!ERROR_STATUSES.includes(to)) patch.stuck_at = null;
      return one(
        await orders(tx)
          .where({ id })
          .whereIn('status', [...from])
          .update(patch)
          .returning('*'),
      );
    },

    async rows(orderId, tx) {
      if (!isId(orderId)) return [];
      return (await labels(tx).where({ bulk_order_id: orderId }).orderBy('row_index')).map(toRow);
    },

    async failedRows(orderIds, limitPerOrder) {
      const out = new Map<string, { rowIndex: number; error: string }[]>();
      if (orderIds.length === 0) return out;
      const result = await db.raw(
        `select bulk_order_id, row_index, error from (
           select bulk_order_id, row_index, error,
                  row_number() over (partition by bulk_order_id order by row_index) as n
             from labels where bulk_order_id = any(?::uuid[]) and status = 'cancelled') f
          where n <= ? order by bulk_order_id, row_index`,
        [orderIds, limitPerOrder],
      );
      for (const r of result.rows as { bulk_order_id: string; row_index: number; error: string | null }[]) {
        const list = out.get(r.bulk_order_id) ?? [];
        list.push({ rowIndex: r.row_index, error: r.error ?? '' });
        out.set(r.bulk_order_id, list);
      }
      return out;
    },

    async findRows(labelIds, tx) {
      const ids = [...new Set(labelIds)].filter(isId);
      if (ids.length === 0) return [];
      return (await labels(tx).whereIn('id', ids).whereNotNull('bulk_order_id')).map(toRow);
    },

    async completeRows(done, tx) {
      if (done.length === 0) return [];
      const result = await k(tx).raw(
        `update labels l
            set status = 'completed', tracking_number = v.tracking_number, pdf_name = v.pdf_name,
                carrier_id = v.carrier_id, carrier_cost_cents = v.carrier_cost_cents, carrier_ref = v.carrier_ref,
                carrier_sku = v.carrier_sku, error_code = null, error = null, updated_at = now()
           from unnest(?::uuid[], ?::int[], ?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[])
                  as v(id, attempt, tracking_number, pdf_name, carrier_id, carrier_cost_cents, carrier_ref, carrier_sku)
          where l.id = v.id and l.attempt = v.attempt and l.status = 'pending'
        returning l.*`,
        [
          done.map((d) => d.id),
          done.map((d) => d.attempt),
          done.map((d) => d.trackingNumber),
          done.map((d) => d.pdfName),
          withNulls(done.map((d) => d.purchase.carrierId)),
          withNulls(done.map((d) => d.purchase.costCents)),
          withNulls(done.map((d) => d.purchase.ref)),
          withNulls(done.map((d) => d.purchase.sku)),
        ],
      );
      return (result.rows as BulkLabelRow[]).map(toRow);
    },

    async failRows(failed, tx) {
      if (failed.length === 0) return [];
      const result = await k(tx).raw(
        `update labels l
            set status = 'cancelled', error_code = v.error_code, error = v.error, refunded = v.refunded, updated_at = now()
           from unnest(?::uuid[], ?::int[], ?::text[], ?::text[], ?::boolean[]) as v(id, attempt, error_code, error, refunded)
          where l.id = v.id and l.attempt = v.attempt and l.status = 'pending'
        returning l.*`,
        [
          failed.map((f) => f.id),
          failed.map((f) => f.attempt),
          failed.map((f) => f.errorCode),
          failed.map((f) => f.error),
          failed.map((f) => f.refunded),
        ],
      );
      return (result.rows as BulkLabelRow[]).map(toRow);
    },

    async requeueFailed(orderId, chargeKey, tx) {
      const rows = await labels(tx)
        .where({ bulk_order_id: orderId, status: 'cancelled' })
        .update({
          status: 'pending',
          attempt: db.raw('attempt + 1'),
          charge_key: chargeKey,
          charged_at: db.fn.now(),
          refunded: false,
          error_code: null,
          error: null,
          updated_at: db.fn.now(),
        } as unknown as Partial<BulkLabelRow>)
        .returning('*');
      return rows.map(toRow).sort((a, b) => a.rowIndex - b.rowIndex);
    },

    async leaseStalled(olderThan, limit) {
      const result = await db.raw(
        `update bulk_orders set last_progress_at = now()
          where id in (
            select id from bulk_orders
             where status not in (${TERMINAL_BULK_STATUSES.map(() => '?').join(', ')})
               and last_progress_at < ?
               and (submitted_at is not null or charge_key is not null)
             order by last_progress_at
             limit ?
             for update skip locked)
        returning *`,
        [...TERMINAL_BULK_STATUSES, olderThan, limit],
      );
      return (result.rows as BulkOrderRow[]).map(toOrder);
    },
  };
}
